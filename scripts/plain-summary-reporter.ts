// Prints a plain `vitest: N passed, N failed, N skipped` line (CI reads that form) and records
// the counts so scripts/test-all.js can print the grand total.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

export default class PlainSummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = errors.length;
    let skipped = 0;
    for (const m of modules) {
      if (m.state() === 'failed' && [...m.children.allTests()].length === 0) failed++;
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failed++;
        else skipped++;
      }
    }
    mkdirSync('.test-summaries', { recursive: true });
    writeFileSync('.test-summaries/vitest.json', JSON.stringify({ passed, failed, skipped }));
    console.log(`vitest: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
