/**
 * Structural sharing between two frames of a read model. Frames cross from the worker by
 * structured clone, so every NodeView in a diff arrives as a new object even where only its
 * heartbeat moved; handing those to Svelte would re-render every pod chip and resource bar of the
 * card. `keepUnchanged(next, prev)` returns `prev` itself where `next` holds the same JSON, and
 * otherwise `next` with its unchanged parts replaced by `prev`'s, so a view keyed on identity
 * (Svelte's props, `{#each}` items) updates only what changed.
 */
export function keepUnchanged<T>(next: T, prev: T | undefined): T {
  return keep(next, prev) as T;
}

function keep(next: unknown, prev: unknown): unknown {
  if (next === prev) return prev;
  if (next === null || prev === null || typeof next !== 'object' || typeof prev !== 'object') return next;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return next;
    let same = next.length === prev.length;
    let byId: Map<string, unknown> | undefined;
    for (let i = 0; i < next.length; i++) {
      // Items with an identity (a pod's `key`, a node's or a bar's `name`) are matched by it, so
      // one pod added in front of a card's list does not count every chip after it as changed.
      let before: unknown = i < prev.length ? prev[i] : undefined;
      const id = identity(next[i]);
      if (id !== undefined && identity(before) !== id) {
        byId ??= new Map(prev.map((x) => [identity(x) ?? '', x]));
        before = byId.get(id);
      }
      const kept = before === undefined ? next[i] : keep(next[i], before);
      if (kept !== next[i]) next[i] = kept;
      if (kept !== prev[i]) same = false;
    }
    return same ? prev : next;
  }
  if (Array.isArray(prev)) return next;
  const n = next as Record<string, unknown>;
  const p = prev as Record<string, unknown>;
  const keys = Object.keys(n);
  let same = keys.length === Object.keys(p).length;
  for (const k of keys) {
    if (!(k in p)) {
      same = false;
      continue;
    }
    const kept = keep(n[k], p[k]);
    if (kept !== n[k]) n[k] = kept;
    if (kept !== p[k]) same = false;
  }
  return same ? prev : next;
}

function identity(x: unknown): string | undefined {
  if (x === null || typeof x !== 'object') return undefined;
  const o = x as { key?: unknown; name?: unknown };
  return typeof o.key === 'string' ? o.key : typeof o.name === 'string' ? o.name : undefined;
}
