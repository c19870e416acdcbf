// Renders the PNG app icons from the SVG sources with Debian's chromium:
//   npx tsx scripts/render-icons.ts
// The PNGs are committed, so builds do not need a browser.
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';

const icons = [
  { svg: 'static/icons/icon.svg', out: 'static/icons/icon-192.png', size: 192 },
  { svg: 'static/icons/icon.svg', out: 'static/icons/icon-512.png', size: 512 },
  { svg: 'static/icons/icon-maskable.svg', out: 'static/icons/icon-maskable-512.png', size: 512 },
  // iOS ignores transparency and rounds the corners itself, so it gets the full-bleed artwork.
  { svg: 'static/icons/icon-maskable.svg', out: 'static/icons/apple-touch-icon.png', size: 180 }
];

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu']
});
try {
  for (const { svg, out, size } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const markup = readFileSync(svg, 'utf8');
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${markup}`
    );
    await page.screenshot({ path: out, omitBackground: true });
    await page.close();
    console.log(`${out} (${size}x${size})`);
  }
} finally {
  await browser.close();
}
