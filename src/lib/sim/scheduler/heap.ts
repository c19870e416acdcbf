/**
 * A binary heap of string keys with a position index, so an entry can be removed or re-sorted in
 * O(log n) (the heap behind activeQ and backoffQ in pkg/scheduler/backend/heap). The comparator
 * must be a strict total order (break ties on the key) so the pop order never depends on the
 * order entries were added.
 */
export class KeyedHeap<T> {
  private items: T[] = [];
  private keys: string[] = [];
  private pos = new Map<string, number>();

  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  has(key: string): boolean {
    return this.pos.has(key);
  }

  peek(): T | undefined {
    return this.items[0];
  }

  /** Add `key`, or re-sort it when its item changed. */
  upsert(key: string, item: T): void {
    const i = this.pos.get(key);
    if (i === undefined) {
      this.items.push(item);
      this.keys.push(key);
      this.pos.set(key, this.items.length - 1);
      this.up(this.items.length - 1);
      return;
    }
    this.items[i] = item;
    if (!this.up(i)) this.down(i);
  }

  delete(key: string): boolean {
    const i = this.pos.get(key);
    if (i === undefined) return false;
    this.pos.delete(key);
    const lastItem = this.items.pop()!;
    const lastKey = this.keys.pop()!;
    if (i < this.items.length) {
      this.items[i] = lastItem;
      this.keys[i] = lastKey;
      this.pos.set(lastKey, i);
      if (!this.up(i)) this.down(i);
    }
    return true;
  }

  pop(): T | undefined {
    if (!this.items.length) return undefined;
    const top = this.items[0];
    this.delete(this.keys[0]);
    return top;
  }

  clear(): void {
    this.items = [];
    this.keys = [];
    this.pos.clear();
  }

  private swap(i: number, j: number): void {
    const it = this.items[i];
    this.items[i] = this.items[j];
    this.items[j] = it;
    const k = this.keys[i];
    this.keys[i] = this.keys[j];
    this.keys[j] = k;
    this.pos.set(this.keys[i], i);
    this.pos.set(this.keys[j], j);
  }

  private up(i: number): boolean {
    const start = i;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(this.items[i], this.items[p])) break;
      this.swap(i, p);
      i = p;
    }
    return i !== start;
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(this.items[l], this.items[m])) m = l;
      if (r < n && this.less(this.items[r], this.items[m])) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
