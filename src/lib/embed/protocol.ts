/**
 * The embed protocol (docs/embed.md): the messages an embedded lesson (`/embed/<slug>`) posts to
 * the page that frames it, the few it accepts from that page, and the query parameters it reads.
 * Pure functions and types, no DOM: `link.svelte.ts` does the posting and listening.
 *
 * Versioned: every message carries `version: 1`. A later version adds fields or types; a message
 * of another version is ignored, so a host written for version 1 keeps working until it opts in.
 *
 * What goes out carries no secrets (the lesson's slug, task ids, virtual times, a score), so it
 * may be posted to any origin (`*`) when the host does not name itself; with `?parent=<origin>`
 * messages go only to that origin and only that origin's messages are read.
 */

export const EMBED_PROTOCOL_VERSION = 1;
/** `source` of the messages the embedded lesson posts. */
export const EMBED_SOURCE = 'nodeplane';
/** `source` the host page must put on the messages it sends. */
export const HOST_SOURCE = 'nodeplane-host';

export const EMBED_LANGUAGES = ['en', 'ru'] as const;
export type EmbedLanguage = (typeof EMBED_LANGUAGES)[number];
export const EMBED_THEMES = ['light', 'dark', 'system'] as const;
export type EmbedTheme = (typeof EMBED_THEMES)[number];

interface Envelope {
  source: typeof EMBED_SOURCE;
  version: typeof EMBED_PROTOCOL_VERSION;
  /** The lesson's slug, e.g. `01-cluster-anatomy`. */
  lesson: string;
}

/** The frame listens: the host may send its messages from now on. */
export interface ReadyMessage extends Envelope {
  type: 'ready';
  lang: EmbedLanguage;
  theme: EmbedTheme;
}

/** The lab runs the lesson (also after a reset or "start over": `done` is then empty). */
export interface LessonStartedMessage extends Envelope {
  type: 'lesson-started';
  /** Every task id of the lesson, in order. */
  tasks: string[];
  /** Tasks already done (progress restored from an earlier visit). */
  done: string[];
  /** A challenge's seed (`?seed=N` pins it). */
  seed?: number;
}

/** A task ticked because the simulated cluster reached what it asks for. */
export interface TaskCompletedMessage extends Envelope {
  type: 'task-completed';
  task: string;
  /** Virtual time on the lab's clock, in ms, when it ticked. */
  virtualMs: number;
  done: number;
  total: number;
}

/** Every task is done. */
export interface LessonCompletedMessage extends Envelope {
  type: 'lesson-completed';
  virtualMs: number;
  /** A challenge's score, 0–100 (docs/lesson-format.md, "Challenges"); null for other lessons. */
  score: number | null;
  hints: number;
  solutionViewed: boolean;
}

/** The frame's content height in CSS pixels, for a host that sizes the iframe to it. */
export interface HeightMessage extends Envelope {
  type: 'height';
  height: number;
}

export type EmbedMessage =
  ReadyMessage | LessonStartedMessage | TaskCompletedMessage | LessonCompletedMessage | HeightMessage;

export const EMBED_MESSAGE_TYPES = [
  'ready',
  'lesson-started',
  'task-completed',
  'lesson-completed',
  'height'
] as const satisfies readonly EmbedMessage['type'][];

type Body<T extends EmbedMessage> = Omit<T, keyof Envelope>;
export type EmbedMessageBody =
  | Body<ReadyMessage>
  | Body<LessonStartedMessage>
  | Body<TaskCompletedMessage>
  | Body<LessonCompletedMessage>
  | Body<HeightMessage>;

/** A message to post: the envelope around a body. */
export function embedMessage(lesson: string, body: EmbedMessageBody): EmbedMessage {
  return { source: EMBED_SOURCE, version: EMBED_PROTOCOL_VERSION, lesson, ...body } as EmbedMessage;
}

