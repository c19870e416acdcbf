/**
 * Node registration (registerWithAPIServer: POST the Node, reconcile on AlreadyExists, retry from
 * 100ms doubling to 7s) and the node Lease (renewed every 0.25 × leaseDurationSeconds, retried
 * from 200ms doubling to 7s), pkg/kubelet/kubelet_node_status.go and the lease controller.
 */
import { ApiError, ConnectionError, isApiError } from '../api/errors';
import type { KubeObject, Lease, Mutable } from '../api/types';
import type { Kubelet } from './kubelet';
import { clientErr, microTime } from './klog';
import { initialNode, reconcileExistingNode, runtimeCheck } from './nodestatus';
import { housekeeping } from './podsync';

/** First delay of a service run (startService); retries double it. */
const REGISTER_BACKOFF_INITIAL = 100;
const REGISTER_BACKOFF_MAX = 7_000;
const LEASE_BACKOFF_INITIAL = 200;
const LEASE_BACKOFF_MAX = 7_000;

export function tryRegister(k: Kubelet): void {
  const s = k.state;
  // Run() calls updateRuntimeUp once right before the status loop that registers the node, so the
  // first Node of a run carries the runtime and CNI state of that moment (an empty /etc/cni/net.d
  // registers NotReady, not Ready until the next 5s check).
  if (s.registerDelay === REGISTER_BACKOFF_INITIAL) runtimeCheck(k);
  try {
    try {
      k.cluster.api.create(initialNode(k), k.ctx);
    } catch (e) {
      if (!isApiError(e, 'AlreadyExists')) throw e;
      reconcileExistingNode(k);
    }
  } catch (e) {
    k.journal(
      'E',
      'kubelet_node_status.go:107',
      `"Unable to register node with API server" err="${clientErr(e, 'Post', '/api/v1/nodes')}" node="${k.name}"`
    );
    s.registerDelay = Math.min(s.registerDelay * 2, REGISTER_BACKOFF_MAX);
    k.schedule(s.registerDelay, 'register');
    return;
  }
  s.registered = true;
  s.lastReport = k.now;
  k.journal('I', 'kubelet_node_status.go:78', `"Successfully registered node" node="${k.name}"`);
  k.lifecycle({ type: 'REGISTERED' });
  renewLease(k);
  k.schedule(k.cfg.nodeStatusUpdateFrequency, 'status');
  k.schedule(k.cfg.evictionMonitoringPeriod, 'eviction');
  housekeeping(k);
}

/** The Lease renew interval: nodeLeaseDurationSeconds × 0.25 (10s for the default 40s). */
export function leaseRenewInterval(cfg: { nodeLeaseDurationSeconds: number }): number {
  return cfg.nodeLeaseDurationSeconds * 250;
}

export function renewLease(k: Kubelet): void {
  const s = k.state;
  const api = k.cluster.api;
  const renewTime = microTime(api.epochMs + k.now);
  try {
    const cur = api.tryGet<KubeObject>('Lease', 'kube-node-lease', k.name);
    if (!cur) {
      const node = api.tryGet<KubeObject>('Node', undefined, k.name);
      const lease: Mutable<Lease> & KubeObject = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          name: k.name,
          namespace: 'kube-node-lease',
          ...(node
            ? {
                ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: k.name, uid: node.metadata.uid! }]
              }
            : {})
        },
        spec: {
          holderIdentity: k.name,
          leaseDurationSeconds: k.cfg.nodeLeaseDurationSeconds,
          renewTime
        }
      };
      api.create(lease, k.ctx);
    } else {
      // The stored Lease with a new spec: the API server copies what it is sent, so the kubelet
      // does not copy the rest first (upstream's lease controller updates its latest Lease).
      api.update({ ...cur, spec: { ...cur.spec, holderIdentity: k.name, renewTime } }, k.ctx);
    }
    s.leaseDelay = 0;
    k.schedule(leaseRenewInterval(k.cfg), 'lease');
  } catch (e) {
    if (!(e instanceof ApiError || e instanceof ConnectionError)) throw e;
    s.leaseDelay = s.leaseDelay ? Math.min(s.leaseDelay * 2, LEASE_BACKOFF_MAX) : LEASE_BACKOFF_INITIAL;
    k.journal(
      'E',
      'controller.go:145',
      `"Failed to update lease" err="${clientErr(e, 'Put', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${k.name}`)}"`
    );
    k.schedule(s.leaseDelay, 'lease');
  }
}
