/**
 * The event recorder (client-go record.EventRecorder): components report what happened to an
 * object; the recorder writes core/v1 Event objects through the API, aggregating repeats of the
 * same (object, reason, message, source) into one Event with a growing count, as the real
 * correlator does (its event logger: an LRU cache of the last 4,096 keys, so a repeat of an event
 * whose key has fallen out of it starts a new Event). Every written occurrence is also appended to the cluster's event log, which the
 * CLI timeline, the UI timeline and lesson checks read.
 *
 * Event names are client-go's `fmt.Sprintf("%v.%x", ref.Name, t.UnixNano())`: the object's name and
 * the event time in nanoseconds since the Unix epoch, in hex. The virtual clock counts whole
 * milliseconds, so events recorded at the same instant are one nanosecond apart, as successive
 * reads of a real clock are; names stay unique and sort in recording order.
 */
import type { ApiServer } from '../api/apiserver';
import type { KubeObject, RequestContext } from '../api/types';
import type { Engine } from '../engine/engine';

export interface EventSource {
  component: string;
  host?: string;
}

export interface EventLogEntry {
  /** Virtual time in milliseconds. */
  t: number;
  type: 'Normal' | 'Warning';
  reason: string;
  /** `<Kind>/<namespace>/<name>`, or `<Kind>/<name>` for cluster-scoped objects. */
  object: string;
  message: string;
  source: string;
  count: number;
}

/**
 * What the correlator keeps of an Event it wrote (client-go events_cache.go eventLog): its name,
 * and the count and first timestamp of the series, so a repeat of an Event that expired (the API
 * server deletes Events an hour after their last write) is created again under the same name with
 * the next count (event.go recordEvent: a patch that finds no Event falls back to a create).
 */
interface SeriesKey {
  name: string;
  namespace: string;
  /** Absent in older snapshots: the stored Event's count is read instead. */
  count?: number;
  firstTimestamp?: string;
}

type SeriesEntry = readonly [key: string, event: Readonly<SeriesKey>];

/** The recorder's clock: the last virtual instant (Unix ms) and how many events were named in it. */
interface EventClock {
  ms: number;
  seq: number;
}

const NANOS_PER_MS = BigInt(1_000_000);

/** `<name>.<UnixNano in hex>` for an event recorded `seq` nanoseconds into Unix millisecond `ms`. */
/** client-go tools/record/events_cache.go maxLruCacheEntries: the correlator's caches' size. */
export const MAX_LRU_CACHE_ENTRIES = 4096;

function seriesEntry(
  key: string,
  name: string,
  namespace: string,
  count: number,
  firstTimestamp: string
): SeriesEntry {
  return Object.freeze([key, Object.freeze({ name, namespace, count, firstTimestamp })] as const);
}

export function eventName(objectName: string, ms: number, seq = 0): string {
  return `${objectName}.${(BigInt(ms) * NANOS_PER_MS + BigInt(seq)).toString(16)}`;
}

/**
 * The least recently used key of an LRU map whose insertion order is its recency (a use deletes
 * and sets again). One Map iterator is kept from eviction to eviction: every entry before its
 * place was evicted or has moved to the end, so its next key is the oldest. A new iterator for
 * each eviction would step over the deleted entries' slots at the front of the table every time.
 */
class OldestKey<K> {
  private map: Map<K, unknown> | undefined;
  private keys: Iterator<K> | undefined;

  of(map: Map<K, unknown>): K {
    if (this.map !== map || !this.keys) {
      this.map = map;
      this.keys = map.keys();
    }
    let r = this.keys.next();
    if (r.done) {
      this.keys = map.keys();
      r = this.keys.next();
    }
    return r.value as K;
  }
}

export class EventRecorder {
  log: EventLogEntry[] = [];
  /**
   * Correlation key → [key, the Event it was written as], least recently observed first, at most
   * MAX_LRU_CACHE_ENTRIES; entries are frozen (snapshots share them).
   */
  private series = new Map<string, SeriesEntry>();
  private clock: EventClock = { ms: -1, seq: 0 };
  /** Derived, not state: the last second's timestamp text and the objects' log references. */
  private stamp = { sec: NaN, text: '' };
  private refs = new Map<string, { kind: string; ref: string }>();
  private oldestSeries = new OldestKey<string>();
  private oldestRef = new OldestKey<string>();
  private listeners = new Set<(e: EventLogEntry) => void>();

  constructor(
    private api: ApiServer,
    private engine: Engine
  ) {}

