/**
 * etcd members and Raft quorum. The API server asks `hasQuorum()` before every write.
 *
 * Quorum is floor(n/2)+1 of the configured voting members. While quorum holds, one running voter
 * is the leader (the current leader keeps the role while it runs; otherwise the lowest-named
 * running voter wins the election). Without quorum there is no leader and no write can commit.
 *
 * Membership changes at run time as etcd's cluster API changes it (server/etcdserver/server.go):
 * a member added as a learner (`member add --learner`, what kubeadm join does) receives the log but
 * neither votes nor counts toward quorum until it is promoted; a member added but never started is
 * "unstarted". With `--strict-reconfig-check` (on by default) etcd refuses a voting member whose
 * addition would leave fewer started voters than the new quorum, and a removal that would.
 */
import { etcdMemberMachine, eventsToward, type EtcdMemberValue } from '../machines/etcd-member';
import { initialRecord, stepRecord, type MachineRecord } from '../machines/record';

export interface EtcdMember {
  name: string;
  running: boolean;
  /** The control-plane node it runs on (stacked topology) or its own host (external). */
  host: string;
  /** Its disk's WAL fsyncs and backend commits so far (etcd_disk_* histograms; absent until measured). */
  disk?: DiskStats;
  /** A Raft learner: replicates the log, does not vote, does not count toward quorum. */
  learner?: boolean;
  /** Added to the membership (`member add`) but no etcd process has started with it yet. */
  unstarted?: boolean;
  /** Its disk failed (I/O errors): etcd exited and cannot start on it. */
  diskFailed?: boolean;
  /** A new, empty disk replaced the failed one: the member must be removed and added again. */
  dataLost?: boolean;
}

/** etcdserver's errors for membership changes (api/v3rpc/rpctypes/error.go), as etcdctl prints them. */
export const MEMBERSHIP_ERRORS = {
  notEnoughStarted: 'etcdserver: re-configuration failed due to not enough started members',
  notFound: 'etcdserver: member not found',
  notLearner: 'etcdserver: can only promote a learner member',
  learnerNotReady: 'etcdserver: can only promote a learner member which is in sync with leader',
  tooManyLearners: 'etcdserver: too many learner members in cluster',
  peerURLExists: 'etcdserver: Peer URLs already exists'
} as const;

/** A refused membership change, with etcdserver's message. */
export class MembershipError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MembershipError';
  }
}

/** A member whose etcd process refuses to start (its disk failed, or its data is gone). */
export class EtcdStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EtcdStartError';
  }
}

/** kubeadm's etcd data dir. */
const DATA_DIR = '/var/lib/etcd';

/** etcd's default `--max-learners`. */
export const MAX_LEARNERS = 1;

/** Cumulative etcd_disk_wal_fsync_duration_seconds and etcd_disk_backend_commit_duration_seconds. */
export interface DiskStats {
  /** The disk is failing: fsyncs take DISK.slowFsyncMs. */
  slow: boolean;
  /** The committed writes counted so far. */
  folded: number;
  fsync: number[];
  fsyncSum: number;
  commit: number[];
  commitSum: number;
}

/** etcd's disk histograms' buckets: prometheus.ExponentialBuckets(0.001, 2, 14), 1 ms to 8.192 s. */
export const DISK_BUCKETS = Array.from({ length: 14 }, (_, i) => 0.001 * 2 ** i);

/**
 * Modelled disk latencies: a healthy SSD fsyncs the WAL in about 1.5 ms and commits the backend in
 * about 3 ms; a failing disk takes 1.2 s and 0.6 s (the backend commit batches every 100 ms, so
 * it is off the request path). One WAL fsync and one backend commit are counted per committed write.
 */
export const DISK = { fsyncMs: 1.5, commitMs: 3, slowFsyncMs: 1200, slowCommitMs: 600 } as const;

const copyMember = (m: EtcdMember): EtcdMember =>
  m.disk ? { ...m, disk: { ...m.disk, fsync: [...m.disk.fsync], commit: [...m.disk.commit] } } : { ...m };

export interface EtcdSnapshot {
  members: EtcdMember[];
  leader: string | null;
  term: number;
  /** Each member's lifecycle machine (machines/etcd-member.ts); absent in older snapshots. */
  machines?: Record<string, MachineRecord>;
}

/** Raft's majority: ⌊n/2⌋ + 1 of n configured members must agree for a write to commit. */
export function quorumOf(members: number): number {
  return Math.floor(members / 2) + 1;
}

export class Etcd {
  members: EtcdMember[];
  leader: string | null = null;
  /** Raft term: increases with every election. */
  term = 0;
  /** Writes committed so far (set by the cluster from the API server's counters): the disks' work. */
  writes: () => number = () => 0;
  /** Virtual ms now (set by the cluster from its engine): when a member's machine moved. */
  clock: () => number = () => 0;
  /** Each member's lifecycle machine, stepped after every change to the roles. */
  machines: Record<string, MachineRecord> = {};

