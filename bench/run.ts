/**
 * `npm run bench`: every benchmark, printed as figures. Each bench module exports
 * `run(): Promise<string[]>` and can also be run alone with `npx tsx bench/<name>.ts`.
 * Pass names to run a subset: `npm run bench -- scheduler`.
 *
 * Each benchmark runs in its own process: one that leaves a large heap behind (the 1,000-node
 * cluster) would otherwise slow the next one's allocations and garbage collection.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ALL = ['sim', 'snapshot', 'scheduler', 'network', 'home-js'];
const one = process.argv.indexOf('--one');

if (one >= 0) {
  const name = process.argv[one + 1];
  const mod = (await import(new URL(`./${name}.ts`, import.meta.url).href)) as {
    run: () => Promise<string[]>;
  };
  const started = process.hrtime.bigint();
  for (const line of await mod.run()) console.log(line);
  console.log(`(${name} took ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s wall)`);
} else {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  let failed = false;
  for (const name of wanted.length ? wanted : ALL) {
    const file = new URL(`./${name}.ts`, import.meta.url);
    if (!existsSync(file)) {
      console.log(`\n## ${name}: (no benchmark file bench/${name}.ts)`);
      continue;
    }
    console.log(`\n## ${name}`);
    // The same Node with the same loader (tsx's flags are in execArgv), a fresh heap.
    const r = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--one', name],
      { stdio: 'inherit' }
    );
    if (r.status !== 0) {
      console.log(`(${name} failed: exit ${r.status ?? r.signal})`);
      failed = true;
    }
  }
  if (failed) process.exitCode = 1;
}
