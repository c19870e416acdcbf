/**
 * The page's Content-Security-Policy may only get stricter. The source of truth is the `csp` block
 * of svelte.config.js (SvelteKit writes it into every page's <meta>); the built pages, when
 * `build/` exists (CI builds before e2e; `npx vite build` locally), are read too: every page carries
 * exactly this policy and every inline <script> is allowed by its sha256 hash.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Loaded by URL so the type checker does not take these plain-JS files into the project.
const load = (rel: string) => import(/* @vite-ignore */ new URL(rel, import.meta.url).href);
const config = (await load('../../svelte.config.js')).default as {
  kit: { csp: { mode: string; directives: Record<string, string[]> } };
};
const { SECURITY_HEADERS, securityHeaders } = (await load('../../scripts/start.js')) as {
  SECURITY_HEADERS: Record<string, string>;
  securityHeaders: (pathname: string) => Record<string, string>;
};

/** The policy as reviewed: the only sources each directive may allow. */
const ALLOWED: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"], // Monaco writes <style> at run time
  'img-src': ["'self'", 'data:'], // Monaco's inlined icons
  'font-src': ["'self'"],
  'worker-src': ["'self'"],
  'connect-src': ["'self'"],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"]
};

const quote = (s: string) =>
  /^(self|none|unsafe-inline|unsafe-eval|strict-dynamic)$/.test(s) ? `'${s}'` : s;

function parsePolicy(policy: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out[name] = sources;
  }
  return out;
}

function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...htmlFiles(p));
    else if (f.endsWith('.html')) out.push(p);
  }
  return out;
}

describe('Content-Security-Policy', () => {
  it('svelte.config.js declares exactly the reviewed directives, in hash mode', () => {
    const csp = config.kit.csp;
    expect(csp.mode).toBe('hash');
    const declared = Object.fromEntries(Object.entries(csp.directives).map(([k, v]) => [k, v.map(quote)]));
    expect(declared).toEqual(ALLOWED);
  });

  it('npm start sends the headers <meta> cannot carry', () => {
    expect(SECURITY_HEADERS).toEqual({
      'content-security-policy': "frame-ancestors 'self'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer'
    });
  });

  it('only the embedded lessons may be framed by other sites; every other page only by the app', () => {
    for (const path of ['/embed/01-cluster-anatomy', '/embed/pack', '/embed'])
      expect(securityHeaders(path), path).toEqual({
        ...SECURITY_HEADERS,
        'content-security-policy': 'frame-ancestors *'
      });
    for (const path of ['/', '/lessons/01-cluster-anatomy', '/embedded', '/sandbox', '/_app/embed/x.js'])
      expect(securityHeaders(path), path).toEqual(SECURITY_HEADERS);
  });

  if (existsSync('build/index.html')) {
    it('every built page carries that policy, and every inline script is allowed by its hash', () => {
      const pages = htmlFiles('build');
      let scripts = 0;
      expect(pages.length).toBeGreaterThan(3);
      for (const page of pages) {
        const html = readFileSync(page, 'utf8');
        const meta = /<meta http-equiv="content-security-policy" content="([^"]*)"/i.exec(html);
        expect(meta, `${page} has no CSP <meta>`).not.toBeNull();
        const policy = parsePolicy(meta![1].replace(/&#39;/g, "'").replace(/&quot;/g, '"'));
        const hashes = policy['script-src'].filter((s) => s.startsWith("'sha256-"));
        expect({ ...policy, 'script-src': policy['script-src'].filter((s) => !hashes.includes(s)) }).toEqual(
          ALLOWED
        );
        for (const m of html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)) {
          // Data blocks (type="application/json", SvelteKit's prerendered fetches) never run.
          const type = /\btype="([^"]*)"/.exec(m[1])?.[1];
          if (type && !/^(module|text\/javascript)$/.test(type)) continue;
          const hash = `'sha256-${createHash('sha256').update(m[2]).digest('base64')}'`;
          expect(hashes, `${page}: an inline script without its hash`).toContain(hash);
          scripts += 1;
        }
        expect(html, `${page}: an inline event handler`).not.toMatch(/\son[a-z]+="/);
      }
      // SvelteKit's start-up script is inline on every page, so each page had one checked.
      expect(scripts).toBeGreaterThanOrEqual(pages.length);
    });
  }
});
