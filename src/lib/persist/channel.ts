/**
 * One truth across tabs: after a progress write commits, the other tabs of this origin are told
 * which lesson changed (BroadcastChannel), so a roadmap or an open lesson in another tab reads the
 * stored record again instead of keeping, and later writing back, what it read before.
 */
export const PROGRESS_CHANNEL = 'nodeplane-progress';

/** A lesson's progress changed (`slug`), or all progress was deleted (`slug` is null). */
export interface ProgressChange {
  slug: string | null;
}

let sender: BroadcastChannel | undefined;

function channelAvailable(): boolean {
  return typeof BroadcastChannel !== 'undefined';
}

/** Tell the other tabs; a browser without BroadcastChannel simply has no live refresh. */
export function announceProgress(slug: string | null): void {
  if (!channelAvailable()) return;
  sender ??= new BroadcastChannel(PROGRESS_CHANNEL);
  sender.postMessage({ slug } satisfies ProgressChange);
}

/** Called for each change another tab made; returns the function that stops listening. */
export function onProgressChange(listener: (change: ProgressChange) => void): () => void {
  if (!channelAvailable()) return () => {};
  const channel = new BroadcastChannel(PROGRESS_CHANNEL);
  channel.onmessage = (e: MessageEvent<unknown>) => {
    const data = e.data as { slug?: unknown } | null;
    if (!data || typeof data !== 'object') return;
    if (typeof data.slug === 'string' || data.slug === null) listener({ slug: data.slug });
  };
  return () => channel.close();
}
