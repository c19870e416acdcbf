import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_NAMESPACES, namespaces } from './index.svelte';
import { ROUTE_NAMESPACES, routeNamespaces } from './routes';

const root = resolve(import.meta.dirname, '../../..');
const src = join(root, 'src');
const routesDir = join(src, 'routes');
const lazyAreas = namespaces().filter((a) => !(BUNDLED_NAMESPACES as readonly string[]).includes(a));

/** A module specifier as a file of the project, or undefined for packages and SvelteKit's own. */
function resolveImport(from: string, spec: string): string | undefined {
  let base: string;
  if (spec.startsWith('$lib/')) base = join(src, 'lib', spec.slice(5));
  else if (spec.startsWith('.')) base = resolve(dirname(from), spec);
  else return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.js`, `${base}.svelte.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const importPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
// A key of a lazy area written out: t('lab.map.selectPod'), t(`ops.cp.${x}`), labelKey: 'lab.…'.
const keyPattern = new RegExp(`['"\`](${lazyAreas.join('|')})\\.[A-Za-z]`, 'g');

/** Every project file a page can reach, through static and dynamic imports (types too: harmless). */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || /\.(test|spec)\.ts$/.test(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(importPattern)) {
      const target = resolveImport(file, m[1]);
      if (target) visit(target);
    }
  };
  visit(entry);
  return seen;
}

/**
 * The lazy areas whose keys the page's translating files (those importing t) name, each with the
 * first file naming it. Keys carried as data (a simulation read model's `ops.cp.actions.…`) are
 * translated by a component, which names its area's keys too.
 */
function areasRead(files: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (file.includes('/i18n/') || !/from '\$lib\/i18n\/index\.svelte'/.test(text)) continue;
    const code = text
      .replace(/\/\*[\s\S]*?\*\/|<!--[\s\S]*?-->/g, '')
      .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
      .replace(importPattern, '');
    for (const m of code.matchAll(keyPattern)) if (!out.has(m[1])) out.set(m[1], relative(root, file));
  }
  return out;
}

/** Route ids of the pages under src/routes ('/', '/lessons/[slug]', …). */
function pageRoutes(dir = routesDir): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...pageRoutes(path));
    else if (entry.name === '+page.svelte') out.push('/' + relative(routesDir, dir).replace(/\\/g, '/'));
  }
  return out.map((r) => (r === '/' ? r : r.replace(/\/$/, ''))).sort();
}

describe('the UI catalogs each page asks for', () => {
  it('lists every page', () => {
    expect(Object.keys(ROUTE_NAMESPACES).sort()).toEqual(pageRoutes());
  });

  it('names only areas that exist, none of them bundled', () => {
    for (const [route, list] of Object.entries(ROUTE_NAMESPACES))
      for (const area of list) expect(lazyAreas, `${route}: ${area}`).toContain(area);
  });

  // The layout is on every page: what it reads must be bundled.
  it('bundles every area the layout and the home page read, however deep the import', () => {
    const files = new Set([
      ...reachable(join(routesDir, '+layout.svelte')),
      ...reachable(join(routesDir, '+layout.ts')),
      ...reachable(join(routesDir, '+page.svelte'))
    ]);
    expect(Object.fromEntries(areasRead(files))).toEqual({});
  });

  for (const route of pageRoutes()) {
    it(`loads every area ${route} reads before it renders`, () => {
      const dir = join(routesDir, route);
      const files = new Set<string>();
      for (const name of ['+page.svelte', '+page.ts'])
        if (existsSync(join(dir, name))) for (const f of reachable(join(dir, name))) files.add(f);
      const asked = new Set(routeNamespaces(route, namespaces));
      const missing = [...areasRead(files)].filter(([area]) => !asked.has(area));
      expect(Object.fromEntries(missing), `add to ROUTE_NAMESPACES['${route}']`).toEqual({});
    });
  }

  it('asks for nothing on the error page and for every area on a page the table misses', () => {
    expect(routeNamespaces(null, namespaces)).toEqual([]);
    expect(routeNamespaces('/new-page', namespaces)).toEqual(namespaces());
    expect(routeNamespaces('/sandbox', namespaces)).toEqual(['lab', 'diagram', 'network', 'ops']);
  });
});
