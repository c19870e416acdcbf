/**
 * kube-apiserver's request log: every request a component makes and every watch event the API
 * server sends to a watcher, as the audit log and `apiserver_request_total` see them. The cluster
 * diagram draws exactly this (what is drawn is what happened).
 *
 * Memory stays bounded: the last {@link RECENT} records in a ring, and per edge (a component
 * instance, e.g. `kubelet` on `worker-1`) one counter per verb class for each of the last
 * {@link RATE_SECONDS} virtual seconds. It is observation only: nothing in the simulation reads
 * it, so it is not part of snapshots, and a restored cluster starts with an empty log.
 */
import type { RequestContext } from './types';

/** How the diagram colours a request (upstream verbs folded the way operators read them). */
export type VerbClass = 'read' | 'watch' | 'create' | 'update' | 'delete' | 'bind';

export const VERB_CLASSES: readonly VerbClass[] = ['read', 'watch', 'create', 'update', 'delete', 'bind'];

export interface RequestRecord {
  seq: number;
  /** Virtual time, ms. */
  t: number;
  /** `in`: a request to kube-apiserver; `out`: a watch event it sent to a watcher. */
  dir: 'in' | 'out';
  component: string;
  node?: string;
  /** The request's verb as the audit log names it (get, list, watch, create, update, patch, delete). */
  verb: string;
  /** The resource with its subresource, e.g. `leases`, `pods/status`, `pods/binding`. */
  resource: string;
  verbClass: VerbClass;
  /** Writes go on to etcd. */
  write: boolean;
  name?: string;
  namespace?: string;
  /** For the create of an Event: what it reports (it is also kept in the involved object's log). */
  event?: { reason: string; message: string; type: string };
}

export interface EdgeRates {
  component: string;
  node?: string;
  /** Requests (in) and watch events (out) in the last RATE_SECONDS virtual seconds, per class. */
  in: Record<VerbClass, number>;
  out: Record<VerbClass, number>;
  /** Requests since the log started. */
  total: number;
}

export const RECENT = 400;
export const RATE_SECONDS = 10;
/** Requests kept per followed object ("follow this pod / node"), and objects followed at most (oldest dropped). */
export const PER_OBJECT = 80;
export const MAX_OBJECTS = 20_000;

/** `pods/default/web-1`: the key of an object's own log (subresources fold into their object). */
export function objectLogKey(resource: string, namespace: string | undefined, name: string): string {
  const slash = resource.indexOf('/');
  return `${slash < 0 ? resource : resource.slice(0, slash)}/${namespace ?? ''}/${name}`;
}

/** Namespace of the kubelets' Leases (their renewals are part of their node's story). */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/**
 * Objects whose own log is kept ("follow this pod", "follow this node"); the rest are only
 * counted and drawn. A Node's watch events are kept for the control plane's watchers only (every
 * node's kube-proxy watches Nodes too); a node Lease keeps its writes.
 */
function followed(rec: RequestRecord): boolean {
  const r = rec.resource;
  if (r === 'pods' || r.startsWith('pods/')) return true;
  if (r === 'nodes' || r.startsWith('nodes/')) return rec.dir === 'in' || !rec.node;
  return r === 'leases' && rec.dir === 'in' && rec.namespace === NODE_LEASE_NAMESPACE;
}

export function verbClass(verb: string, resource: string): VerbClass {
  if (resource === 'pods/binding') return 'bind';
  switch (verb) {
    case 'get':
    case 'list':
      return 'read';
    case 'watch':
      return 'watch';
    case 'create':
      return 'create';
    case 'delete':
    case 'deletecollection':
      return 'delete';
    default:
      return 'update';
  }
}

interface Edge {
  component: string;
  node?: string;
  total: number;
  /** [second][class] for `in`, then for `out`, over a ring of RATE_SECONDS seconds. */
  buckets: Int32Array;
  /** The virtual second each bucket slot holds. */
  second: Int32Array;
}

const K = VERB_CLASSES.length;

function zero(): Record<VerbClass, number> {
  return { read: 0, watch: 0, create: 0, update: 0, delete: 0, bind: 0 };
}

export class RequestLog {
  private ring: (RequestRecord | undefined)[] = new Array(RECENT);
  private seq = 0;
  private edges = new Map<string, Edge>();
  private objects = new Map<string, { records: RequestRecord[]; folded: number }>();

  /** Sequence number of the newest record (0 when empty). */
  get last(): number {
    return this.seq;
  }

