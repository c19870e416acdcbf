/**
 * A hostile lesson pack: its Markdown tries every way to run script or fetch from another origin.
 * After sanitizing and putting the HTML into the page, nothing ran and no element points at a
 * resource elsewhere (the CSP would block such fetches too; this checks the HTML never asks).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { renderInline, renderMarkdown } from './markdown';

const HOSTILE = [
  '<script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 2">',
  '<img src="https://evil.example/beacon.png">',
  '<img srcset="https://evil.example/a.png 1x">',
  '[click](javascript:window.__pwned=3)',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '<a href="  JaVaScRiPt:window.__pwned=4">x</a>',
  '<iframe src="https://evil.example/"></iframe>',
  '<object data="https://evil.example/x.swf"></object>',
  '<embed src="https://evil.example/x">',
  '<svg><script>window.__pwned = 5</script><circle onload="window.__pwned=6"/></svg>',
  '<svg><image href="https://evil.example/i.png"/><use xlink:href="https://evil.example/s.svg#a"/></svg>',
  '<div style="background: url(https://evil.example/bg.png)">styled</div>',
  '<style>body { background: url(https://evil.example/css.png) }</style>',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
  '<base href="https://evil.example/">',
  '<form action="https://evil.example/"><input name=a><button>go</button></form>',
  '<video poster="https://evil.example/p.png"><source src="https://evil.example/v.mp4"></video>',
  '![alt](https://evil.example/md-image.png)',
  '<details open ontoggle="window.__pwned=8">d</details>',
  // mutation XSS: left unclosed, so it comes last
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=7">'
].join('\n\n');

const w = window as unknown as { __pwned?: number };

afterEach(() => {
  document.body.innerHTML = '';
  delete w.__pwned;
});

/** Every place an element could load from or navigate to, off this origin or by script. */
function offenders(root: HTMLElement): string[] {
  const out: string[] = [];
  for (const el of root.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    if (['script', 'iframe', 'object', 'embed', 'style', 'link', 'meta', 'base', 'form'].includes(tag))
      out.push(`<${tag}>`);
    for (const a of el.attributes) {
      const v = a.value.trim().toLowerCase();
      if (a.name.startsWith('on')) out.push(`${tag}[${a.name}]`);
      if (a.name === 'style') out.push(`${tag}[style]`);
      if (/^(javascript|vbscript|data):/.test(v.replace(/\s/g, '')) && a.name !== 'alt')
        out.push(`${tag}[${a.name}=${v.slice(0, 20)}]`);
      if (
        ['src', 'srcset', 'poster', 'data', 'action', 'xlink:href'].includes(a.name) &&
        /^(https?:)?\/\//.test(v)
      )
        out.push(`${tag}[${a.name}] → ${v}`);
      if (a.name === 'href' && tag !== 'a' && /^(https?:)?\/\//.test(v)) out.push(`${tag}[href] → ${v}`);
    }
  }
  return out;
}

describe('hostile lesson Markdown', () => {
  it('block Markdown: nothing runs, nothing points at another origin', async () => {
    document.body.innerHTML = `<main>${renderMarkdown(HOSTILE)}</main>`;
    const root = document.querySelector('main')!;
    // Give any handler a chance to run.
    for (const el of root.querySelectorAll('img, details, svg *')) el.dispatchEvent(new Event('error'));
    await new Promise((r) => setTimeout(r, 20));
    expect(w.__pwned).toBeUndefined();
    expect(offenders(root)).toEqual([]);
    // The harmless text is still there, and a plain link to another site stays a plain link.
    expect(root.textContent).toContain('styled');
    expect(root.querySelector('a')?.getAttribute('href') ?? '').not.toMatch(/^javascript:/i);
  });

  it('inline Markdown (question prompts and options): the same', () => {
    const span = document.createElement('span');
    span.innerHTML = renderInline(
      '<img src=x onerror="window.__pwned=9"> [a](javascript:alert(1)) <script>window.__pwned=10</script> **ok**'
    );
    document.body.append(span);
    expect(w.__pwned).toBeUndefined();
    expect(offenders(span)).toEqual([]);
    expect(span.querySelector('strong')?.textContent).toBe('ok');
  });
});
