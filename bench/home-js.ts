/**
 * JavaScript the built home page loads before anything lazy (budget: 100 KiB gzip). Needs a
 * build (`npm run build`); run alone with `node scripts/measure-home-js.js`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export async function run(): Promise<string[]> {
  if (!existsSync('build/index.html')) return ['no build/ yet: run `npm run build` first'];
  const out = execFileSync('node', ['scripts/measure-home-js.js'], { encoding: 'utf8' });
  return out.trimEnd().split('\n');
}