  constructor(members: EtcdMember[]) {
    this.members = members.map(copyMember);
    this.elect();
  }

  /** The role a member's machine should be in now. */
  role(m: EtcdMember): EtcdMemberValue {
    if (m.diskFailed) return 'diskFailed';
    if (m.dataLost) return 'dataLost';
    if (m.unstarted) return 'unstarted';
    if (!m.running) return 'stopped';
    if (m.learner) return 'learner';
    if (this.leader === m.name) return 'leader';
    return this.leader ? 'follower' : 'noQuorum';
  }

  /**
   * Step each member's machine to the role it has now, along the machine's own transitions (a
   * new leader goes through candidate), and forget removed members. Stepping only records: no
   * role or write depends on it.
   */
  private stepMachines(): void {
    const now = this.clock();
    const kept: Record<string, MachineRecord> = {};
    for (const m of this.members) {
      let rec = this.machines[m.name] ?? initialRecord(etcdMemberMachine, now);
      const events = eventsToward(rec.value as EtcdMemberValue, this.role(m), !!m.learner);
      for (const e of events) {
        const detail =
          e.type === 'WON_ELECTION' || e.type === 'LEADER_ELECTED' ? `term ${this.term}` : undefined;
        rec = stepRecord(etcdMemberMachine, rec, e, now, detail).record;
      }
      kept[m.name] = rec;
    }
    this.machines = kept;
  }

  static withMembers(n: number, hostOf: (i: number) => string = (i) => `etcd-${i}`): Etcd {
    return new Etcd(
      Array.from({ length: n }, (_, i) => ({ name: `etcd-${i}`, running: true, host: hostOf(i) }))
    );
  }

  /** Every member of the membership, learners and unstarted ones included. */
  get size(): number {
    return this.members.length;
  }

  /** The voting members: the ones quorum is counted over. */
  get voters(): number {
    // Counted without a filtered copy: the API server asks for quorum before every write.
    let n = 0;
    for (const m of this.members) if (!m.learner) n++;
    return n;
  }

  get quorum(): number {
    return quorumOf(this.voters);
  }

  get faultTolerance(): number {
    return this.voters - this.quorum;
  }

  /** Running voting members. */
  runningCount(): number {
    let n = 0;
    for (const m of this.members) if (m.running && !m.learner) n++;
    return n;
  }

  hasQuorum(): boolean {
    return this.runningCount() >= this.quorum;
  }

  member(name: string): EtcdMember {
    const m = this.members.find((x) => x.name === name);
    if (!m)
      throw new Error(
        `etcd member "${name}" does not exist (members: ${this.members.map((x) => x.name).join(', ')})`
      );
    return m;
  }

  stop(name: string): void {
    this.foldDisk();
    this.member(name).running = false;
    this.elect();
  }

  /**
   * Why etcd would not start for this member now, as its process logs it: a failed disk fails the
   * first read of the backend; on a new, empty data dir with the member still in the membership,
   * etcd finds the member already published by its peers (server/etcdserver/bootstrap.go).
   */
  startRefusal(name: string): string | undefined {
    const m = this.member(name);
    if (m.diskFailed) return `open ${DATA_DIR}/member/snap/db: input/output error`;
    if (m.dataLost)
      return `member ${name} has already been bootstrapped: its data dir is empty on the new disk; remove the member (etcdctl member remove) and add it again`;
    return undefined;
  }

  start(name: string): void {
    const refused = this.startRefusal(name);
    if (refused) throw new EtcdStartError(refused);
    this.foldDisk();
    const m = this.member(name);
    m.running = true;
    delete m.unstarted;
    this.elect();
  }

  private elect(): void {
    this.electLeader();
    this.stepMachines();
  }

  private electLeader(): void {
    if (!this.hasQuorum()) {
      this.leader = null;
      return;
    }
    if (this.leader && this.members.every((m) => m.name !== this.leader)) this.leader = null;
    if (this.leader && this.member(this.leader).running && !this.member(this.leader).learner) return;
    const candidates = this.members
      .filter((m) => m.running && !m.learner)
      .map((m) => m.name)
      .sort();
    this.leader = candidates[0];
    this.term++;
  }

  /** WAL fsync time of a member now (ms). */
  fsyncMs(name: string): number {
    return this.member(name).disk?.slow ? DISK.slowFsyncMs : DISK.fsyncMs;
  }

  /**
   * What a write waits for in etcd (ms): Raft commits an entry once a quorum of members has it in
   * their WAL, so the quorum-th fastest fsync among running members. One slow disk out of three is
   * outvoted; the only member's slow disk is every write's.
   */
  commitWaitMs(): number {
    const times = this.members
      .filter((m) => m.running && !m.learner)
      .map((m) => this.fsyncMs(m.name))
      .sort((a, b) => a - b);
    return times[this.quorum - 1] ?? times[times.length - 1] ?? 0;
  }

