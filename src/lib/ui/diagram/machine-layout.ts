/**
 * A fixed layered layout for each lifecycle machine: every leaf state has a cell, compound states
 * are drawn around their children, transitions become edges between boxes. Transitions the
 * machine takes in any state (declared on its root) start from an "any state" box.
 */
import type { MachineDefinitionView, MachineId, MachineStep } from '$lib/sim/observe';

export const BOX_H = 30;
const GAP_Y = 52;
/** Box width and the horizontal gap: the node machine's vertical edges carry labels beside them. */
const SIZES: Record<MachineId, { w: number; gapX: number }> = {
  nodeHealth: { w: 164, gapX: 60 },
  container: { w: 130, gapX: 36 },
  kubelet: { w: 120, gapX: 60 },
  etcdMember: { w: 150, gapX: 28 },
  nodeGroup: { w: 150, gapX: 60 }
};
const PAD = 10;
/** Room above a compound state's children for its title. */
const GROUP_TOP = 16;

/** [column, row] of each leaf state, and of the "any state" box when the machine has one. */
const CELLS: Record<MachineId, Record<string, [number, number]>> = {
  nodeHealth: {
    '*': [0.5, 0],
    registered: [0, 1],
    ready: [1, 1],
    unknown: [0, 2],
    notReady: [1, 2],
    unreachableEvicting: [0, 3],
    notReadyEvicting: [1, 3]
  },
  container: {
    'waiting.PodInitializing': [0, 0],
    'waiting.ContainerCreating': [1, 0],
    'waiting.ErrImageNeverPull': [2, 0],
    'waiting.ErrImagePull': [0, 1],
    'waiting.ImagePullBackOff': [1, 1],
    'waiting.CrashLoopBackOff': [2, 1],
    running: [1, 2],
    'terminated.Completed': [0, 3],
    'terminated.Error': [1, 3],
    'terminated.OOMKilled': [2, 3]
  },
  kubelet: {
    '*': [0, 0],
    stopped: [1, 0],
    starting: [1, 1],
    registering: [0, 2],
    running: [1, 2]
  },
  etcdMember: {
    '*': [0, 0],
    stopped: [1, 0],
    unstarted: [2, 0],
    follower: [1, 1],
    learner: [2, 1],
    candidate: [0, 2],
    noQuorum: [2, 2],
    leader: [1, 3],
    diskFailed: [0, 4],
    dataLost: [2, 4]
  },
  nodeGroup: {
    scaleUpInFlight: [0, 0],
    backoff: [1, 0],
    idle: [1, 1],
    scaleDownCandidate: [0, 2],
    deleting: [1, 2]
  }
};

export interface Box {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  compound: boolean;
  /** The "any state" box. */
  any?: boolean;
}

export interface Edge {
  source: string;
  target: string;
  events: string[];
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** The path took this edge. */
  taken: boolean;
  /** Starts at the "any state" box. */
  any: boolean;
  /** Taken by the path, or leaving the current state: its events are written beside it. */
  labelled: boolean;
  /** Where the events' label goes: beside the edge, on the side it was moved to. */
  lx: number;
  ly: number;
  anchor: 'start' | 'middle' | 'end';
}

export interface MachineLayout {
  width: number;
  height: number;
  boxes: Box[];
  edges: Edge[];
}

/** Where a segment from the box's centre towards (tx, ty) leaves the box. */
function exitPoint(b: Box, tx: number, ty: number): [number, number] {
  const cx = b.x + b.w / 2;
  const cy = b.y + b.h / 2;
  const dx = tx - cx;
  const dy = ty - cy;
  if (dx === 0 && dy === 0) return [cx, cy];
  const sx = dx === 0 ? Infinity : b.w / 2 / Math.abs(dx);
  const sy = dy === 0 ? Infinity : b.h / 2 / Math.abs(dy);
  const s = Math.min(sx, sy);
  return [cx + dx * s, cy + dy * s];
}

/** The leaf states under `id` (itself when it is a leaf). */
function leavesOf(def: MachineDefinitionView, id: string): string[] {
  const kids = def.states.filter((s) => s.parent === id);
  return kids.length ? kids.flatMap((k) => leavesOf(def, k.id)) : [id];
}

/** The state a path step names, or the compound box an edge was merged into that holds it. */
function covers(id: string, value: string): boolean {
  return value === id || value.startsWith(`${id}.`);
}

