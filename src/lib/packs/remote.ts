/**
 * A pack lesson for a framed page (`/embed/pack?src=…&lesson=…`, docs/embed.md): a frame on a
 * roadmap site has its own, empty storage partition, so the pack comes with the frame's link — a
 * `.zip` published on the app's own origin. It is fetched from that origin only, then read,
 * validated and replayed exactly as an import is (packs/import.ts), and never saved.
 */
import type { Lesson, LessonIssue } from '../lessons/format';
import type { PackManifest } from './format';
import { importPack, type ImportOptions } from './import';
import { validatePack } from './validate';
import { archiveTooLarge } from './zip';

export type PackSource =
  | { ok: true; url: URL; fileName: string }
  | { ok: false; reason: 'missing' }
  | { ok: false; reason: 'other-origin'; origin: string };

/** Where `src` points, if it is a place this frame may fetch a pack from: its own origin only. */
export function packSource(src: string | null, lesson: string | null, here: URL): PackSource {
  if (!src || !lesson) return { ok: false, reason: 'missing' };
  let url: URL;
  try {
    url = new URL(src, here);
  } catch {
    return { ok: false, reason: 'missing' };
  }
  if (url.origin !== here.origin || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return {
      ok: false,
      reason: 'other-origin',
      origin: url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol
    };
  const fileName = decodeURIComponent(url.pathname.split('/').pop() || 'pack.zip');
  return { ok: true, url, fileName };
}

export type RemoteLesson =
  | { ok: true; manifest: PackManifest; lesson: Lesson }
  | { ok: false; reason: 'fetch'; status?: number; message: string }
  | { ok: false; reason: 'refused'; issues: LessonIssue[] }
  | { ok: false; reason: 'no-lesson'; manifest: PackManifest };

/** Fetch the pack at `source`, check it as an import does, and return the lesson named `name`. */
export async function loadRemoteLesson(
  source: Extract<PackSource, { ok: true }>,
  name: string,
  options: Pick<ImportOptions, 'onProgress' | 'replay'> & { fetcher?: typeof fetch } = {}
): Promise<RemoteLesson> {
  const fetcher = options.fetcher ?? fetch;
  let bytes: Uint8Array;
  try {
    const r = await fetcher(source.url, { credentials: 'same-origin' });
    if (new URL(r.url || source.url.href).origin !== source.url.origin)
      return { ok: false, reason: 'fetch', message: `redirected to ${new URL(r.url).origin}` };
    if (!r.ok)
      return { ok: false, reason: 'fetch', status: r.status, message: `${r.status} ${r.statusText}`.trim() };
    const declared = Number(r.headers.get('content-length') ?? 0);
    const tooLarge = archiveTooLarge(declared, source.fileName);
    if (tooLarge) return { ok: false, reason: 'refused', issues: [tooLarge] };
    bytes = new Uint8Array(await r.arrayBuffer());
  } catch (e) {
    return { ok: false, reason: 'fetch', message: e instanceof Error ? e.message : String(e) };
  }
  let files: Record<string, string> | undefined;
  const out = await importPack(bytes, source.fileName, {
    ...options,
    // Nothing is stored: the frame plays the pack it was given.
    save: async (input) => {
      files = input.files;
      return {};
    }
  });
  if (!out.ok || !files) return { ok: false, reason: 'refused', issues: out.issues };
  const { pack } = validatePack(files);
  const lesson = pack?.lessons.find((l) => l.spec.metadata.name === name);
  if (!pack || !lesson) return { ok: false, reason: 'no-lesson', manifest: out.manifest! };
  return { ok: true, manifest: pack.manifest, lesson };
}
