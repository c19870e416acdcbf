import { expect, type Page } from '@playwright/test';

/** The lab clock `t = 1m16s` in virtual seconds. */
export async function clockSeconds(page: Page): Promise<number> {
  const text = (await page.getByTestId('clock').textContent()) ?? '';
  const m = /t = (?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?/.exec(text);
  if (!m) throw new Error(`not a clock: ${text}`);
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Math.floor(Number(m[3] ?? 0));
}

/** How the clock prints `s` seconds. */
export function clockText(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `t = ${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${sec}s`;
}

/** A lesson's lab runs on its own; tests that drive time pause it first and read where it is. */
export async function pauseLab(page: Page): Promise<number> {
  const pause = page.getByRole('button', { name: 'Pause' });
  await expect(pause).toBeVisible();
  await pause.click();
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
  return clockSeconds(page);
}
