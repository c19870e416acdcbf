// A member's disk failing outright and the way back, as faults a scenario schedules and the lab
// applies. upstream: server/etcdserver/bootstrap.go (a new data dir of a member already in the
// cluster is refused: "member ... has already been bootstrapped"), etcdctl `member remove` /
// `member add [--learner]` (server/etcdserver/api/membership/cluster.go ValidateConfigurationChange).
import { describe, expect, it } from 'vitest';
import { createCluster } from '../scenario';
import { FaultError } from '../cluster';

const scenario = (faults: string) => `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata:
  name: etcd-disk
spec:
  seed: 3
  duration: 3m
  controlPlane:
    apiServers: 3
    etcd: { members: 3, topology: stacked }
  nodePools:
    - name: worker
      count: 1
${faults}`;

describe('etcd disk faults', () => {
  it('a scenario fails a disk, replaces it and rejoins the member, which catches up as a voter', () => {
    const { cluster } = createCluster(
      scenario(`  faults:
    - { at: 30s, action: FailEtcdDisk, target: etcd-1 }
    - { at: 60s, action: ReplaceEtcdDisk, target: etcd-1 }
    - { at: 90s, action: RejoinEtcdMember, target: etcd-1 }`)
    );
    cluster.runUntil(45_000);
    expect(cluster.etcd.member('etcd-1')).toMatchObject({ running: false, diskFailed: true });
    expect(cluster.etcd.runningCount()).toBe(2);
    expect(cluster.etcd.hasQuorum()).toBe(true);
    cluster.runUntil(75_000);
    expect(cluster.etcd.member('etcd-1')).toMatchObject({ running: false, dataLost: true });
    cluster.runUntil(100_000);
    const m = cluster.etcd.member('etcd-1');
    expect(m.running).toBe(true);
    expect(m.learner).toBeUndefined();
    expect(m.dataLost).toBeUndefined();
    expect(cluster.etcd.voters).toBe(3);
    expect(cluster.etcd.runningCount()).toBe(3);
  });

  it('is refused with a message naming the member while the data is still there, and changes nothing', () => {
    const { cluster } = createCluster(scenario(''));
    cluster.runUntil(10_000);
    cluster.applyFault('FailEtcdDisk', { target: 'etcd-2' });
    expect(() => cluster.applyFault('RejoinEtcdMember', { target: 'etcd-2' })).toThrow(
      new FaultError('etcd member "etcd-2" still has its data: start it again instead of removing it')
    );
    expect(() => cluster.applyFault('ReplaceEtcdDisk', { target: 'etcd-0' })).toThrow(
      'etcd member "etcd-0" has no failed disk to replace'
    );
    expect(cluster.etcd.members.map((x) => x.name)).toEqual(['etcd-0', 'etcd-1', 'etcd-2']);
    expect(cluster.etcd.member('etcd-2')).toMatchObject({ diskFailed: true, running: false });
  });

  it('a learner whose disk was lost comes back as a learner, so the add is never refused after the remove', () => {
    const { cluster } = createCluster(scenario(''));
    cluster.runUntil(10_000);
    cluster.etcd.add('etcd-3', 'control-plane-4', true);
    cluster.etcd.start('etcd-3');
    // Two voters stopped out of three would lose quorum; one stopped keeps it (2 of 3 running).
    cluster.applyFault('StopEtcdMember', { target: 'etcd-0' });
    cluster.applyFault('FailEtcdDisk', { target: 'etcd-3' });
    cluster.applyFault('ReplaceEtcdDisk', { target: 'etcd-3' });
    // As a voter it would need 3 started voters of 4 (isReadyToAddVotingMember): refused after
    // the remove, leaving the member out of the cluster. As the learner it was, it is accepted.
    cluster.applyFault('RejoinEtcdMember', { target: 'etcd-3' });
    const m = cluster.etcd.member('etcd-3');
    expect(m).toMatchObject({ learner: true, running: true });
    expect(cluster.etcd.voters).toBe(3);
    expect(cluster.etcd.members.map((x) => x.name)).toEqual(['etcd-0', 'etcd-1', 'etcd-2', 'etcd-3']);
  });
});
