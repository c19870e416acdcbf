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
}

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

  constructor(members: EtcdMember[]) {
    this.members = members.map((m) => ({ ...m }));
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
    this.member(name).running = false;
    this.elect();
  }

  start(name: string): void {
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

  snapshot(): EtcdSnapshot {
    return { members: this.members.map((m) => ({ ...m })), leader: this.leader, term: this.term };
  }

  restore(s: EtcdSnapshot): void {
    this.members = s.members.map((m) => ({ ...m }));
    this.leader = s.leader;
    this.term = s.term;
  }
}
