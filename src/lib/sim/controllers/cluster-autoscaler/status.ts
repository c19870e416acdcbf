/**
 * The status ConfigMap `kube-system/cluster-autoscaler-status` (clusterstate/api): a YAML document
 * with cluster-wide and per-node-group health, scale-up and scale-down states, rewritten every loop.
 */
import { stringify } from 'yaml';
import type { Cluster } from '../../cluster';
import { clone, type KubeObject, type RequestContext } from '../../api/types';

export const STATUS_CONFIGMAP = 'cluster-autoscaler-status';
export const LAST_UPDATED_ANNOTATION = 'cluster-autoscaler.kubernetes.io/last-updated';

export interface NodeCounts {
  registered: { total: number; ready: number; notStarted: number };
  longUnregistered: number;
  unregistered: number;
}

export interface GroupStatus {
  name: string;
  counts: NodeCounts;
  target: number;
  min: number;
  max: number;
  scaleUp: 'NoActivity' | 'InProgress' | 'Backoff';
  /** With scaleUp Backoff: why (clusterstate BackoffInfo). */
  backoffInfo?: { errorCode: string; errorMessage: string };
  candidates: number;
}

/** Go's time.Time.String() in UTC: `2026-01-01 00:00:10.000000000 +0000 UTC`. */
export function goTime(iso: string): string {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(iso);
  if (!m) return iso;
  return `${m[1]} ${m[2]}.${(m[3] ?? '').padEnd(9, '0').slice(0, 9)} +0000 UTC`;
}

/** Keeps lastTransitionTime per status line across loops (held in the autoscaler's state). */
export type Transitions = Record<string, { status: string; since: string }>;

function probe(tr: Transitions, key: string, status: string, now: string) {
  const cur = tr[key];
  if (!cur || cur.status !== status) tr[key] = { status, since: now };
  return { status, lastProbeTime: now, lastTransitionTime: tr[key].since };
}

/**
 * `clusterCounts`: the cluster-wide node counts, which cover every node (clusterstate's
 * totalReadiness), not only the node groups'; without it the groups' counts are summed.
 */
export function statusYaml(
  now: string,
  groups: GroupStatus[],
  tr: Transitions,
  clusterCounts?: NodeCounts
): string {
  const total = (f: (c: NodeCounts) => number) => groups.reduce((s, g) => s + f(g.counts), 0);
  const counts: NodeCounts = clusterCounts ?? {
    registered: {
      total: total((c) => c.registered.total),
      ready: total((c) => c.registered.ready),
      notStarted: total((c) => c.registered.notStarted)
    },
    longUnregistered: total((c) => c.longUnregistered),
    unregistered: total((c) => c.unregistered)
  };
  const anyUp = groups.some((g) => g.scaleUp === 'InProgress');
  const candidates = groups.reduce((s, g) => s + g.candidates, 0);
  const doc = {
    time: goTime(now),
    autoscalerStatus: 'Running',
    clusterWide: {
      health: { ...probe(tr, 'health', 'Healthy', now), nodeCounts: counts },
      scaleUp: probe(tr, 'scaleUp', anyUp ? 'InProgress' : 'NoActivity', now),
      scaleDown: probe(tr, 'scaleDown', candidates ? 'CandidatesPresent' : 'NoCandidates', now)
    },
    nodeGroups: groups.map((g) => ({
      name: g.name,
      health: {
        ...probe(tr, `${g.name}/health`, 'Healthy', now),
        nodeCounts: g.counts,
        cloudProviderTarget: g.target,
        minSize: g.min,
        maxSize: g.max
      },
      scaleUp: {
        ...probe(tr, `${g.name}/scaleUp`, g.scaleUp, now),
        ...(g.backoffInfo ? { backoffInfo: g.backoffInfo } : {})
      },
      scaleDown: {
        ...probe(tr, `${g.name}/scaleDown`, g.candidates ? 'CandidatesPresent' : 'NoCandidates', now),
        candidates: g.candidates
      }
    }))
  };
  return stringify(doc);
}

/** Create or update the ConfigMap; returns it (for events about it). */
export function writeStatus(cluster: Cluster, ctx: RequestContext, text: string, now: string): KubeObject {
  const api = cluster.api;
  const cur = api.tryGet<KubeObject>('ConfigMap', 'kube-system', STATUS_CONFIGMAP);
  const annotations = { [LAST_UPDATED_ANNOTATION]: goTime(now) };
  if (!cur) {
    return api.create(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: STATUS_CONFIGMAP, namespace: 'kube-system', annotations },
        data: { status: text }
      },
      ctx
    );
  }
  const upd = clone(cur);
  upd.metadata.annotations = { ...(upd.metadata.annotations ?? {}), ...annotations };
  upd.data = { ...((upd.data as Record<string, string>) ?? {}), status: text };
  return api.update(upd, ctx);
}
