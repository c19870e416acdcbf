// upstream: server/etcdserver/server.go (MemberAdd with IsLearner, PromoteMember, the
// ErrNotEnoughStartedMembers checks), go.etcd.io/raft raft.go (StateFollower, StateCandidate,
// StateLeader; a follower campaigns when its election timeout passes without a leader's heartbeat)
import { describe, expect, it } from 'vitest';
import { Etcd } from '../etcd/etcd';
import { eventsToward } from './etcd-member';

function etcdAt(n: number) {
  const e = Etcd.withMembers(n);
  let now = 0;
  e.clock = () => now;
  return { e, tick: (ms: number) => (now += ms) };
}

const path = (e: Etcd, name: string) => e.machines[name].path.map((s) => `${s.value}<${s.event ?? ''}`);

describe('etcd member machine (stepped by the etcd model)', () => {
  it('bootstraps three members: one leader through candidate, two followers', () => {
    const { e } = etcdAt(3);
    expect(e.machines['etcd-0'].value).toBe('leader');
    expect(path(e, 'etcd-0')).toEqual([
      'unstarted<',
      'follower<START',
      'candidate<ELECTION_TIMEOUT',
      'leader<WON_ELECTION'
    ]);
    expect(e.machines['etcd-1'].value).toBe('follower');
    expect(e.machines['etcd-2'].value).toBe('follower');
  });

  it("the leader's stop: the next member campaigns and wins the new term; a second stop loses quorum", () => {
    const { e, tick } = etcdAt(3);
    tick(5000);
    e.stop('etcd-0');
    expect(e.machines['etcd-0']).toMatchObject({ value: 'stopped', event: 'STOP', at: 5000 });
    expect(e.machines['etcd-1']).toMatchObject({ value: 'leader', event: 'WON_ELECTION', detail: 'term 2' });
    expect(path(e, 'etcd-1').slice(-3)).toEqual([
      'follower<START',
      'candidate<ELECTION_TIMEOUT',
      'leader<WON_ELECTION'
    ]);
    expect(e.machines['etcd-2'].value).toBe('follower');
    tick(1000);
    e.stop('etcd-1');
    expect(e.hasQuorum()).toBe(false);
    expect(e.machines['etcd-2']).toMatchObject({ value: 'noQuorum', event: 'QUORUM_LOST', at: 6000 });
    tick(1000);
    e.start('etcd-0');
    // etcd-0 is the lowest running voter again: it campaigns from its restart.
    expect(e.machines['etcd-0'].value).toBe('leader');
    expect(e.machines['etcd-2']).toMatchObject({
      value: 'follower',
      event: 'LEADER_ELECTED',
      detail: 'term 3'
    });
  });

  it('a learner added by a join: unstarted, started as a learner, promoted to a follower', () => {
    const { e, tick } = etcdAt(1);
    e.add('etcd-1', 'cp-2', true);
    expect(e.machines['etcd-1'].value).toBe('unstarted');
    tick(1000);
    e.start('etcd-1');
    expect(e.machines['etcd-1']).toMatchObject({ value: 'learner', event: 'START' });
    e.promote('etcd-1');
    expect(e.machines['etcd-1']).toMatchObject({ value: 'follower', event: 'PROMOTE' });
    e.remove('etcd-1');
    expect(e.machines['etcd-1']).toBeUndefined();
  });

  it('snapshots carry the machines; a snapshot without them starts each member in its role', () => {
    const { e } = etcdAt(3);
    e.stop('etcd-2');
    const snap = e.snapshot();
    const back = new Etcd([]);
    back.restore(snap);
    expect(back.machines['etcd-2']).toEqual(e.machines['etcd-2']);
    const old = new Etcd([]);
    old.restore({ members: snap.members, leader: snap.leader, term: snap.term });
    expect(old.machines['etcd-2'].value).toBe('stopped');
    expect(old.machines['etcd-0'].value).toBe('leader');
  });

  it('the shortest run of events between two states', () => {
    expect(eventsToward('stopped', 'noQuorum', false).map((e) => e.type)).toEqual(['START', 'QUORUM_LOST']);
    expect(eventsToward('learner', 'leader', true).map((e) => e.type)).toEqual([
      'PROMOTE',
      'ELECTION_TIMEOUT',
      'WON_ELECTION'
    ]);
    expect(eventsToward('leader', 'leader', false)).toEqual([]);
  });
});

// upstream: server/etcdserver/raft.go (a failed WAL save is fatal: the process exits),
// server/etcdserver/bootstrap.go ("member %s has already been bootstrapped" on an empty data dir
// while the member is published), etcd docs op-guide/runtime-configuration.md (replace a failed
// member: remove it, add it again, start it with --initial-cluster-state existing)
describe('etcd member machine: the disk under a member', () => {
  it('a failed disk stops the member; a new, empty disk does not let it restart; remove and add it again', () => {
    const { e, tick } = etcdAt(3);
    tick(1000);
    e.failDisk('etcd-0');
    expect(e.member('etcd-0').running).toBe(false);
    expect(e.machines['etcd-0']).toMatchObject({ value: 'diskFailed', event: 'DISK_FAILED', at: 1000 });
    expect(e.machines['etcd-1'].value).toBe('leader');
    expect(e.startRefusal('etcd-0')).toBe('open /var/lib/etcd/member/snap/db: input/output error');
    expect(() => e.start('etcd-0')).toThrow('input/output error');
    tick(1000);
    e.replaceDisk('etcd-0');
    expect(e.machines['etcd-0']).toMatchObject({ value: 'dataLost', event: 'DISK_REPLACED', at: 2000 });
    expect(() => e.start('etcd-0')).toThrow('member etcd-0 has already been bootstrapped');
    expect(e.member('etcd-0').running).toBe(false);
    tick(1000);
    e.remove('etcd-0');
    e.add('etcd-0', 'etcd-0', false);
    e.start('etcd-0');
    expect(path(e, 'etcd-0')).toEqual(['unstarted<', 'follower<START']);
    expect(e.runningCount()).toBe(3);
  });
});
