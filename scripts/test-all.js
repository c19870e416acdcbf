// `npm test`: every check the project has, in order, then one grand total line.
// Steps: type check, lint + format check, unit tests, lesson validation, browser end-to-end tests.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

rmSync('.test-summaries/vitest.json', { force: true });
rmSync('.test-summaries/playwright.json', { force: true });

const steps = [
  ['type check', 'npm', ['run', '-s', 'check']],
  ['lint and format', 'npm', ['run', '-s', 'lint']],
  ['unit tests', 'npx', ['vitest', 'run']],
  ['lessons', 'npm', ['run', '-s', 'lessons:check']],
  ['end-to-end tests', 'npm', ['run', '-s', 'test:e2e']]
];

const failedSteps = [];
for (const [name, cmd, args] of steps) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  if (r.status !== 0) failedSteps.push(name);
}

let passed = 0;
let failed = 0;
let skipped = 0;
for (const f of ['.test-summaries/vitest.json', '.test-summaries/playwright.json']) {
  if (existsSync(f)) {
    const s = JSON.parse(readFileSync(f, 'utf8'));
    passed += s.passed;
    failed += s.failed;
    skipped += s.skipped;
  }
}
// A step that failed without failing a test (type errors, lint, lesson validation) counts as one failure.
const stepFailures = failedSteps.filter((s) => s !== 'unit tests' && s !== 'end-to-end tests').length;
failed += stepFailures;
if (failedSteps.length) console.log(`\nFailed steps: ${failedSteps.join(', ')}`);
console.log(`\ntotal: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedSteps.length ? 1 : 0);