  record(
    t: number,
    dir: 'in' | 'out',
    ctx: RequestContext,
    verb: string,
    resource: string,
    obj?: { name?: string; namespace?: string }
  ): RequestRecord {
    const cls = verbClass(verb, resource);
    const rec: RequestRecord = {
      seq: ++this.seq,
      t,
      dir,
      component: ctx.component,
      ...(ctx.node ? { node: ctx.node } : {}),
      verb,
      resource,
      verbClass: cls,
      write: dir === 'in' && cls !== 'read' && cls !== 'watch',
      ...(obj?.name ? { name: obj.name } : {}),
      ...(obj?.namespace ? { namespace: obj.namespace } : {})
    };
    this.ring[rec.seq % RECENT] = rec;
    const key = ctx.node ? `${ctx.component}@${ctx.node}` : ctx.component;
    let e = this.edges.get(key);
    if (!e) {
      e = {
        component: ctx.component,
        ...(ctx.node ? { node: ctx.node } : {}),
        total: 0,
        buckets: new Int32Array(RATE_SECONDS * 2 * K),
        second: new Int32Array(RATE_SECONDS).fill(-1)
      };
      this.edges.set(key, e);
    }
    if (dir === 'in') e.total++;
    const sec = Math.floor(t / 1000);
    const slot = sec % RATE_SECONDS;
    if (e.second[slot] !== sec) {
      e.second[slot] = sec;
      e.buckets.fill(0, slot * 2 * K, (slot + 1) * 2 * K);
    }
    e.buckets[slot * 2 * K + (dir === 'in' ? 0 : K) + VERB_CLASSES.indexOf(cls)]++;
    if (rec.name && followed(rec)) this.index(rec);
    return rec;
  }

  /** Name a create request once the API server has generated the name (generateName). */
  named(rec: RequestRecord, name: string): void {
    if (rec.name) return;
    rec.name = name;
    if (followed(rec)) this.index(rec);
  }

  /** Keep an Event's create in the log of the object it is about, too. */
  about(rec: RequestRecord, key: string, event: { reason: string; message: string; type: string }): void {
    rec.event = event;
    this.index(rec, key);
  }

  /** The requests and watch events that touched one object, oldest first, and how many were folded away. */
  objectLog(key: string): { records: RequestRecord[]; folded: number } {
    const o = this.objects.get(key);
    return o ? { records: o.records.slice(), folded: o.folded } : { records: [], folded: 0 };
  }

  private index(rec: RequestRecord, key = objectLogKey(rec.resource, rec.namespace, rec.name!)): void {
    let o = this.objects.get(key);
    if (!o) {
      if (this.objects.size >= MAX_OBJECTS) this.objects.delete(this.objects.keys().next().value!);
      this.objects.set(key, (o = { records: [], folded: 0 }));
    }
    o.records.push(rec);
    if (o.records.length > PER_OBJECT) {
      o.records.splice(0, o.records.length - PER_OBJECT);
      o.folded++;
    }
  }

  /** Records newer than `afterSeq`, oldest first (at most the ring's size). */
  since(afterSeq: number, limit = RECENT): RequestRecord[] {
    const from = Math.max(afterSeq + 1, this.seq - RECENT + 1, this.seq - limit + 1, 1);
    const out: RequestRecord[] = [];
    for (let s = from; s <= this.seq; s++) {
      const r = this.ring[s % RECENT];
      if (r && r.seq === s) out.push(r);
    }
    return out;
  }

  /** Per-edge counts over the last RATE_SECONDS virtual seconds (whole seconds up to the one `now` is in). */
  rates(now: number): EdgeRates[] {
    const nowSec = Math.ceil(now / 1000) - 1;
    const out: EdgeRates[] = [];
    for (const e of this.edges.values()) {
      const r: EdgeRates = {
        component: e.component,
        ...(e.node ? { node: e.node } : {}),
        in: zero(),
        out: zero(),
        total: e.total
      };
      for (let slot = 0; slot < RATE_SECONDS; slot++) {
        const sec = e.second[slot];
        if (sec < 0 || sec <= nowSec - RATE_SECONDS || sec > nowSec) continue;
        for (let k = 0; k < K; k++) {
          r.in[VERB_CLASSES[k]] += e.buckets[slot * 2 * K + k];
          r.out[VERB_CLASSES[k]] += e.buckets[slot * 2 * K + K + k];
        }
      }
      out.push(r);
    }
    return out.sort((a, b) => {
      const ka = `${a.component}@${a.node ?? ''}`;
      const kb = `${b.component}@${b.node ?? ''}`;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
  }

  clear(): void {
    this.ring = new Array(RECENT);
    this.seq = 0;
    this.edges.clear();
    this.objects.clear();
  }
}
