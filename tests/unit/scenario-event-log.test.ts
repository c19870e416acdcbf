/**
 * The event log of every example scenario, pinned by hash. Refactors and speed-ups must leave what
 * a learner sees unchanged: the same scenario and seed give the same events, at the same virtual
 * times, with the same messages. When behaviour changes on purpose (a fidelity fix), the expected
 * hash changes in the same commit, and the commit says why.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/lib/sim/engine/duration';
import { createCluster, loadScenario } from '../../src/lib/sim/scenario';

const DIR = 'scenarios';

/** sha256 of the event log, one `t type reason object source count message` line per entry. */
function eventLogDigest(file: string, untilOverride?: number): { hash: string; events: number } {
  const text = readFileSync(`${DIR}/${file}`, 'utf8');
  const scenario = loadScenario(text, file);
  const until = untilOverride ?? parseDuration(String(scenario.spec.duration ?? '10m'));
  const { cluster } = createCluster(text, { fileName: file });
  cluster.engine.runUntil(until);
  const lines = cluster.eventLog.map(
    (e) => `${e.t} ${e.type} ${e.reason} ${e.object} ${e.source} ${e.count} ${e.message}`
  );
  return {
    hash: createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16),
    events: lines.length
  };
}

/**
 * Scenarios too large to run to their end in the unit suite are pinned over their first seconds
 * (the lab's scale scenario settles over minutes of virtual time).
 */
const HORIZON: Record<string, number> = { 'two-hundred-nodes.yaml': 5_000 };

const PINNED: Record<string, { hash: string; events: number }> = {
  // Every cluster now has kube-system as kubeadm and the CNI manifest build it: the kube-proxy and
  // calico-node DaemonSets (a pod per node), CoreDNS (2 replicas) and calico-kube-controllers. Their
  // SuccessfulCreate, Scheduled, Pulling/Pulled, Created and Started events join every log (45-67
  // per 3-node scenario; the rest of each log is the same events as before, shifted where the
  // scheduler and kubelets handle the system pods first).
  //
  // Queueing hints as v1.35 (the pods waiting for room are moved back only by events their
  // rejecting plugin's hint says may help): the kubelet's image list update at 10.1 s, after the
  // first pulls, is no scheduling event, so the second FailedScheduling of each web pod at 10.1 s is
  // gone (the later ones count one less: 2 at 330 s, 3 at 660 s). One fewer scheduling cycle per
  // pod draws fewer random numbers, so later generated pod names and the tie between two equal new
  // nodes come out differently.
  'autoscaler-boot-failure.yaml': { hash: '769254d03792ce4c', events: 112 },
  'autoscaler-scale-up.yaml': { hash: '2c766f7456a0c109', events: 102 },
  'etcd-quorum.yaml': { hash: 'fe7bc3142316f1d2', events: 76 },
  // The GPU pod's second FailedScheduling at 10.1 s (moved back by an image list update) is gone:
  // it waits for a node with nvidia.com/gpu or the 5-minute flush.
  'gpu-pending.yaml': { hash: '8b4facfd2d3c544e', events: 79 },
  'ha-external-etcd.yaml': { hash: '662d1e17d1814b5b', events: 99 },
  'ha-failover.yaml': { hash: 'edcd44a09cc46e6c', events: 76 },
  // The replacement web pod (TaintToleration, PodTopologySpread) is no longer retried at 420.1 s
  // when worker-1's kubelet reports the CoreDNS image it pulled: neither plugin registers that.
  'heartbeat-loss.yaml': { hash: 'dadc05168ea8ceb0', events: 112 },
  // An EKS cluster (managed control plane); NotReady 50 s after the kubelet stops at 2m. Its
  // kube-system is EKS's: the VPC CNI's aws-node DaemonSet takes calico-node's place (the same six
  // events per node, other images and pull times), and Calico's calico-kube-controllers with its
  // PodDisruptionBudget is gone (its ScalingReplicaSet, SuccessfulCreate, Scheduled, Pulling,
  // Pulled, Created, Started and the PDB's NoPods: 112 → 104 events). The queueing hints leave this log as it
  // is once Calico is gone (the same hash with and without them).
  'managed-eks.yaml': { hash: '1df715318203a5a7', events: 104 },
  // No CNI: only the host-network DaemonSet pods (kube-proxy) start; CoreDNS waits, now without a
  // second FailedScheduling at 10.1 s: the not-ready taint it waits on did not change then, only
  // the nodes' image lists (TaintToleration registers Node Add and taint changes only).
  'no-cni.yaml': { hash: 'a5826a67525d9e79', events: 47 },
  'three-nodes.yaml': { hash: '826a2dab917f692c', events: 115 },
  // 400 DaemonSet pods (kube-proxy, calico-node) in the first 5 s; fewer of web's pods by then.
  'two-hundred-nodes.yaml': { hash: '1b17859a916ff2f7', events: 6717 }
};

describe('example scenarios give the pinned event log', () => {
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  it('every example scenario is pinned', () => {
    expect(Object.keys(PINNED).sort()).toEqual(files);
  });
  for (const f of files) {
    it(f, { timeout: 300_000 }, () => {
      expect(eventLogDigest(f, HORIZON[f])).toEqual(PINNED[f]);
    });
  }
});
