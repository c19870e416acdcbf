/**
 * Where the cluster diagram puts each process: kube-apiserver in the centre, etcd behind it, the
 * control-plane clients around it, the nodes (or node groups) in rows below. Pure, so it is
 * tested without a browser.
 */
import type { NodeView, TrafficEdge } from '$lib/sim/observe';

export const WIDTH = 720;
export const API = { x: 360, y: 200, w: 180, h: 52 };
export const ETCD = { x: 360, y: 58 };
const ROW_TOP = 330;
const NODE_H = 100;
const NODE_GAP = 14;

export interface Box {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Control-plane clients, placed around kube-apiserver. */
export const CLIENTS: Record<string, { x: number; y: number }> = {
  'kube-scheduler': { x: 116, y: 110 },
  'kube-controller-manager': { x: 116, y: 240 },
  'cluster-autoscaler': { x: 604, y: 95 },
  'cloud-controller-manager': { x: 604, y: 170 },
  kubectl: { x: 604, y: 255 }
};

export interface Tile {
  /** Node name, or the group id (`pool:general`, `zone:a`) when aggregated. */
  id: string;
  box: Box;
  /** Where the kubelet's and kube-proxy's edges start. */
  kubelet: { x: number; y: number };
  proxy: { x: number; y: number };
}

/** Tiles for the nodes (or groups), in rows of at most `perRow`, and the diagram's height. */
export function tiles(ids: string[], perRow = 4): { tiles: Tile[]; height: number } {
  const n = Math.max(1, Math.min(perRow, ids.length));
  const w = (WIDTH - 20 - (n - 1) * NODE_GAP) / n;
  const out: Tile[] = ids.map((id, i) => {
    const row = Math.floor(i / n);
    const col = i % n;
    const x = 10 + col * (w + NODE_GAP);
    const y = ROW_TOP + row * (NODE_H + NODE_GAP);
    return {
      id,
      box: { id, x, y, w, h: NODE_H },
      kubelet: { x: x + w * 0.3, y },
      proxy: { x: x + w * 0.72, y }
    };
  });
  const rows = Math.ceil(ids.length / n);
  return { tiles: out, height: ROW_TOP + Math.max(1, rows) * (NODE_H + NODE_GAP) + 10 };
}

/** Node names, or group ids when the model aggregates, in the order the map shows them. */
export function tileIds(nodes: NodeView[], edges: TrafficEdge[], aggregated: boolean): string[] {
  if (!aggregated) return nodes.map((n) => n.name);
  const groups = new Set<string>();
  for (const e of edges) if (e.group) groups.add(e.group);
  return [...groups].sort();
}

/** The point an edge leaves from, for an edge id of the traffic model. */
export function anchor(edgeId: string, byTile: Map<string, Tile>): { x: number; y: number } | undefined {
  const at = edgeId.indexOf('@');
  if (at < 0) return CLIENTS[edgeId];
  const tile = byTile.get(edgeId.slice(at + 1));
  if (!tile) return undefined;
  return edgeId.startsWith('kube-proxy@') ? tile.proxy : tile.kubelet;
}

/** A point on the segment a→b at fraction f (0..1). */
export function along(a: { x: number; y: number }, b: { x: number; y: number }, f: number) {
  return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
}

/** Requests per second, as the diagram prints them (0.1/s … 1.2k/s). */
export function formatRate(n: number): string {
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  if (n >= 10) return String(Math.round(n));
  return String(Math.round(n * 10) / 10);
}

/** The group's display name: the pool or zone value. */
export function groupName(id: string): string {
  return id.includes(':') ? id.slice(id.indexOf(':') + 1) : id;
}
