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
  /** Pods with spec.nodeName are existing; the others are scheduled in the given order. */
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
}

export interface NodeResult {
  filter: Record<string, { code: Code; reasons: string[] }>;
  score: Record<string, number>;
  finalScore: number | null;
}

export interface PodResult {
  pod: string;
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
  const pending: KubeObject[] = [];
  for (const p of input.pods) {
    if (p.spec?.nodeName) {
      if (p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed') cache.addPod(p, p.spec.nodeName);
    } else pending.push(p);
  }
  const frameworks = new Map(config.profiles.map((p) => [p.schedulerName, new Framework(p, minor)]));
  let nextStart = 0;
  const results: PodResult[] = [];
  for (const raw of pending) {
    const pod = structuredClone(raw) as KubeObject;
    const key = `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
    const fw = frameworks.get(pod.spec?.schedulerName ?? 'default-scheduler');
    if (!fw) {
      results.push({
        pod: key,
        selectedNode: null,
        message: `no profile for schedulerName "${pod.spec?.schedulerName}"`,
        nodes: {},
        attempts: []
      });
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
    const nodes: Record<string, NodeResult> = {};
    for (const [n, e] of Object.entries(last?.nodes ?? {}))
      nodes[n] = { filter: e.filter, score: e.score, finalScore: e.finalScore };
    results.push({
      pod: key,
      selectedNode: r!.selectedNode,
      message: r!.message,
      nodes,
      ...(preemption ? { preemption } : {}),
      attempts
    });
  }
  return { pods: results };
}