/** What the host may ask. Nothing else can reach the lesson: no commands, answers or faults. */
export type HostMessage =
  | { source: typeof HOST_SOURCE; version: typeof EMBED_PROTOCOL_VERSION; type: 'reset' }
  | {
      source: typeof HOST_SOURCE;
      version: typeof EMBED_PROTOCOL_VERSION;
      type: 'set-language';
      lang: EmbedLanguage;
    }
  | {
      source: typeof HOST_SOURCE;
      version: typeof EMBED_PROTOCOL_VERSION;
      type: 'set-theme';
      theme: EmbedTheme;
    };

export const HOST_MESSAGE_TYPES = ['reset', 'set-language', 'set-theme'] as const;

/** The keys each host message has, exactly: an extra key makes the message invalid. */
const HOST_KEYS: Record<HostMessage['type'], readonly string[]> = {
  reset: ['source', 'version', 'type'],
  'set-language': ['source', 'version', 'type', 'lang'],
  'set-theme': ['source', 'version', 'type', 'theme']
};

export function isEmbedLanguage(value: unknown): value is EmbedLanguage {
  return typeof value === 'string' && (EMBED_LANGUAGES as readonly string[]).includes(value);
}

export function isEmbedTheme(value: unknown): value is EmbedTheme {
  return typeof value === 'string' && (EMBED_THEMES as readonly string[]).includes(value);
}

/**
 * A host message, or undefined for anything else: another source or version, an unknown type, a
 * missing, extra or wrongly typed field, an array, a class instance, a string to parse. Nothing is
 * evaluated; the result is a fresh object with only the documented fields.
 */
export function parseHostMessage(data: unknown): HostMessage | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const proto = Object.getPrototypeOf(data) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  const m = data as Record<string, unknown>;
  if (m.source !== HOST_SOURCE || m.version !== EMBED_PROTOCOL_VERSION) return undefined;
  const type = m.type;
  if (typeof type !== 'string' || !Object.hasOwn(HOST_KEYS, type)) return undefined;
  const keys = Object.keys(m);
  const allowed = HOST_KEYS[type as HostMessage['type']];
  if (keys.length !== allowed.length || !keys.every((k) => allowed.includes(k))) return undefined;
  const envelope = { source: HOST_SOURCE, version: EMBED_PROTOCOL_VERSION } as const;
  switch (type) {
    case 'reset':
      return { ...envelope, type };
    case 'set-language':
      return isEmbedLanguage(m.lang) ? { ...envelope, type, lang: m.lang } : undefined;
    case 'set-theme':
      return isEmbedTheme(m.theme) ? { ...envelope, type, theme: m.theme } : undefined;
  }
  return undefined;
}

/** The embed's query parameters; an unknown or malformed value is left out (and ignored). */
export interface EmbedParams {
  lang?: EmbedLanguage;
  theme?: EmbedTheme;
  /** The host's origin (`?parent=https://roadmap.example`): messages go only there. */
  parent?: string;
}

/**
 * An `http(s)` origin exactly as `location.origin` gives it (`https://roadmap.example`,
 * `http://localhost:5173`; a trailing slash is allowed), else undefined.
 */
export function parseOrigin(text: string | null | undefined): string | undefined {
  if (!text || text.length > 300) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  // Nothing but the origin: no user, path, query or fragment, no default port spelled out.
  if (text.replace(/\/$/, '').toLowerCase() !== url.origin.toLowerCase()) return undefined;
  return url.origin;
}

export function parseEmbedParams(search: string | URLSearchParams): EmbedParams {
  const q = typeof search === 'string' ? new URLSearchParams(search) : search;
  const out: EmbedParams = {};
  const lang = q.get('lang');
  if (isEmbedLanguage(lang)) out.lang = lang;
  const theme = q.get('theme');
  if (isEmbedTheme(theme)) out.theme = theme;
  const parent = parseOrigin(q.get('parent'));
  if (parent) out.parent = parent;
  return out;
}

/** Where the frame posts: the named parent origin, else `*` (the messages carry no secrets). */
export function targetOrigin(params: EmbedParams): string {
  return params.parent ?? '*';
}

/** Whether a message from `origin` is read: any origin unless the host named itself. */
export function acceptsOrigin(params: EmbedParams, origin: string): boolean {
  return params.parent === undefined || params.parent === origin;
}
