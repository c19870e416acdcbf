/**
 * A lesson body as the player shows it: steps (split at `## ` headings) made of Markdown and the
 * embeds the lesson format defines (```command, ```question <id>, ```watch reason=A,B,
 * ```waitfor <task>). Embeds become Svelte components; only plain Markdown becomes HTML, and that
 * HTML is always sanitized (lesson packs may be hostile).
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

export type Segment =
  | { kind: 'markdown'; text: string }
  | { kind: 'command'; command: string }
  | { kind: 'question'; id: string }
  | { kind: 'watch'; reasons: string[] }
  | { kind: 'waitfor'; task: string };

export interface Step {
  /** The `## ` heading, or '' for text before the first heading. */
  title: string;
  segments: Segment[];
}

const EMBED = /^```(command|question|watch|waitfor)(?:\s+(.*))?$/;
const FENCE = /^(```|~~~)/;

function embed(kind: string, arg: string, content: string): Segment {
  switch (kind) {
    case 'command':
      return { kind: 'command', command: (arg || content).trim() };
    case 'question':
      return { kind: 'question', id: arg.trim() };
    case 'waitfor':
      return { kind: 'waitfor', task: arg.trim() };
    default: {
      const m = /reason=([^\s]+)/.exec(arg);
      return { kind: 'watch', reasons: m ? m[1].split(',').filter(Boolean) : [] };
    }
  }
}

/** Split a lesson body into steps and segments. */
export function parseBody(body: string): Step[] {
  const steps: Step[] = [];
  let step: Step = { title: '', segments: [] };
  let md: string[] = [];
  const flush = () => {
    const text = md.join('\n').trim();
    if (text) step.segments.push({ kind: 'markdown', text });
    md = [];
  };
  const lines = body.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const e = EMBED.exec(line.trimEnd());
    if (e) {
      const content: string[] = [];
      while (++i < lines.length && !/^```\s*$/.test(lines[i])) content.push(lines[i]);
      flush();
      step.segments.push(embed(e[1], e[2] ?? '', content.join('\n')));
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      md.push(line);
      while (++i < lines.length) {
        md.push(lines[i]);
        if (lines[i].startsWith(fence[1])) break;
      }
      continue;
    }
    if (line.startsWith('## ')) {
      flush();
      if (step.title || step.segments.length) steps.push(step);
      step = { title: line.slice(3).trim(), segments: [] };
      continue;
    }
    md.push(line);
  }
  flush();
  if (step.title || step.segments.length) steps.push(step);
  return steps;
}

/** Heading text without Markdown emphasis or code marks. */
export function plainTitle(title: string): string {
  return title.replace(/[`*_]/g, '');
}

const marked = new Marked({ gfm: true, breaks: false });

/** Attributes that make the browser fetch at once (a link only navigates when clicked). */
const FETCHING = new Set(['src', 'srcset', 'poster', 'background', 'xlink:href', 'data']);
const ELSEWHERE = /^\s*([a-z][a-z0-9+.-]*:|\/\/|\\\\)/i;

let hooked = false;
/**
 * The app never loads anything from another origin (the CSP says so too): a lesson's image or
 * media may point only at a path of this origin, so a hostile pack cannot make the page fetch a
 * tracking pixel even where a CSP is missing. `href` on anything but a link counts as fetching.
 */
function hookOnce(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('uponSanitizeAttribute', (node, data) => {
    const fetching = FETCHING.has(data.attrName) || (data.attrName === 'href' && node.nodeName !== 'A');
    if (fetching && ELSEWHERE.test(data.attrValue)) data.keepAttr = false;
  });
}

/**
 * Markdown to sanitized HTML. Needs a DOM (DOMPurify sanitizes through the browser's parser), so
 * the player calls it on the client only; without a DOM it refuses rather than pass HTML through.
 */
export function renderMarkdown(text: string): string {
  if (!DOMPurify.isSupported) throw new Error('renderMarkdown needs a DOM to sanitize');
  hookOnce();
  const html = marked.parse(text, { async: false });
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
    FORBID_ATTR: ['style']
  });
}

/** Every event reason any ```watch embed of the body asks for. */
export function watchedReasons(steps: Step[]): string[] {
  const out = new Set<string>();
  for (const s of steps)
    for (const g of s.segments) if (g.kind === 'watch') g.reasons.forEach((r) => out.add(r));
  return [...out];
}

/** Inline Markdown (a question prompt, an option) to sanitized HTML without a paragraph. */
export function renderInline(text: string): string {
  if (!DOMPurify.isSupported) throw new Error('renderInline needs a DOM to sanitize');
  hookOnce();
  return DOMPurify.sanitize(marked.parseInline(text, { async: false }), {
    ALLOWED_TAGS: ['code', 'em', 'strong', 'a', 'kbd', 'sub', 'sup', 'del'],
    ALLOWED_ATTR: ['href', 'title']
  });
}
