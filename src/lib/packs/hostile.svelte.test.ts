/**
 * The hostile fixture pack (tests/fixtures/packs/hostile) is valid, so it is accepted — and its
 * Markdown, task titles and hints go through the lesson sanitizer like a built-in lesson's: once
 * in the page, nothing runs and nothing points at another origin.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readPackFolder } from '../../../tests/fixtures/packs/read';
import { LANGUAGES } from '../lessons/format';
import { parseBody, renderInline, renderMarkdown } from '../ui/lessons/markdown';
import { validatePack } from './validate';

const w = window as unknown as { __pwned?: number; alert: (m?: string) => void };

afterEach(() => {
  document.body.innerHTML = '';
  delete w.__pwned;
});

describe('a hostile pack', () => {
  it('is accepted and every bit of its text is neutralised in the page', async () => {
    const { pack, issues } = validatePack(readPackFolder('hostile'));
    expect(issues).toEqual([]);
    const alerts: unknown[] = [];
    w.alert = (m) => alerts.push(m);
    const lesson = pack!.lessons[0];
    let html = '';
    for (const lang of LANGUAGES) {
      const text = lesson.text[lang];
      for (const step of parseBody(text.body))
        for (const seg of step.segments) if (seg.kind === 'markdown') html += renderMarkdown(seg.text);
      html += renderInline(text.title);
      for (const task of Object.values(text.tasks))
        html += renderInline(task.title) + task.hints.map(renderMarkdown).join('');
    }
    expect(html).toContain('styled');
    document.body.innerHTML = `<main>${html}</main>`;
    const root = document.querySelector('main')!;
    for (const el of root.querySelectorAll('*')) el.dispatchEvent(new Event('error'));
    await new Promise((r) => setTimeout(r, 20));
    expect(w.__pwned).toBeUndefined();
    expect(alerts).toEqual([]);
    expect(root.querySelectorAll('script, iframe, object, embed, style, link, meta, base')).toHaveLength(0);
    const attrs = [...root.querySelectorAll('*')].flatMap((el) =>
      [...el.attributes].map((a) => `${a.name}=${a.value}`)
    );
    expect(attrs.filter((a) => /^on|^style=|javascript:|=https?:\/\/|=\/\//i.test(a))).toEqual([]);
  });
});
