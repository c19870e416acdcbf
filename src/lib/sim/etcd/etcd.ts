/**
 * etcd members and Raft quorum. The API server asks `hasQuorum()` before every write.
 *
 * Quorum is floor(n/2)+1 of the configured members. While quorum holds, one running member is
 * the leader (the current leader keeps the role while it runs; otherwise the lowest-named running
 * member wins the election). Without quorum there is no leader and no write can commit.
 */
export interface EtcdMember {
  name: string;
  running: boolean;
  /** The control-plane node it runs on (stacked topology) or its own host (external). */
  host: string;
  /** Its disk's WAL fsyncs and backend commits so far (etcd_disk_* histograms; absent until measured). */
  disk?: DiskStats;
}

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

  constructor(members: EtcdMember[]) {
    this.members = members.map(copyMember);
    this.elect();
  }

  static withMembers(n: number, hostOf: (i: number) => string = (i) => `etcd-${i}`): Etcd {
    return new Etcd(
      Array.from({ length: n }, (_, i) => ({ name: `etcd-${i}`, running: true, host: hostOf(i) }))
    );
  }

  get size(): number {
    return this.members.length;
  }

  get quorum(): number {
    return quorumOf(this.members.length);
  }

  get faultTolerance(): number {
    return this.members.length - this.quorum;
  }

  runningCount(): number {
    return this.members.filter((m) => m.running).length;
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

  start(name: string): void {
    this.foldDisk();
    this.member(name).running = true;
    this.elect();
  }

  private elect(): void {
    if (!this.hasQuorum()) {
      this.leader = null;
      return;
    }
    if (this.leader && this.member(this.leader).running) return;
    const candidates = this.members
      .filter((m) => m.running)
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
      .filter((m) => m.running)
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

  /** A member's disk starts failing (slow) or is replaced (healthy). */
  setDiskSlow(name: string, slow: boolean): void {
    const m = this.member(name);
    this.foldDisk();
    m.disk!.slow = slow;
  }

  snapshot(): EtcdSnapshot {
    return { members: this.members.map(copyMember), leader: this.leader, term: this.term };
  }

  restore(s: EtcdSnapshot): void {
    this.members = s.members.map(copyMember);
    this.leader = s.leader;
    this.term = s.term;
  }
}
