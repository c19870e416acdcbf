/**
 * `npm run bench`: every benchmark, printed as figures. Each bench module exports
 * `run(): Promise<string[]>` and can also be run alone with `npx tsx bench/<name>.ts`.
 * Pass names to run a subset: `npm run bench -- scheduler`.
 */
import { existsSync } from 'node:fs';

const ALL = ['sim', 'snapshot', 'scheduler', 'network', 'home-js'];
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length ? wanted : ALL;

for (const name of names) {
  const file = new URL(`./${name}.ts`, import.meta.url);
  if (!existsSync(file)) {
    console.log(`\n## ${name}: (no benchmark file bench/${name}.ts)`);
    continue;
  }
  console.log(`\n## ${name}`);
  const mod = (await import(file.href)) as { run: () => Promise<string[]> };
  const started = process.hrtime.bigint();
  for (const line of await mod.run()) console.log(line);
  console.log(`(${name} took ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s wall)`);
}
