import { defineConfig } from '@playwright/test';

// E2E_PORT lets a second checkout run its browser tests next to this one.
const port = Number(process.env.E2E_PORT ?? 4173);
export default defineConfig({
  testDir: 'tests/e2e',
  workers: 1,
  timeout: 60_000,
  // Generous: the service worker precaches the whole build (the editor is ~6 MB) on first visit.
  expect: { timeout: 15_000 },
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['./scripts/plain-summary-playwright.ts']],
  webServer: {
    command: `npm run build && node scripts/start.js --no-build`,
    port,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    env: { PORT: String(port) }
  },
  use: {
    baseURL: `http://localhost:${port}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync'
      ]
    }
  }
});
