/**
 * `npm run fuzz [-- --runs N --seed S]`: the longer fuzz run. Prints, per generator, the inputs
 * tried, accepted, rejected with a named place, and failures (the target is 0), and exits 1 if any
 * generator found a failure.
 */
import { fuzz, targets } from './targets';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) {
    console.error(`error: --${name} needs a positive integer`);
    process.exit(1);
  }
  return v;
}

const runs = flag('runs', 1000);
const seed = flag('seed', 1);
const rows: string[][] = [
  ['generator', 'tried', 'accepted', 'rejected (place named)', 'failures', 'seconds']
];
let failed = 0;
for (const t of targets()) {
  const start = performance.now();
  const tally = fuzz(t, runs, seed);
  const s = ((performance.now() - start) / 1000).toFixed(1);
  rows.push([
    t.name,
    String(tally.tried),
    String(tally.accepted),
    String(tally.rejected),
    String(tally.failures.length),
    s
  ]);
  failed += tally.failures.length;
  for (const f of tally.failures.slice(0, 5))
    console.log(`  ${t.name}: ${f.problem}\n    input: ${JSON.stringify(f.input)}`);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows)
  console.log(r.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  '));
console.log(`seed ${seed}, ${runs} inputs per generator: ${failed} failures`);
process.exit(failed ? 1 : 0);
