/**
 * garbage-collector-controller (pkg/controller/garbagecollector): dependents whose owners are all
 * gone are deleted (background propagation); references to owners that are gone, next to owners
 * that still exist, are dropped. Deleting a Deployment removes its ReplicaSets and then their pods.
 */
import type { KubeObject, OwnerReference } from '../../api/types';
import { isKnownKind, resourceForKind } from '../../api/resources';
import type { Controller, ControllerHost } from '../controller';

/** Kinds that carry ownerReferences in this simulation. */
const DEPENDENT_KINDS = ['ReplicaSet', 'Pod', 'Lease', 'EndpointSlice', 'Endpoints', 'ConfigMap', 'Event'];
const OWNER_KINDS = ['Deployment', 'ReplicaSet', 'DaemonSet', 'Pod', 'Node', 'Service', 'Namespace'];

/**
 * Whether an update left the ownerReferences as they were. A write that does not touch them keeps
 * the stored (frozen, shared) array, so most updates answer by identity; others compare as JSON.
 */
function sameRefs(a: readonly OwnerReference[], b: readonly OwnerReference[] | undefined): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

export class GarbageCollector implements Controller {
  readonly name = 'garbage-collector-controller';

  constructor(private host: ControllerHost) {}

  watch(): (() => void)[] {
    const api = this.host.cluster.api;
    const offs: (() => void)[] = [];
    for (const kind of new Set([...OWNER_KINDS, ...DEPENDENT_KINDS])) {
      if (kind === 'Event') continue;
      offs.push(
        api.watch(kind, (type, obj, old) => {
          if (type === 'DELETED') {
            if (OWNER_KINDS.includes(kind) && obj.metadata.uid)
              this.host.enqueue(`owner:${obj.metadata.uid}`);
            return;
          }
          const refs = obj.metadata.ownerReferences;
          if (!refs?.length) return;
          if (type === 'ADDED' || !sameRefs(refs, old?.metadata.ownerReferences)) {
            this.host.enqueue(`dep:${kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}`);
          }
        })
      );
    }
    return offs;
  }

  sync(key: string): void {
    const api = this.host.cluster.api;
    if (key.startsWith('owner:')) {
      const uid = key.slice(6);
      for (const kind of DEPENDENT_KINDS) {
        if (kind === 'Event') continue;
        for (const o of api.list<KubeObject>(kind)) {
          if (o.metadata.ownerReferences?.some((r) => r.uid === uid)) this.attemptToDelete(o);
        }
      }
      return;
    }
    const [kind, ns, ...rest] = key.slice(4).split('/');
    const o = api.tryGet<KubeObject>(kind, ns || undefined, rest.join('/'));
    if (o) this.attemptToDelete(o);
  }

  private ownerExists(dep: KubeObject, ref: OwnerReference): boolean {
    if (!isKnownKind(ref.kind)) return true;
    const ns = resourceForKind(ref.kind).namespaced ? dep.metadata.namespace : undefined;
    return this.host.cluster.api.tryGet(ref.kind, ns, ref.name)?.metadata.uid === ref.uid;
  }

  private attemptToDelete(dep: KubeObject): void {
    if (dep.metadata.deletionTimestamp) return;
    const refs = dep.metadata.ownerReferences ?? [];
    const solid = refs.filter((r) => this.ownerExists(dep, r));
    if (solid.length === refs.length) return;
    const api = this.host.cluster.api;
    const ctx = this.host.ctx;
    if (!solid.length) {
      api.delete(dep.kind, dep.metadata.namespace, dep.metadata.name, { uid: dep.metadata.uid }, ctx);
      return;
    }
    api.patch(
      dep.kind,
      dep.metadata.namespace,
      dep.metadata.name,
      { metadata: { ownerReferences: solid } },
      ctx
    );
  }
}
