// `npm start`: build the static app and serve it on localhost (no dependencies beyond Node).
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Headers a page's <meta> CSP cannot carry; a static host should send them too (README,
 * "Hosting"): frame-ancestors (only this origin may frame the app), nosniff (scripts and styles
 * are used only with their declared type) and no referrer to other origins.
 */
export const SECURITY_HEADERS = {
  'content-security-policy': "frame-ancestors 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer'
};

const direct = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
const port = Number(process.env.PORT ?? 4173);
if (direct && !process.argv.includes('--no-build')) {
  const r = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const root = join(process.cwd(), 'build');
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ttf': 'font/ttf',
  '.yaml': 'text/yaml; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.zip': 'application/zip'
};
async function file(p) {
  try {
    const s = await stat(p);
    if (s.isDirectory()) return file(join(p, 'index.html'));
    return p;
  } catch {
    if (!extname(p)) {
      try {
        await stat(p + '.html');
        return p + '.html';
      } catch {
        /* fall through */
      }
    }
    return null;
  }
}
const server = createServer(async (req, res) => {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
  const url = new URL(req.url ?? '/', 'http://localhost');
  const rel = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
  const p = await file(join(root, rel));
  if (!p) {
    res.writeHead(404, { 'content-type': types['.html'] });
    res.end(await readFile(join(root, '404.html')).catch(() => 'Not found'));
    return;
  }
  res.writeHead(200, { 'content-type': types[extname(p)] ?? 'application/octet-stream' });
  res.end(await readFile(p));
});
if (direct) {
  server.listen(port, '127.0.0.1', () => {
    console.log(`Nodeplane is running at http://localhost:${port}/`);
  });
}
