/**
 * Events expire: kube-apiserver stores every Event with a time to live (`--event-ttl`, default 1h:
 * `cmd/kube-apiserver/app/options/options.go`, applied by the Event storage's TTLFunc in
 * `pkg/registry/core/event/storage/storage.go`), on each write, so an Event lives an hour after
 * its last update (a repeat raises its count and starts the hour again).
 *
 * The TTL is an etcd lease. kube-apiserver does not grant one per write: its lease manager
 * (`staging/src/k8s.io/apiserver/pkg/storage/etcd3/lease_manager.go`) reuses the last lease while
 * that one still outlives the write by the TTL and by no more than the TTL plus the reuse
 * duration — min(60 s, 5% of the TTL) — and otherwise grants a new one with the reuse duration
 * added. So the Events written within a minute share a lease and expire together, between 1h and
 * 1h1m after their last write. etcd's lessor (`server/lease/lessor.go`) checks for expired leases
 * every 500 ms and revokes them, deleting their keys: watchers see the Events DELETED. A revoke is
 * a proposal through the leader, so without quorum nothing expires until quorum is back.
 */

/** kube-apiserver's default `--event-ttl`, in ms. */
export const EVENT_TTL_MS = 3_600_000;
/** lease_manager.go's defaults: a lease is reused for at most 60 s or 5% of the TTL. */
const LEASE_REUSE_MS = Math.min(60_000, 0.05 * EVENT_TTL_MS);
/** etcd's lessor looks for expired leases every 500 ms (lessor.go's revoke loop). */
export const LESSOR_CHECK_MS = 500;

export interface EventLeasesSnapshot {
  nextId: number;
  prev?: { id: number; expiresAt: number };
  /** Leases not yet revoked: id and expiry, by grant order. */
  leases: [id: number, expiresAt: number][];
  /** Each Event's key and lease, in the order of their last write. */
  keys: [key: string, lease: number][];
  retrying?: boolean;
}

export class EventLeases {
  private nextId = 0;
  private prev: { id: number; expiresAt: number } | undefined;
  /** Lease id → expiry, in grant order: expiries grow with the ids. */
  private expiries = new Map<number, number>();
  /**
   * Each Event's lease, in the order of the last writes: a write moves its key to the end with the
   * newest lease, so the map runs in lease order and the expired keys are the ones at its front.
   * The keys are the API store's own strings (no copy per Event).
   */
  private leaseOf = new Map<string, number>();
  /** The highest lease id revoked. */
  private revokedUpTo = 0;
  /** Quorum is lost and the lessor's next tick is queued (one, however many leases are due). */
  retrying = false;

  /**
   * An Event was written at `now`: attach its key to a lease (lease_manager.go GetLease). Returns
   * the expiry of a newly granted lease (the caller schedules its revoke), or undefined when the
   * last lease was reused.
   */
  attach(key: string, now: number): number | undefined {
    let granted: number | undefined;
    const p = this.prev;
    const valid = p !== undefined && now + EVENT_TTL_MS < p.expiresAt;
    const sufficient = p !== undefined && now + EVENT_TTL_MS + LEASE_REUSE_MS > p.expiresAt;
    let id: number;
    if (p && valid && sufficient) id = p.id;
    else {
      id = ++this.nextId;
      const expiresAt = now + EVENT_TTL_MS + LEASE_REUSE_MS;
      this.prev = { id, expiresAt };
      this.expiries.set(id, expiresAt);
      granted = expiresAt;
    }
    // A put with a new lease moves the key off its old one.
    this.leaseOf.delete(key);
    this.leaseOf.set(key, id);
    return granted;
  }

  /** The key was deleted: it leaves its lease. */
  detach(key: string): void {
    this.leaseOf.delete(key);
  }

  /** Revoke the leases expired at `now`: their keys, in the order of their last write, are returned and forgotten. */
  revokeExpired(now: number): string[] {
    for (const [id, expiresAt] of this.expiries) {
      if (expiresAt > now) break;
      this.expiries.delete(id);
      this.revokedUpTo = id;
    }
    const keys: string[] = [];
    for (const [key, id] of this.leaseOf) {
      if (id > this.revokedUpTo) break;
      this.leaseOf.delete(key);
      keys.push(key);
    }
    return keys;
  }

  /** The lessor's next check after `at`: the first tick of its 500 ms loop at or after it. */
  static checkAt(at: number): number {
    return Math.ceil(at / LESSOR_CHECK_MS) * LESSOR_CHECK_MS;
  }

  snapshot(): EventLeasesSnapshot {
    return {
      nextId: this.nextId,
      ...(this.prev ? { prev: { ...this.prev } } : {}),
      leases: [...this.expiries],
      keys: [...this.leaseOf],
      ...(this.retrying ? { retrying: true } : {})
    };
  }

  static restore(s: EventLeasesSnapshot | undefined): EventLeases {
    const e = new EventLeases();
    if (!s) return e;
    e.nextId = s.nextId;
    e.prev = s.prev ? { ...s.prev } : undefined;
    for (const [id, expiresAt] of s.leases) e.expiries.set(id, expiresAt);
    // Every lease below the first kept one was revoked.
    e.revokedUpTo = s.leases.length ? s.leases[0][0] - 1 : s.nextId;
    for (const [key, id] of s.keys) e.leaseOf.set(key, id);
    e.retrying = s.retrying ?? false;
    return e;
  }
}
