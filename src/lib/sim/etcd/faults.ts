/**
 * etcd member faults. Stopping members past the quorum (2 of 3) takes the leader away: every API
 * write then fails with `etcdserver: request timed out` until enough members start again.
 */
import { FaultError, registerFault, type Cluster, type FaultTarget } from '../cluster';
import './staticpods';

function memberName(cluster: Cluster, params: FaultTarget, action: string): string {
  const names = cluster.etcd.members.map((m) => m.name);
  const target = params.target;
  if (!target) throw new FaultError(`${action} needs a target etcd member (members: ${names.join(', ')})`);
  if (!names.includes(target)) {
    throw new FaultError(`etcd member "${target}" does not exist (members: ${names.join(', ')})`);
  }
  return target;
}

registerFault('StopEtcdMember', 'Stop one etcd member (target = member name).', (cluster, params) => {
  cluster.etcd.stop(memberName(cluster, params, 'StopEtcdMember'));
});

registerFault(
  'StartEtcdMember',
  'Start a stopped etcd member again (target = member name).',
  (cluster, params) => {
    cluster.etcd.start(memberName(cluster, params, 'StartEtcdMember'));
  }
);