  /**
   * Count the writes committed since the last call into each running member's disk histograms at
   * the disk's current speed. Called before a disk's speed or a member's running state changes and
   * before the histograms are read, so each write is counted as it was written, whenever it is read.
   */
  foldDisk(): void {
    const written = this.writes();
    for (const m of this.members) {
      const d = (m.disk ??= {
        slow: false,
        folded: 0,
        fsync: DISK_BUCKETS.map(() => 0),
        fsyncSum: 0,
        commit: DISK_BUCKETS.map(() => 0),
        commitSum: 0
      });
      const n = m.running ? Math.max(0, written - d.folded) : 0;
      d.folded = written;
      if (!n) continue;
      const f = (d.slow ? DISK.slowFsyncMs : DISK.fsyncMs) / 1000;
      const c = (d.slow ? DISK.slowCommitMs : DISK.commitMs) / 1000;
      DISK_BUCKETS.forEach((le, i) => {
        if (f <= le) d.fsync[i] += n;
        if (c <= le) d.commit[i] += n;
      });
      d.fsyncSum += n * f;
      d.commitSum += n * c;
    }
  }

  /**
   * `MemberAdd`: a new member joins the membership, unstarted (no process runs with it yet). A
   * voter is refused when the started voters would fall short of the new quorum
   * (isReadyToAddVotingMember), a learner when the cluster already has `--max-learners`.
   */
  add(name: string, host: string, learner: boolean): void {
    if (!this.hasQuorum()) throw new MembershipError('context deadline exceeded');
    if (this.members.some((m) => m.name === name || m.host === host))
      throw new MembershipError(MEMBERSHIP_ERRORS.peerURLExists);
    if (learner && this.members.filter((m) => m.learner).length >= MAX_LEARNERS)
      throw new MembershipError(MEMBERSHIP_ERRORS.tooManyLearners);
    if (!learner && this.runningCount() < quorumOf(this.voters + 1))
      throw new MembershipError(MEMBERSHIP_ERRORS.notEnoughStarted);
    this.foldDisk();
    const m: EtcdMember = { name, host, running: false, unstarted: true };
    if (learner) m.learner = true;
    this.members.push(m);
    this.foldDisk();
    this.stepMachines();
  }

  /** `MemberRemove`: refused when the remaining started voters would fall short of quorum. */
  remove(name: string): void {
    if (!this.hasQuorum()) throw new MembershipError('context deadline exceeded');
    const m = this.members.find((x) => x.name === name);
    if (!m) throw new MembershipError(MEMBERSHIP_ERRORS.notFound);
    if (!m.learner) {
      const startedAfter = this.runningCount() - (m.running ? 1 : 0);
      if (startedAfter < quorumOf(this.voters - 1))
        throw new MembershipError(MEMBERSHIP_ERRORS.notEnoughStarted);
    }
    this.foldDisk();
    this.members = this.members.filter((x) => x.name !== name);
    if (this.leader === name) this.leader = null;
    this.elect();
  }

  /**
   * `MemberPromote`: a learner becomes a voter once it has caught up with the leader; the
   * simulated keyspace is small, so a started learner is in sync at once.
   */
  promote(name: string): void {
    if (!this.hasQuorum()) throw new MembershipError('context deadline exceeded');
    const m = this.members.find((x) => x.name === name);
    if (!m) throw new MembershipError(MEMBERSHIP_ERRORS.notFound);
    if (!m.learner) throw new MembershipError(MEMBERSHIP_ERRORS.notLearner);
    if (!m.running) throw new MembershipError(MEMBERSHIP_ERRORS.learnerNotReady);
    this.foldDisk();
    delete m.learner;
    this.elect();
  }

  /** The disk under a member fails outright: the WAL write errors out and the etcd process exits. */
  failDisk(name: string): void {
    this.foldDisk();
    const m = this.member(name);
    m.running = false;
    m.diskFailed = true;
    delete m.dataLost;
    this.elect();
  }

  /** A new, empty disk replaces a failed one: the data dir starts empty; the member stays stopped. */
  replaceDisk(name: string): void {
    const m = this.member(name);
    this.foldDisk();
    delete m.diskFailed;
    m.dataLost = true;
    if (m.disk) m.disk.slow = false;
    this.stepMachines();
  }

  /** A member's disk starts failing (slow) or is replaced (healthy). */
  setDiskSlow(name: string, slow: boolean): void {
    const m = this.member(name);
    this.foldDisk();
    m.disk!.slow = slow;
  }

  snapshot(): EtcdSnapshot {
    return {
      members: this.members.map(copyMember),
      leader: this.leader,
      term: this.term,
      machines: { ...this.machines }
    };
  }

  restore(s: EtcdSnapshot): void {
    this.members = s.members.map(copyMember);
    this.leader = s.leader;
    this.term = s.term;
    this.machines = { ...(s.machines ?? {}) };
    // A snapshot saved before the machines were kept: each member starts in the role it has.
    if (!s.machines) this.stepMachines();
  }
}