  onEvent(l: (e: EventLogEntry) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /**
   * Record an event about `obj`. Returns false when the API refused the write (no quorum, the
   * reporter is partitioned): like client-go, the event is then dropped.
   */
  event(
    obj: Pick<KubeObject, 'kind' | 'metadata'> & { apiVersion?: string },
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    source: EventSource,
    ctx?: RequestContext,
    fieldPath?: string
  ): boolean {
    const ns = obj.metadata.namespace || 'default';
    // The correlation key (getEventKey in client-go tools/record/events_cache.go), NUL-separated
    // (as a join of the parts: a missing part is empty).
    const key = `${obj.kind ?? ''}\0${ns}\0${obj.metadata.name ?? ''}\0${obj.metadata.uid ?? ''}\0${reason}\0${message}\0${source.component}\0${source.host ?? ''}\0${fieldPath ?? ''}`;
    const now = this.timestamp();
    const c = ctx ?? { component: source.component, node: source.host };
    let count = 1;
    const eventObject = (name: string, n: number, first: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: ns },
      involvedObject: {
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        name: obj.metadata.name,
        namespace: obj.metadata.namespace,
        uid: obj.metadata.uid,
        resourceVersion: obj.metadata.resourceVersion,
        ...(fieldPath ? { fieldPath } : {})
      },
      reason,
      message,
      source: source.host
        ? { component: source.component, host: source.host }
        : { component: source.component },
      firstTimestamp: first,
      lastTimestamp: now,
      count: n,
      type,
      eventTime: null,
      reportingComponent: source.component,
      reportingInstance: source.host ?? ''
    });
    try {
      const existing = this.series.get(key)?.[1];
      const cur = existing
        ? this.api.tryGet<KubeObject>('Event', existing.namespace, existing.name)
        : undefined;
      if (existing && (cur || existing.count !== undefined)) {
        count = ((cur ? (cur.count as number) : existing.count) ?? 1) + 1;
        const first = existing.firstTimestamp ?? (cur?.firstTimestamp as string) ?? now;
        if (cur) this.api.patch('Event', existing.namespace, existing.name, { count, lastTimestamp: now }, c);
        // The Event expired: created again under its name, with the series' count and first time.
        else this.api.create(eventObject(existing.name, count, first), c, { handOver: true });
        this.observe(key, seriesEntry(key, existing.name, ns, count, first));
      } else {
        const name = this.nextName(obj.metadata.name);
        // A new object made for this request alone: stored without another copy.
        this.api.create(eventObject(name, 1, now), c, { handOver: true });
        this.observe(key, seriesEntry(key, name, ns, 1, now));
      }
    } catch {
      return false;
    }
    const entry: EventLogEntry = {
      t: this.engine.now,
      type,
      reason,
      object: this.objectRef(obj),
      message,
      source: source.component,
      count
    };
    // Frozen: entries never change, so snapshots share them instead of copying them.
    this.log.push(Object.freeze(entry));
    for (const l of this.listeners) l(entry);
    return true;
  }

  /**
   * The API server's timestamp (RFC 3339, whole seconds): one string per second, not one per event
   * (every Event keeps two, and the log of a settling cluster records thousands in a second).
   */
  private timestamp(): string {
    const ms = this.api.epochMs + this.engine.now;
    const sec = Math.floor(ms / 1000);
    if (sec !== this.stamp.sec) this.stamp = { sec, text: this.api.timestamp() };
    return this.stamp.text;
  }

  /** `<Kind>/<namespace>/<name>` of an object, one string per object for its events in a row. */
  private objectRef(obj: Pick<KubeObject, 'kind' | 'metadata'>): string {
    const { namespace, name, uid } = obj.metadata;
    const key = uid ?? '';
    const hit = key ? this.refs.get(key) : undefined;
    if (hit !== undefined && hit.kind === obj.kind) return hit.ref;
    const ref = namespace ? `${obj.kind}/${namespace}/${name}` : `${obj.kind}/${name}`;
    if (key) {
      this.refs.delete(key);
      this.refs.set(key, { kind: obj.kind, ref });
      if (this.refs.size > MAX_LRU_CACHE_ENTRIES) this.refs.delete(this.oldestRef.of(this.refs));
    }
    return ref;
  }

  /** The LRU cache's Add: the key becomes the most recent; the least recent goes past the cap. */
  private observe(key: string, entry: SeriesEntry): void {
    this.series.delete(key);
    this.series.set(key, entry);
    if (this.series.size > MAX_LRU_CACHE_ENTRIES) this.series.delete(this.oldestSeries.of(this.series));
  }

  private nextName(objectName: string): string {
    const ms = this.api.epochMs + Math.floor(this.engine.now);
    if (ms === this.clock.ms) this.clock.seq++;
    else this.clock = { ms, seq: 0 };
    return eventName(objectName, ms, this.clock.seq);
  }

  snapshot(): { log: EventLogEntry[]; series: SeriesEntry[]; clock: EventClock } {
    return {
      log: this.log.slice(),
      series: [...this.series.values()],
      clock: { ...this.clock }
    };
  }

  restore(s: { log: EventLogEntry[]; series: SeriesEntry[]; clock?: EventClock }): void {
    this.log = s.log.slice();
    // Entries from a snapshot are frozen and shared; parsed JSON is frozen here.
    this.series = new Map(
      s.series.slice(-MAX_LRU_CACHE_ENTRIES).map((e) => {
        const entry = Object.isFrozen(e) ? e : Object.freeze([e[0], Object.freeze({ ...e[1] })] as const);
        return [entry[0], entry];
      })
    );
    this.clock = s.clock ? { ...s.clock } : { ms: -1, seq: 0 };
  }
}
