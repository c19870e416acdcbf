import { beforeEach, describe, expect, it, vi } from 'vitest';

const applied = vi.hoisted(() => ({ locale: [] as string[], theme: [] as string[] }));
vi.mock('$lib/ui/shell/preferences.svelte', () => ({
  preferences: { theme: 'dark' },
  preferencesApplied: Promise.resolve(),
  showLocale: async (lang: string) => void applied.locale.push(lang),
  showTheme: (theme: string) => void applied.theme.push(theme)
}));

const { EmbedLink } = await import('./link');

/** A framed window: its parent records what is posted to it. */
function framed(search: string) {
  const posted: { message: unknown; target: string }[] = [];
  const parent = { postMessage: (message: unknown, target: string) => void posted.push({ message, target }) };
  const events = new EventTarget();
  const win = Object.assign(events, { location: { search }, parent }) as unknown as Window;
  const deliver = (data: unknown, from: { source?: unknown; origin?: string } = {}) =>
    events.dispatchEvent(
      Object.assign(new Event('message'), {
        data,
        source: 'source' in from ? from.source : parent,
        origin: from.origin ?? 'https://roadmap.example'
      })
    );
  return { win, posted, parent, deliver };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const host = { source: 'nodeplane-host', version: 1 } as const;

describe('EmbedLink', () => {
  beforeEach(() => {
    applied.locale = [];
    applied.theme = [];
  });

  it('posts ready first, holding back what came before it, to * without ?parent', async () => {
    const { win, posted } = framed('?lang=ru');
    const link = new EmbedLink(win);
    link.post({ type: 'height', height: 900 });
    link.start('01-cluster-anatomy', () => {});
    expect(posted).toEqual([]);
    await flush();
    expect(posted.map((p) => [(p.message as { type: string }).type, p.target])).toEqual([
      ['ready', '*'],
      ['height', '*']
    ]);
    expect(posted[0].message).toEqual({
      source: 'nodeplane',
      version: 1,
      lesson: '01-cluster-anatomy',
      type: 'ready',
      lang: 'en',
      theme: 'dark'
    });
    expect(link.choice).toEqual({ lang: 'ru', theme: undefined });
  });

  it('with ?parent posts only to that origin and reads only its messages', async () => {
    const { win, posted, deliver } = framed('?parent=https://roadmap.example');
    const reset = vi.fn();
    new EmbedLink(win).start('01-cluster-anatomy', reset);
    await flush();
    expect(posted.every((p) => p.target === 'https://roadmap.example')).toBe(true);
    deliver({ ...host, type: 'reset' }, { origin: 'https://evil.example' });
    expect(reset).not.toHaveBeenCalled();
    deliver({ ...host, type: 'reset' });
    expect(reset).toHaveBeenCalledTimes(1);
  });

  it('reads only the window that frames it, and only documented messages', async () => {
    const { win, deliver } = framed('');
    const reset = vi.fn();
    const link = new EmbedLink(win);
    const stop = link.start('01-cluster-anatomy', reset);
    deliver({ ...host, type: 'reset' }, { source: {} });
    deliver({ ...host, type: 'reset' }, { source: null });
    deliver({ ...host, type: 'eval', code: 'x' });
    deliver({ ...host, type: 'set-language', lang: 'de' });
    expect(reset).not.toHaveBeenCalled();
    expect(applied.locale).toEqual([]);

    deliver({ ...host, type: 'set-language', lang: 'ru' });
    deliver({ ...host, type: 'set-theme', theme: 'light' });
    expect(applied).toEqual({ locale: ['ru'], theme: ['light'] });
    // The host's choice is what a late start of the preferences applies too.
    expect(link.choice).toEqual({ lang: 'ru', theme: 'light' });

    stop();
    deliver({ ...host, type: 'reset' });
    expect(reset).not.toHaveBeenCalled();
  });

  it('posts nothing when it is not framed', async () => {
    const events = new EventTarget();
    const win = Object.assign(events, { location: { search: '' } }) as unknown as Window & { parent: Window };
    const postMessage = vi.fn();
    Object.assign(win, { parent: win, postMessage });
    new EmbedLink(win).start('01-cluster-anatomy', () => {});
    await flush();
    expect(postMessage).not.toHaveBeenCalled();
  });
});
