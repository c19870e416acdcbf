// Prints a plain `playwright: N passed, N failed, N skipped` line and records the counts.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Reporter, Suite } from '@playwright/test/reporter';

export default class PlainSummaryPlaywright implements Reporter {
  private root: Suite | undefined;
  onBegin(_config: unknown, suite: Suite): void {
    this.root = suite;
  }
  onEnd(): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const t of this.root?.allTests() ?? []) {
      const o = t.outcome();
      if (o === 'expected' || o === 'flaky') passed++;
      else if (o === 'skipped') skipped++;
      else failed++;
    }
    mkdirSync('.test-summaries', { recursive: true });
    writeFileSync('.test-summaries/playwright.json', JSON.stringify({ passed, failed, skipped }));
    console.log(`playwright: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
