/**
 * Records that failed validation. Each (store, key) is reported once per page load, however often
 * it is read, so the UI can show one notice and the rest of the data still loads.
 */
import type { StoreName } from './records';

export interface CorruptRecord {
  store: StoreName;
  key: string;
  reason: string;
}

type Listener = (record: CorruptRecord) => void;

const reported = new Map<string, CorruptRecord>();
const listeners = new Set<Listener>();

export function reportCorrupt(store: StoreName, key: IDBValidKey, reason: string): void {
  const id = `${store}/${String(key)}`;
  if (reported.has(id)) return;
  const record = { store, key: String(key), reason };
  reported.set(id, record);
  for (const listener of listeners) listener(record);
}

/** Every corrupt record found so far, in the order found. */
export function corruptRecords(): CorruptRecord[] {
  return [...reported.values()];
}

/** Call `listener` for each corrupt record found from now on; returns an unsubscribe function. */
export function onCorrupt(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Forget what was reported (a fresh page load, or a test). */
export function clearCorruptReports(): void {
  reported.clear();
}
