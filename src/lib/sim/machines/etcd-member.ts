/**
 * An etcd member's life in the Raft cluster (etcd server/etcdserver, go.etcd.io/raft): added to
 * the membership but not started, a learner that replicates the log without a vote, a voting
 * follower, a candidate campaigning for a new term, the leader, a running voter that cannot reach
 * a quorum (no leader: every write times out), or stopped.
 *
 * The etcd model (etcd/etcd.ts) decides the roles: who runs, who votes, who leads. After every
 * change it steps each member's machine along the shortest run of events that reaches the role it
 * observes (`eventsToward`), so a leader's stop shows on a follower as ELECTION_TIMEOUT → candidate
 * → WON_ELECTION → leader, at the virtual time it happened.
 */
import { setup, transition, type SnapshotFrom } from 'xstate';

export type EtcdMemberEvent =
  /** The etcd process starts with this member's name (`learner`: it has no vote yet). */
  | { type: 'START'; learner: boolean }
  /** The process stops (a stopped static pod, a crashed host, `StopEtcdMember`). */
  | { type: 'STOP' }
  /** `etcdctl member promote`: the learner has caught up and becomes a voter. */
  | { type: 'PROMOTE' }
  /** No heartbeat from a leader within the election timeout (1000 ms by default): campaign. */
  | { type: 'ELECTION_TIMEOUT' }
  /** A quorum of voters granted the vote: this member leads the new term. */
  | { type: 'WON_ELECTION' }
  /** Another member leads the current term: follow it. */
  | { type: 'LEADER_ELECTED' }
  /** Fewer than a quorum of voters run: no leader can be elected, no write commits. */
  | { type: 'QUORUM_LOST' }
  /** The disk under the data dir fails: the WAL fsync errors out and etcd exits (it panics on it). */
  | { type: 'DISK_FAILED' }
  /** A new, empty disk replaces the failed one: the member's data dir (its WAL and backend) is gone. */
  | { type: 'DISK_REPLACED' };

export type EtcdMemberValue =
  | 'unstarted'
  | 'learner'
  | 'follower'
  | 'candidate'
  | 'leader'
  | 'noQuorum'
  | 'stopped'
  | 'diskFailed'
  | 'dataLost';

const START = [{ guard: 'asLearner', target: 'learner' }, { target: 'follower' }] as const;

export const etcdMemberMachine = setup({
  types: { events: {} as EtcdMemberEvent },
  guards: {
    asLearner: ({ event }) => event.type === 'START' && event.learner
  }
}).createMachine({
  id: 'etcdMember',
  initial: 'unstarted',
  states: {
    unstarted: {
      description: 'Added to the membership (`member add`); no etcd process has started with it yet.',
      on: { START }
    },
    learner: {
      description: 'A Raft learner: it receives the log but has no vote and does not count toward quorum.',
      on: { PROMOTE: 'follower' }
    },
    follower: {
      description: 'A voter that follows the leader, appends its entries and answers its heartbeats.',
      on: { ELECTION_TIMEOUT: 'candidate', QUORUM_LOST: 'noQuorum' }
    },
    candidate: {
      description: 'The election timeout passed without a leader: it starts a new term and asks for votes.',
      on: {
        WON_ELECTION: 'leader',
        LEADER_ELECTED: 'follower',
        QUORUM_LOST: 'noQuorum'
      }
    },
    leader: {
      description: 'Elected for the current term: every write goes through it and commits on a quorum.',
      on: { LEADER_ELECTED: 'follower', QUORUM_LOST: 'noQuorum' }
    },
    noQuorum: {
      description:
        'Running, but fewer than a quorum of voters run: no leader, so every write fails with "etcdserver: request timed out".',
      on: { ELECTION_TIMEOUT: 'candidate', LEADER_ELECTED: 'follower' }
    },
    stopped: {
      description: 'No etcd process runs for this member; it keeps its place in the membership.',
      on: { START }
    },
    diskFailed: {
      description:
        'Its disk failed: the WAL fsync returned an I/O error and etcd exited; it cannot start until the disk is replaced.',
      on: { DISK_REPLACED: 'dataLost' }
    },
    dataLost: {
      description:
        'A new, empty disk: the member is still in the membership but its data is gone, so etcd refuses to start ("member … has already been bootstrapped"); remove the member and add it again.'
    }
  },
  // The process can stop, and its disk can fail, whatever Raft state it is in.
  on: { STOP: '.stopped', DISK_FAILED: '.diskFailed' }
});

type Snap = SnapshotFrom<typeof etcdMemberMachine>;

/**
 * The shortest run of events that takes a member's machine from `from` to `to` (empty when it
 * is there already or cannot get there). `learner` is the member's vote status, which START carries.
 */
export function eventsToward(
  from: EtcdMemberValue,
  to: EtcdMemberValue,
  learner: boolean
): EtcdMemberEvent[] {
  if (from === to) return [];
  const candidates: EtcdMemberEvent[] = [
    { type: 'START', learner },
    { type: 'PROMOTE' },
    { type: 'LEADER_ELECTED' },
    { type: 'ELECTION_TIMEOUT' },
    { type: 'WON_ELECTION' },
    { type: 'QUORUM_LOST' },
    { type: 'STOP' },
    { type: 'DISK_FAILED' },
    { type: 'DISK_REPLACED' }
  ];
  const seen = new Set<string>([from]);
  let frontier: { value: EtcdMemberValue; events: EtcdMemberEvent[] }[] = [{ value: from, events: [] }];
  while (frontier.length) {
    const next: typeof frontier = [];
    for (const { value, events } of frontier) {
      const snap = etcdMemberMachine.resolveState({ value, context: undefined as never }) as Snap;
      for (const e of candidates) {
        const [after] = transition(etcdMemberMachine, snap, e);
        const v = after.value as EtcdMemberValue;
        if (seen.has(v)) continue;
        if (v === to) return [...events, e];
        seen.add(v);
        next.push({ value: v, events: [...events, e] });
      }
    }
    frontier = next;
  }
  return [];
}
