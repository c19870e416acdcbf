import { describe, expect, it } from 'vitest';
import { packZip } from '../../../tests/fixtures/packs/read';
import { loadRemoteLesson, packSource } from './remote';
import { replayLesson } from './replay';

const here = new URL('https://nodeplane.example/embed/pack?src=x');
const replay = async (l: Parameters<typeof replayLesson>[0]) => replayLesson(l);

/** A fetch that serves `bytes` at `path` of `here`'s origin and records what was asked. */
function serve(path: string, bytes: Uint8Array, asked: string[] = []): typeof fetch {
  return (async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    asked.push(url.href);
    if (url.origin !== here.origin || url.pathname !== path)
      return new Response('not found', { status: 404, statusText: 'Not Found' });
    return new Response(bytes.slice().buffer, {
      status: 200,
      headers: { 'content-length': String(bytes.length) }
    });
  }) as typeof fetch;
}

describe('a pack lesson for a framed page', () => {
  it('takes a pack only from the frame’s own origin, and only with a lesson named', () => {
    expect(packSource('/packs/night-shift.zip', 'cordon', here)).toMatchObject({
      ok: true,
      url: new URL('https://nodeplane.example/packs/night-shift.zip'),
      fileName: 'night-shift.zip'
    });
    expect(packSource('https://roadmap.example/p.zip', 'cordon', here)).toEqual({
      ok: false,
      reason: 'other-origin',
      origin: 'https://roadmap.example'
    });
    expect(packSource('//evil.example/p.zip', 'cordon', here)).toMatchObject({
      origin: 'https://evil.example'
    });
    expect(packSource('http://nodeplane.example/p.zip', 'cordon', here)).toMatchObject({
      reason: 'other-origin'
    });
    expect(packSource('javascript:alert(1)', 'cordon', here)).toMatchObject({
      reason: 'other-origin',
      origin: 'javascript:'
    });
    expect(packSource('data:application/zip;base64,UEs=', 'cordon', here)).toMatchObject({
      reason: 'other-origin'
    });
    expect(packSource(null, 'cordon', here)).toEqual({ ok: false, reason: 'missing' });
    expect(packSource('/p.zip', null, here)).toEqual({ ok: false, reason: 'missing' });
  });

  it('fetches, validates and replays the pack as an import does, and plays the lesson named', async () => {
    const asked: string[] = [];
    const source = packSource('/packs/night-shift.zip', 'cordon', here);
    if (!source.ok) throw new Error('not a source');
    const out = await loadRemoteLesson(source, 'cordon', {
      fetcher: serve('/packs/night-shift.zip', packZip('valid'), asked),
      replay
    });
    expect(asked).toEqual(['https://nodeplane.example/packs/night-shift.zip']);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.manifest).toMatchObject({ id: 'night-shift', version: '1.0.0' });
    expect(out.lesson.slug).toBe('pack:night-shift/cordon');
    const missing = await loadRemoteLesson(source, 'nope', {
      fetcher: serve('/packs/night-shift.zip', packZip('valid')),
      replay
    });
    expect(missing).toMatchObject({ ok: false, reason: 'no-lesson', manifest: { id: 'night-shift' } });
  });

  it('an invalid pack is refused with the import’s issues; a missing file says its status', async () => {
    const source = packSource('/packs/broken.zip', 'broken', here);
    if (!source.ok) throw new Error('not a source');
    const refused = await loadRemoteLesson(source, 'broken', {
      fetcher: serve('/packs/broken.zip', packZip('invalid')),
      replay
    });
    expect(refused.ok).toBe(false);
    expect(refused.ok === false && refused.reason === 'refused' && refused.issues[0]).toMatchObject({
      file: 'pack.yaml',
      line: 5,
      field: 'version',
      code: 'versionPattern'
    });
    const gone = await loadRemoteLesson(source, 'broken', {
      fetcher: serve('/elsewhere.zip', packZip('valid')),
      replay
    });
    expect(gone).toEqual({ ok: false, reason: 'fetch', status: 404, message: '404 Not Found' });
  });
});
