/**
 * The embedded lesson's side of the embed protocol (protocol.ts, docs/embed.md): posts its
 * messages to the framing page and reads the host's few requests. Only messages from the window
 * that frames this one (and, with `?parent=`, only from that origin) are read, each through
 * `parseHostMessage`; everything else is dropped without a word.
 */
import { locale } from '$lib/i18n/index.svelte';
import {
  preferences,
  preferencesApplied,
  showLocale,
  showTheme,
  type PageChoice
} from '$lib/ui/shell/preferences.svelte';
import {
  acceptsOrigin,
  embedMessage,
  parseEmbedParams,
  parseHostMessage,
  targetOrigin,
  type EmbedMessageBody,
  type EmbedParams
} from './protocol';

export class EmbedLink {
  readonly params: EmbedParams;
  /** The language and theme for this frame: the query's, then the host's latest request. */
  readonly choice: PageChoice;
  private lesson = '';
  private queue: EmbedMessageBody[] = [];
  private readyPosted = false;
  private onreset?: () => unknown;

  constructor(private readonly win: Window) {
    this.params = parseEmbedParams(win.location.search);
    this.choice = { lang: this.params.lang, theme: this.params.theme };
  }

  /** Framed at all: a top-level visit has nobody to tell. */
  get framed(): boolean {
    return this.win.parent !== this.win;
  }

  /** Post a message; until `ready` has gone out, the others wait for it. */
  post(body: EmbedMessageBody): void {
    if (body.type !== 'ready' && !this.readyPosted) {
      this.queue.push(body);
      return;
    }
    if (this.framed) this.win.parent.postMessage(embedMessage(this.lesson, body), targetOrigin(this.params));
    if (body.type === 'ready') {
      this.readyPosted = true;
      for (const queued of this.queue.splice(0)) this.post(queued);
    }
  }

  private onMessage = (event: MessageEvent): void => {
    if (event.source !== this.win.parent || event.source === this.win) return;
    if (!acceptsOrigin(this.params, event.origin)) return;
    const message = parseHostMessage(event.data);
    if (!message) return;
    switch (message.type) {
      case 'reset':
        void this.onreset?.();
        break;
      case 'set-language':
        this.choice.lang = message.lang;
        void showLocale(message.lang);
        break;
      case 'set-theme':
        this.choice.theme = message.theme;
        showTheme(message.theme);
        break;
    }
  };

  /**
   * Start listening for the lesson `slug`; `ready` is posted once the page shows its language and
   * theme. `reset` is what the host's reset does. Returns the function that stops listening.
   */
  start(slug: string, reset: () => unknown): () => void {
    this.lesson = slug;
    this.onreset = reset;
    this.win.addEventListener('message', this.onMessage);
    let alive = true;
    void preferencesApplied.then(() => {
      if (alive) this.post({ type: 'ready', lang: locale(), theme: preferences.theme });
    });
    return () => {
      alive = false;
      this.win.removeEventListener('message', this.onMessage);
    };
  }

  /** Post the height of `el` (the frame's content) whenever it changes by a pixel or more. */
  watchHeight(el: HTMLElement): () => void {
    let last = -1;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const height = Math.ceil(el.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      this.post({ type: 'height', height });
    };
    const observer = new ResizeObserver(() => {
      frame ||= requestAnimationFrame(measure);
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }
}

let link: EmbedLink | undefined;

/** The page's one link (created on first use, in the browser). */
export function embedLink(): EmbedLink {
  return (link ??= new EmbedLink(window));
}

/** Where a link inside the frame goes: anything but a fragment of this page opens a new tab. */
export function openOutside(event: MouseEvent): void {
  const a = (event.target as Element | null)?.closest?.('a[href]');
  if (!(a instanceof HTMLAnchorElement) || a.hasAttribute('download')) return;
  const href = a.getAttribute('href') ?? '';
  if (href.startsWith('#')) return;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
}
