// Measures the JavaScript the built home page loads before any lazy chunk (Monaco, the lab, other
// languages): every module the page preloads or imports, followed through static imports only.
//   node scripts/measure-home-js.js [--json] [--check]
// --check exits 1 when the gzip total is over the 100 KiB budget.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KIB = 100;
const buildDir = resolve(process.argv.find((a) => a.startsWith('--build='))?.slice(8) ?? 'build');
const indexHtml = join(buildDir, 'index.html');
if (!existsSync(indexHtml)) {
  console.error(`No ${relative(process.cwd(), indexHtml)}: run \`npm run build\` first.`);
  process.exit(2);
}

const html = readFileSync(indexHtml, 'utf8');
const entries = new Set();
for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
  const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
  if (href && /\brel="modulepreload"/.test(tag)) entries.add(href);
}
for (const m of html.matchAll(/import\(\s*["']([^"']+\.js)["']\s*\)/g)) entries.add(m[1]);
for (const m of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) entries.add(m[1]);

// Static imports only: `import x from "./a.js"`, `import "./a.js"`, `export * from "./a.js"`.
const staticImport = /(?:^|[;}\s])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g;

const files = new Set();
function visit(file) {
  if (files.has(file) || !existsSync(file)) return;
  files.add(file);
  const code = readFileSync(file, 'utf8');
  for (const m of code.matchAll(staticImport)) visit(resolve(dirname(file), m[1]));
}
for (const href of entries) visit(resolve(buildDir, href.replace(/^\//, '')));

let raw = 0;
let gzip = 0;
const rows = [];
for (const file of files) {
  const bytes = readFileSync(file);
  const gz = gzipSync(bytes).length;
  raw += bytes.length;
  gzip += gz;
  rows.push({ file: relative(buildDir, file), raw: bytes.length, gzip: gz });
}
rows.sort((a, b) => b.gzip - a.gzip);

const kib = (n) => (n / 1024).toFixed(1);
const result = { files: rows.length, rawBytes: raw, gzipBytes: gzip, budgetKiB: BUDGET_KIB };
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ ...result, modules: rows }, null, 2));
} else {
  for (const r of rows)
    console.log(`${kib(r.gzip).padStart(7)} KiB gz  ${kib(r.raw).padStart(7)} KiB  ${r.file}`);
  console.log(
    `home page JavaScript: ${rows.length} files, ${kib(raw)} KiB raw, ${kib(gzip)} KiB gzip (budget ${BUDGET_KIB} KiB gzip)`
  );
}
if (process.argv.includes('--check') && gzip > BUDGET_KIB * 1024) process.exit(1);
