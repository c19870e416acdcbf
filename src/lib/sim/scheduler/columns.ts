/**
 * The numbers the default Filter and Score plugins read for every node on every cycle (allocatable,
 * requested and non-zero requested cpu/memory, pod counts, the unschedulable and tainted flags),
 * copied out of the cache's NodeInfos into typed arrays in the order the scheduler walks the
 * nodes. It is derived data like the rest of the cache, rewritten for a node whenever the cache
 * changes that node's NodeInfo, so the batch loops read consecutive numbers instead of following
 * five objects per node. NodeInfo stays the source: a node copied for a preemption dry run is never
 * read from here.
 */
import type { NodeInfo } from './types';

export const FLAG_UNSCHEDULABLE = 1;
export const FLAG_TAINTED = 2;
const NO_CHANGES: readonly number[] = Object.freeze([]);

export class NodeColumns {
  readonly allocCpu: Float64Array;
  readonly allocMemory: Float64Array;
  readonly allocEphemeral: Float64Array;
  readonly allocPods: Float64Array;
  readonly reqCpu: Float64Array;
  readonly reqMemory: Float64Array;
  readonly reqEphemeral: Float64Array;
  readonly podCount: Float64Array;
  readonly nonZeroCpu: Float64Array;
  readonly nonZeroMemory: Float64Array;
  readonly flags: Uint8Array;
  /** Node name → position in the walk order (the index into every column). */
  readonly position = new Map<string, number>();
  /**
   * The positions rewritten since the columns were built, oldest first, from `logBase` on: a reader
   * that keeps figures per node (PodTopologySpread's domain totals) catches up on these instead of
   * walking every node. Cut when it grows past a few times the node count; a reader whose mark is
   * older than the cut walks every node again.
   */
  private log: number[] = [];
  private logBase = 0;
  private building = true;

  constructor(nodes: readonly NodeInfo[]) {
    const n = nodes.length;
    this.allocCpu = new Float64Array(n);
    this.allocMemory = new Float64Array(n);
    this.allocEphemeral = new Float64Array(n);
    this.allocPods = new Float64Array(n);
    this.reqCpu = new Float64Array(n);
    this.reqMemory = new Float64Array(n);
    this.reqEphemeral = new Float64Array(n);
    this.podCount = new Float64Array(n);
    this.nonZeroCpu = new Float64Array(n);
    this.nonZeroMemory = new Float64Array(n);
    this.flags = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      this.position.set(nodes[i].name, i);
      this.write(i, nodes[i]);
    }
    this.building = false;
  }

  /** A mark for `changedSince`: everything written before it is already seen. */
  get mark(): number {
    return this.logBase + this.log.length;
  }

  /** Positions written since `mark` (repeats possible), or null when the log was cut since. */
  changedSince(mark: number): readonly number[] | null {
    if (mark < this.logBase) return null;
    return mark === this.mark ? NO_CHANGES : this.log.slice(mark - this.logBase);
  }

  /**
   * Copy `ni`'s numbers into position `i`; `logged` false when the node's labels, taints and pods
   * as selectors see them are unchanged (a status write), which `changedSince` readers skip.
   */
  write(i: number, ni: NodeInfo, logged = true): void {
    const a = ni.allocatable;
    const r = ni.requested;
    this.allocCpu[i] = a.cpu;
    this.allocMemory[i] = a.memory;
    this.allocEphemeral[i] = a.ephemeralStorage;
    this.allocPods[i] = a.pods;
    this.reqCpu[i] = r.cpu;
    this.reqMemory[i] = r.memory;
    this.reqEphemeral[i] = r.ephemeralStorage;
    this.podCount[i] = ni.pods.length;
    this.nonZeroCpu[i] = ni.nonZeroRequested.cpu;
    this.nonZeroMemory[i] = ni.nonZeroRequested.memory;
    this.flags[i] = (ni.unschedulable ? FLAG_UNSCHEDULABLE : 0) | (ni.taints.length ? FLAG_TAINTED : 0);
    if (this.building || !logged) return;
    if (this.log.length >= 4 * this.flags.length + 1024) {
      this.logBase += this.log.length;
      this.log = [];
    }
    this.log.push(i);
  }

  /** The node changed (a pod added or removed, or the Node replaced in place). */
  update(ni: NodeInfo, logged = true): void {
    const i = this.position.get(ni.name);
    if (i !== undefined) this.write(i, ni, logged);
  }
}
