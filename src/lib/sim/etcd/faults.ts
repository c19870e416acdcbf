/**
 * etcd member faults. Stopping members past the quorum (2 of 3) takes the leader away: every API
 * write then fails with `etcdserver: request timed out` until enough members start again.
 */
import { FaultError, defineFault, type Cluster, type FaultTarget } from '../cluster';
import { MembershipError } from './etcd';

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
    const name = memberName(cluster, params, 'StartEtcdMember');
    const refused = cluster.etcd.startRefusal(name);
    if (refused) throw new FaultError(`etcd member "${name}" does not start: ${refused}`);
    cluster.etcd.start(name);
  }
);

export const faultFailEtcdDisk = defineFault(
  'FailEtcdDisk',
  'The disk under one etcd member fails: its WAL writes return I/O errors and etcd exits (target = member name).',
  (cluster, params) => {
    const name = memberName(cluster, params, 'FailEtcdDisk');
    const m = cluster.etcd.member(name);
    if (m.diskFailed) throw new FaultError(`etcd member "${name}" already has a failed disk`);
    if (m.dataLost) throw new FaultError(`etcd member "${name}" has a new, empty disk`);
    cluster.etcd.failDisk(name);
  }
);

export const faultReplaceEtcdDisk = defineFault(
  'ReplaceEtcdDisk',
  'Put a new, empty disk in place of a failed one: the member stays stopped, its data gone, until it is removed and added again (target = member name).',
  (cluster, params) => {
    const name = memberName(cluster, params, 'ReplaceEtcdDisk');
    if (!cluster.etcd.member(name).diskFailed)
      throw new FaultError(`etcd member "${name}" has no failed disk to replace`);
    cluster.etcd.replaceDisk(name);
  }
);

/**
 * The runtime-reconfiguration way back for a member whose data is gone: `etcdctl member remove`,
 * `etcdctl member add` with the same name and peer URL, and its etcd started on the empty data dir
 * (it then receives the leader's snapshot). Both changes are refused as etcd refuses them.
 */
export const faultRejoinEtcdMember = defineFault(
  'RejoinEtcdMember',
  'Remove an etcd member whose data is gone and add it again: it starts empty and catches up from the leader (target = member name).',
  (cluster, params) => {
    const name = memberName(cluster, params, 'RejoinEtcdMember');
    const m = cluster.etcd.member(name);
    if (!m.dataLost)
      throw new FaultError(`etcd member "${name}" still has its data: start it again instead of removing it`);
    // It comes back in the role it had (`member add --learner` for a learner). The add cannot then
    // be refused once the remove was accepted: the member was stopped, so the started voters are
    // the same, the quorum it is checked against is the one the remove was checked against, and
    // the peer URL and the learner slot are free again. Both changes happen or neither does.
    const learner = m.learner === true;
    try {
      cluster.etcd.remove(name);
      cluster.etcd.add(name, m.host, learner);
    } catch (e) {
      if (e instanceof MembershipError) throw new FaultError(e.message);
      throw e;
    }
    cluster.etcd.start(name);
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
