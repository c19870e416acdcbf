/**
 * `npm run fuzz [-- --runs N --seed S]`: the longer fuzz run. Prints, per generator, the inputs
 * tried, accepted, rejected with a named place, failures (the target is 0) and the heap growth: MB
 * of heap and array buffers after the run minus before, both after a full GC (the script runs node
 * with --expose-gc). Exits 1 if any generator found a failure or grew more than MAX_GROWTH_MB.
 */
import { fuzz, targets } from './targets';

/** A generator whose run keeps more heap than this fails (memory growth is a failure too). */
export const MAX_GROWTH_MB = 200;

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) console.log('note: no --expose-gc, so heap growth includes garbage not yet collected');

/** Heap in use, with the array buffers (unzipped bytes) outside it, after a full collection. */
function heapMB(): number {
  collect?.();
  collect?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 1024 / 1024;
}

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
  ['generator', 'tried', 'accepted', 'rejected (place named)', 'failures', 'seconds', 'heap growth MB']
];
let failed = 0;
let worstGrowth = 0;
for (const t of targets()) {
  const heapBefore = heapMB();
  const start = performance.now();
  const tally = fuzz(t, runs, seed);
  const s = ((performance.now() - start) / 1000).toFixed(1);
  const growth = heapMB() - heapBefore;
  worstGrowth = Math.max(worstGrowth, growth);
  if (growth > MAX_GROWTH_MB)
    tally.failures.push({
      input: `${runs} inputs`,
      problem: `the heap grew by ${growth.toFixed(1)} MB over the run (at most ${MAX_GROWTH_MB} MB)`
    });
  rows.push([
    t.name,
    String(tally.tried),
    String(tally.accepted),
    String(tally.rejected),
    String(tally.failures.length),
    s,
    growth.toFixed(1)
  ]);
  failed += tally.failures.length;
  for (const f of tally.failures.slice(0, 5))
    console.log(`  ${t.name}: ${f.problem}\n    input: ${JSON.stringify(f.input)}`);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows)
  console.log(r.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  '));
console.log(
  `seed ${seed}, ${runs} inputs per generator: ${failed} failures, heap growth at most ${worstGrowth.toFixed(1)} MB (limit ${MAX_GROWTH_MB} MB)`
);
process.exit(failed ? 1 : 0);
