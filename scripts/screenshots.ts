// Screenshots of every page at desktop and phone sizes, light and dark, for reviewing the UI, and
// the README's docs/screenshot.png. Needs the built app running (`npm start`):
//   npx tsx scripts/screenshots.ts [--url http://localhost:4173] [--out test-results/screenshots]
import { chromium } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const base = arg('--url', 'http://localhost:4173').replace(/\/$/, '');
const out = arg('--out', 'test-results/screenshots');
const routes = ['/', '/sandbox', '/settings'];
const sizes = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 }
];
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu']
});
try {
  for (const viewport of sizes) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport, colorScheme, serviceWorkers: 'block' });
      const page = await context.newPage();
      for (const route of routes) {
        await page.goto(base + route);
        await page.locator('main[data-ready="true"]').waitFor({ state: 'attached' });
        const name = route === '/' ? 'home' : route.slice(1).replace(/\//g, '-');
        const file = join(out, `${name}-${viewport.width}x${viewport.height}-${colorScheme}.png`);
        await page.screenshot({ path: file });
        console.log(file);
        if (route === '/' && viewport.width === 1280 && colorScheme === 'light') {
          await page.screenshot({ path: 'docs/screenshot.png' });
          console.log('docs/screenshot.png');
        }
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
}
