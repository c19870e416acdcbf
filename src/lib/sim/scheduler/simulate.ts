/**
 * The scheduler without a cluster: given nodes, pods already bound, pending pods and a
 * configuration, schedule the pending pods in order (each binding counted before the next) and
 * explain every decision. The CLI and the Cluster Autoscaler's what-if runs use it.
 */
import type { KubeObject } from '../api/types';
import { Random } from '../engine/random';
import { SchedulerCache } from './cache';
import { defaultSchedulerConfig, type SchedulerConfig } from './config';
import { Framework } from './framework';
import { newPodInfo } from './nodeinfo';
import { scheduleOne } from './schedule-one';
import type { Code, SchedulingAttempt } from './types';

export interface SimulateInput {
  nodes: KubeObject[];
  /**
   * Pods with spec.nodeName are existing (counted on their node, and reported with the verdicts
   * they would get now); the others are scheduled in the given order.
   */
  pods: KubeObject[];
  services?: KubeObject[];
  replicaSets?: KubeObject[];
  statefulSets?: KubeObject[];
  namespaces?: KubeObject[];
  config?: SchedulerConfig;
  /** Minor Kubernetes version (reason wording). */
  minor?: number;
  seed?: number;
  /** Keep per-node explanations (default true). */
  explain?: boolean;
  /** Report existing pods too, in input order with the pending ones (the CLI harness does). */
  reportExisting?: boolean;
}

export interface NodeResult {
  filter: Record<string, { code: Code; reasons: string[] }>;
  /** Normalized score per plugin; null for a plugin whose PreScore returned Skip (it did not score). */
  score: Record<string, number | null>;
  /** Score plugins that sat out (PreScore Skip): their null above is not a score of 0. */
  skip?: string[];
  finalScore: number | null;
}

export interface PodResult {
  pod: string;
  /** The pod already carried spec.nodeName: it was not scheduled, only judged. */
  existing?: boolean;
  selectedNode: string | null;
  message: string;
  nodes: Record<string, NodeResult>;
  preemption?: { nominatedNodeName: string; victims: string[]; message: string };
  attempts: SchedulingAttempt[];
}

