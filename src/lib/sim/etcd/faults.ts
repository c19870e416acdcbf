/**
 * etcd member faults. Stopping members past the quorum (2 of 3) takes the leader away: every API
 * write then fails with `etcdserver: request timed out` until enough members start again.
 */
import { FaultError, defineFault, type Cluster, type FaultTarget } from '../cluster';

function memberName(cluster: Cluster, params: FaultTarget, action: string): string {
  const names = cluster.etcd.members.map((m) => m.name);
  const target = params.target;
  if (!target) throw new FaultError(`${action} needs a target etcd member (members: ${names.join(', ')})`);
  if (!names.includes(target)) {
    throw new FaultError(`etcd member "${target}" does not exist (members: ${names.join(', ')})`);
  }
  return target;
}

export const faultStopEtcdMember = defineFault(
  'StopEtcdMember',
  'Stop one etcd member (target = member name).',
  (cluster, params) => {
    cluster.etcd.stop(memberName(cluster, params, 'StopEtcdMember'));
  }
);

export const faultStartEtcdMember = defineFault(
  'StartEtcdMember',
  'Start a stopped etcd member again (target = member name).',
  (cluster, params) => {
    cluster.etcd.start(memberName(cluster, params, 'StartEtcdMember'));
  }
);

export const faultSlowEtcdDisk = defineFault(
  'SlowEtcdDisk',
  'The disk under one etcd member starts failing: its WAL fsyncs take 1.2 s (target = member name).',
  (cluster, params) => {
    const name = memberName(cluster, params, 'SlowEtcdDisk');
    if (cluster.etcd.member(name).disk?.slow)
      throw new FaultError(`etcd member "${name}" already has a failing disk`);
    cluster.etcd.setDiskSlow(name, true);
  }
);

export const faultFixEtcdDisk = defineFault(
  'FixEtcdDisk',
  'Replace the failing disk under an etcd member: fsyncs are fast again (target = member name).',
  (cluster, params) => {
    const name = memberName(cluster, params, 'FixEtcdDisk');
    if (!cluster.etcd.member(name).disk?.slow)
      throw new FaultError(`etcd member "${name}" has a healthy disk`);
    cluster.etcd.setDiskSlow(name, false);
  }
);