export function layoutMachine(def: MachineDefinitionView, path: MachineStep[]): MachineLayout {
  const current = path[path.length - 1]?.value;
  const cells = CELLS[def.id];
  const { w: BOX_W, gapX: GAP_X } = SIZES[def.id];
  const boxes = new Map<string, Box>();
  const cellX = (c: number) => PAD + c * (BOX_W + GAP_X);
  const cellY = (r: number) => PAD + GROUP_TOP + r * (BOX_H + GAP_Y);
  for (const [id, [c, r]] of Object.entries(cells)) {
    if (id === '*' && !def.transitions.some((t) => t.source === '*')) continue;
    boxes.set(id, { id, x: cellX(c), y: cellY(r), w: BOX_W, h: BOX_H, compound: false, any: id === '*' });
  }
  // Compound states, innermost first: the bounding box of their children.
  const compounds = def.states.filter((s) => s.compound).reverse();
  for (const s of compounds) {
    const kids = def.states
      .filter((k) => k.parent === s.id)
      .map((k) => boxes.get(k.id))
      .filter(Boolean) as Box[];
    if (!kids.length) continue;
    const x = Math.min(...kids.map((k) => k.x)) - 6;
    const y = Math.min(...kids.map((k) => k.y)) - GROUP_TOP;
    const x2 = Math.max(...kids.map((k) => k.x + k.w)) + 6;
    const y2 = Math.max(...kids.map((k) => k.y + k.h)) + 6;
    boxes.set(s.id, { id: s.id, x, y, w: x2 - x, h: y2 - y, compound: true });
  }

  // One edge per (source, target); a transition fanned out by guards to every child of a compound
  // state is drawn to the compound state.
  const pairs = new Map<string, { source: string; target: string; events: Set<string> }>();
  const bySourceEvent = new Map<string, string[]>();
  for (const t of def.transitions) {
    const k = `${t.source}|${t.event}`;
    bySourceEvent.set(k, [...(bySourceEvent.get(k) ?? []), t.target]);
  }
  // First fan-in: the same event to the same target from every child of a compound state is
  // drawn from the compound state (STARTED from any waiting reason).
  const byEventTarget = new Map<string, string[]>();
  for (const [k, targets] of bySourceEvent) {
    const [source, event] = k.split('|');
    let shown = targets;
    for (const s of compounds) {
      const leaves = leavesOf(def, s.id);
      if (leaves.length > 1 && leaves.every((l) => shown.includes(l))) {
        shown = [...shown.filter((x) => !leaves.includes(x)), s.id];
      }
    }
    for (const target of shown) {
      const key = `${event}|${target}`;
      byEventTarget.set(key, [...(byEventTarget.get(key) ?? []), source]);
    }
  }
  for (const [k, sourcesIn] of byEventTarget) {
    const [event, target] = k.split('|');
    let sources = sourcesIn;
    for (const s of compounds) {
      const leaves = leavesOf(def, s.id);
      if (leaves.length > 1 && !covers(s.id, target) && leaves.every((l) => sources.includes(l))) {
        sources = [...sources.filter((x) => !leaves.includes(x)), s.id];
      }
    }
    for (const source of sources) {
      if (target === source) continue;
      const key = `${source}|${target}`;
      const p = pairs.get(key) ?? { source, target, events: new Set<string>() };
      p.events.add(event);
      pairs.set(key, p);
    }
  }

  const placed = [...boxes.values()];
  const middle = (Math.min(...placed.map((b) => b.x)) + Math.max(...placed.map((b) => b.x + b.w))) / 2;
  const edges: Edge[] = [];
  for (const p of pairs.values()) {
    const a = boxes.get(p.source);
    const b = boxes.get(p.target);
    if (!a || !b) continue;
    const [x1, y1] = exitPoint(a, b.x + b.w / 2, b.y + b.h / 2);
    const [x2, y2] = exitPoint(b, a.x + a.w / 2, a.y + a.h / 2);
    // Two edges between the same boxes, one each way: move each to its own side.
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const paired = pairs.has(`${p.target}|${p.source}`);
    // Two edges between the same boxes, one each way: each moves 5 px to its right-hand side.
    const ox = paired ? (-(y2 - y1) / len) * 5 : 0;
    const oy = paired ? ((x2 - x1) / len) * 5 : 0;
    // Labels go inwards (towards the drawing's middle), so none is cut at its edge; a pair's two
    // labels sit near their own edge's start, so at different points.
    // A lone edge's label sits a little before its middle, so two edges meeting at a box (into it
    // and out of it) do not write their events on top of each other.
    const along = paired ? 0.3 : 0.4;
    const mx = x1 + ox + (x2 - x1) * along;
    const my = y1 + oy + (y2 - y1) * along;
    let lx: number;
    let ly: number;
    let anchor: Edge['anchor'];
    if (Math.abs(y2 - y1) > 5) {
      const side = mx <= middle ? 1 : -1;
      lx = mx + side * 6;
      ly = my + 3;
      anchor = side > 0 ? 'start' : 'end';
    } else {
      // Across a row the gap is narrow: write the events above the boxes (a pair's second below).
      lx = (x1 + x2) / 2;
      ly = paired && p.source > p.target ? my + BOX_H / 2 + 11 : my - BOX_H / 2 - 4;
      anchor = 'middle';
    }
    const taken = path.some(
      (s, i) =>
        i > 0 &&
        !!s.event &&
        p.events.has(s.event) &&
        covers(p.target, s.value) &&
        (p.source === '*' || covers(p.source, path[i - 1].value))
    );
    edges.push({
      source: p.source,
      target: p.target,
      events: [...p.events],
      x1: x1 + ox,
      y1: y1 + oy,
      x2: x2 + ox,
      y2: y2 + oy,
      taken,
      any: p.source === '*',
      labelled: taken || (current !== undefined && (p.source === '*' || covers(p.source, current))),
      lx,
      ly,
      anchor
    });
  }
  const all = [...boxes.values()];
  const width = Math.max(...all.map((b) => b.x + b.w)) + PAD;
  const height = Math.max(...all.map((b) => b.y + b.h)) + PAD;
  return { width, height, boxes: all, edges };
}