export function simulateScheduling(input: SimulateInput): { pods: PodResult[] } {
  const minor = input.minor ?? 35;
  const config = input.config ?? defaultSchedulerConfig();
  const explain = input.explain ?? true;
  const random = new Random(input.seed ?? 1);
  const cache = new SchedulerCache({
    services: input.services,
    replicaSets: input.replicaSets,
    statefulSets: input.statefulSets,
    namespaces: input.namespaces,
    minor
  });
  for (const n of input.nodes) cache.upsertNode(n);
  const nodeNames = new Set(input.nodes.map((n) => n.metadata.name));
  const pending: KubeObject[] = [];
  const existing: KubeObject[] = [];
  const order = new Map<string, number>();
  for (const [i, p] of input.pods.entries()) {
    order.set(keyOf(p), i);
    if (p.spec?.nodeName) {
      if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
      if (input.reportExisting) existing.push(p);
      if (nodeNames.has(p.spec.nodeName)) cache.addPod(p, p.spec.nodeName);
    } else pending.push(p);
  }
  const frameworks = new Map(config.profiles.map((p) => [p.schedulerName, new Framework(p, minor)]));
  let nextStart = 0;
  const results: PodResult[] = [];
  // Existing pods: the verdicts they would get now, against every other pod, without binding or
  // moving the scheduler's round-robin start or random stream (their own node's NodeName filter
  // passes; a node that does not exist fails NodeName everywhere).
  for (const raw of existing) {
    const pod = structuredClone(raw) as KubeObject;
    const key = keyOf(pod);
    const fw = frameworks.get(pod.spec?.schedulerName ?? 'default-scheduler');
    if (!fw) {
      results.push(noProfile(key, pod, true));
      continue;
    }
    const bound = nodeNames.has(pod.spec.nodeName);
    if (bound) cache.removePod(key);
    const r = scheduleOne(fw, cache.handle, newPodInfo(pod), {
      nextStartNodeIndex: nextStart,
      percentageOfNodesToScore: config.percentageOfNodesToScore,
      minor,
      randomInt: (n) => new Random(input.seed ?? 1).int(n),
      explain,
      now: 0,
      bind: () => null
    });
    if (bound) cache.addPod(raw, pod.spec.nodeName);
    const attempts = r.attempt ? [r.attempt] : [];
    results.push({
      pod: key,
      existing: true,
      selectedNode: r.selectedNode,
      message: r.message,
      nodes: nodeResults(r.attempt, fw),
      attempts
    });
  }
  for (const raw of pending) {
    const pod = structuredClone(raw) as KubeObject;
    const key = keyOf(pod);
    const fw = frameworks.get(pod.spec?.schedulerName ?? 'default-scheduler');
    if (!fw) {
      results.push(noProfile(key, pod, false));
      continue;
    }
    const attempts: SchedulingAttempt[] = [];
    let preemption: PodResult['preemption'];
    let r;
    for (let round = 0; round < 2; round++) {
      r = scheduleOne(fw, cache.handle, newPodInfo(pod), {
        nextStartNodeIndex: nextStart,
        percentageOfNodesToScore: config.percentageOfNodesToScore,
        minor,
        randomInt: (n) => random.int(n),
        explain,
        now: 0,
        bind: (p, node) => {
          const bound = structuredClone(p.pod) as KubeObject;
          bound.spec = { ...bound.spec, nodeName: node };
          cache.addPod(bound, node);
          return null;
        }
      });
      nextStart = r.nextStartNodeIndex;
      if (r.attempt) attempts.push(r.attempt);
      if (!r.nominatedNodeName || !r.victims) break;
      // The victims are deleted; the preemptor comes back for its nominated node.
      for (const v of r.victims) cache.removePod(v.key);
      preemption = {
        nominatedNodeName: r.nominatedNodeName,
        victims: r.victims.map((v) => v.key),
        message: r.message
      };
      pod.status = { ...(pod.status ?? {}), nominatedNodeName: r.nominatedNodeName };
    }
    const last = attempts[attempts.length - 1];
    results.push({
      pod: key,
      selectedNode: r!.selectedNode,
      message: r!.message,
      nodes: nodeResults(last, fw),
      ...(preemption ? { preemption } : {}),
      attempts
    });
  }
  results.sort((a, b) => (order.get(a.pod) ?? 0) - (order.get(b.pod) ?? 0));
  return { pods: results };
}

function keyOf(pod: KubeObject): string {
  return `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
}

function noProfile(key: string, pod: KubeObject, existing: boolean): PodResult {
  return {
    pod: key,
    ...(existing ? { existing } : {}),
    selectedNode: null,
    message: `no profile for schedulerName "${pod.spec?.schedulerName}"`,
    nodes: {},
    attempts: []
  };
}

/** Per-node verdicts of an attempt; scored nodes show the PreScore-skipped plugins as null. */
function nodeResults(
  attempt: SchedulingAttempt | undefined | null,
  fw: Framework
): Record<string, NodeResult> {
  const nodes: Record<string, NodeResult> = {};
  if (!attempt) return nodes;
  const names = fw.points.score.map((p) => p.name);
  const skip = names.filter((name) => attempt.preScore[name]?.code === 'Skip');
  for (const [n, e] of Object.entries(attempt.nodes)) {
    if (e.finalScore === null || !skip.length) {
      nodes[n] = { filter: e.filter, score: e.score, finalScore: e.finalScore };
      continue;
    }
    const score: Record<string, number | null> = {};
    for (const name of names) score[name] = skip.includes(name) ? null : (e.score[name] ?? null);
    nodes[n] = { filter: e.filter, score, skip, finalScore: e.finalScore };
  }
  return nodes;
}
