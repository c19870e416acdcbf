/**
 * Which pods "moved" between two views of the map: a controller replaced a pod that left one
 * node (evicted, deleted, drained) with a new pod of the same owner bound to another node. The
 * map animates each move from the old node card to the new chip.
 */
import type { LabView } from '$lib/sim/observe';

export interface PodMove {
  /** The replacement pod (`namespace/name`). */
  key: string;
  from: string;
  to: string;
}

/** A departure older than this (virtual ms) is not matched with a new pod any more. */
const FORGET_AFTER = 5 * 60_000;

export class PodMoveTracker {
  private bound = new Map<string, { node: string; owner?: string }>();
  /** Per owner, the nodes its pods left, oldest first, with the virtual time they left. */
  private left = new Map<string, { node: string; t: number }[]>();
  private now = Number.NEGATIVE_INFINITY;
  /** The nodes of the last view: the same array (a frame that changed no node) has no moves. */
  private nodes: LabView['nodes'] | undefined;

  /** Feed the next view; returns the moves since the previous one. */
  update(view: LabView): PodMove[] {
    if (view.nodes === this.nodes && view.now >= this.now) {
      this.now = view.now;
      return [];
    }
    this.nodes = view.nodes;
    if (view.now < this.now) {
      // Time travel: what happened "before" is a different past now.
      this.bound.clear();
      this.left.clear();
    }
    const first = this.now === Number.NEGATIVE_INFINITY || view.now < this.now;
    this.now = view.now;
    const current = new Map<string, { node: string; owner?: string }>();
    for (const n of view.nodes)
      for (const p of n.pods) if (!p.terminating) current.set(p.key, { node: n.name, owner: p.owner });
    for (const [key, was] of this.bound) {
      if (current.has(key) || !was.owner) continue;
      const q = this.left.get(was.owner) ?? [];
      q.push({ node: was.node, t: view.now });
      this.left.set(was.owner, q);
    }
    const moves: PodMove[] = [];
    if (!first) {
      for (const [key, is] of current) {
        if (this.bound.has(key) || !is.owner) continue;
        const q = this.left.get(is.owner);
        while (q?.length && view.now - q[0].t > FORGET_AFTER) q.shift();
        const from = q?.shift();
        if (from && from.node !== is.node) moves.push({ key, from: from.node, to: is.node });
      }
    }
    this.bound = current;
    return moves;
  }
}
