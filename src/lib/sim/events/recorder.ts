/**
 * The event recorder (client-go record.EventRecorder): components report what happened to an
 * object; the recorder writes core/v1 Event objects through the API, aggregating repeats of the
 * same (object, reason, message, source) into one Event with a growing count, as the real
 * correlator does. Every written occurrence is also appended to the cluster's event log, which the
 * CLI timeline, the UI timeline and lesson checks read.
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

interface SeriesKey {
  name: string;
  namespace: string;
}

export class EventRecorder {
  log: EventLogEntry[] = [];
  private series = new Map<string, SeriesKey>();
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
    const key = [
      obj.kind,
      ns,
      obj.metadata.name,
      obj.metadata.uid ?? '',
      reason,
      message,
      source.component,
      source.host ?? '',
      fieldPath ?? ''
    ].join('\u0000');
    const now = this.api.timestamp();
    const c = ctx ?? { component: source.component, node: source.host };
    let count = 1;
    try {
      const existing = this.series.get(key);
      const cur = existing
        ? this.api.tryGet<KubeObject>('Event', existing.namespace, existing.name)
        : undefined;
      if (cur) {
        count = ((cur.count as number) ?? 1) + 1;
        this.api.patch('Event', existing!.namespace, existing!.name, { count, lastTimestamp: now }, c);
      } else {
        const name = `${obj.metadata.name}.${this.engine.random.hex(16)}`;
        this.api.create(
          {
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
            firstTimestamp: now,
            lastTimestamp: now,
            count: 1,
            type,
            eventTime: null,
            reportingComponent: source.component,
            reportingInstance: source.host ?? ''
          },
          c
        );
        this.series.set(key, { name, namespace: ns });
      }
    } catch {
      return false;
    }
    const entry: EventLogEntry = {
      t: this.engine.now,
      type,
      reason,
      object: obj.metadata.namespace
        ? `${obj.kind}/${obj.metadata.namespace}/${obj.metadata.name}`
        : `${obj.kind}/${obj.metadata.name}`,
      message,
      source: source.component,
      count
    };
    this.log.push(entry);
    for (const l of this.listeners) l(entry);
    return true;
  }

  snapshot(): { log: EventLogEntry[]; series: [string, SeriesKey][] } {
    return { log: this.log.map((e) => ({ ...e })), series: [...this.series.entries()] };
  }

  restore(s: { log: EventLogEntry[]; series: [string, SeriesKey][] }): void {
    this.log = s.log.map((e) => ({ ...e }));
    this.series = new Map(s.series);
  }
}
