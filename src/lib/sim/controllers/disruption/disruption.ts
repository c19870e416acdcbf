/**
 * disruption-controller (pkg/controller/disruption/disruption.go): keeps every PodDisruptionBudget's
 * status (expectedPods, currentHealthy, desiredHealthy, disruptionsAllowed, disruptedPods,
 * DisruptionAllowed condition) up to date, so the Eviction API can decide from it alone.
 */
import { matchLabelSelector } from '../../api/selectors';
import { clone, type KubeObject } from '../../api/types';
import { setDisruptionAllowed } from '../../api/eviction';
import type { Controller, ControllerHost } from '../controller';
import { controllerRef, isPodReady, podKey, splitKey } from '../util/pods';

/** DeletionTimeout: an eviction not followed by a deletion within 2 minutes is forgotten. */
export const DELETION_TIMEOUT_MS = 2 * 60_000;

type IntOrPercent = number | string | undefined;

/** intstr.GetScaledValueFromIntOrPercent with roundUp=true, as the controller calls it. */
export function scaledValue(v: IntOrPercent, total: number): number {
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(String(v ?? ''));
  if (!m) return 0;
  return Math.ceil((parseInt(m[1], 10) * total) / 100);
}

export interface PdbCounts {
  expectedCount: number;
  desiredHealthy: number;
}

export class DisruptionController implements Controller {
  readonly name = 'disruption-controller';

  constructor(private host: ControllerHost) {}

  watch(): (() => void)[] {
    const api = this.host.cluster.api;
    const enqueueFor = (pod: KubeObject) => {
      for (const b of api.list<KubeObject>('PodDisruptionBudget', { namespace: pod.metadata.namespace })) {
        if (matchLabelSelector(b.spec?.selector, pod.metadata.labels)) this.host.enqueue(podKey(b));
      }
    };
    const enqueueNs = (o: KubeObject) => {
      for (const b of api.list<KubeObject>('PodDisruptionBudget', { namespace: o.metadata.namespace })) {
        this.host.enqueue(podKey(b));
      }
    };
    return [
      api.watch('PodDisruptionBudget', (_t, o) => this.host.enqueue(podKey(o))),
      api.watch('Pod', (_t, o, old) => {
        enqueueFor(o);
        // A status write keeps the stored labels as the same frozen map: no need to compare text.
        const relabelled =
          old &&
          old.metadata.labels !== o.metadata.labels &&
          JSON.stringify(old.metadata.labels) !== JSON.stringify(o.metadata.labels);
        if (relabelled) enqueueFor(old);
      }),
      api.watch('ReplicaSet', (_t, o) => enqueueNs(o)),
      api.watch('Deployment', (_t, o) => enqueueNs(o)),
      api.watch('StatefulSet', (_t, o) => enqueueNs(o))
    ];
  }

  resyncKeys(): string[] {
    return this.host.cluster.api.list<KubeObject>('PodDisruptionBudget').map(podKey);
  }

  handle(type: string, data: unknown): void {
    if (type === 'recheck') this.host.enqueue(data as string);
  }

  sync(key: string): void {
    const api = this.host.cluster.api;
    const [ns, name] = splitKey(key);
    const pdb = api.tryGet<KubeObject>('PodDisruptionBudget', ns, name);
    if (!pdb || pdb.metadata.deletionTimestamp) return;
    const pods = this.podsFor(pdb);
    if (!pods.length) {
      this.host.cluster.recorder.event(
        pdb,
        'Normal',
        'NoPods',
        'No matching pods found',
        {
          component: 'controllermanager'
        },
        this.host.ctx
      );
    }
    let counts: PdbCounts;
    try {
      counts = this.expectedCounts(pdb, pods);
    } catch (e) {
      this.host.cluster.recorder.event(
        pdb,
        'Warning',
        'CalculateExpectedPodCountFailed',
        `Failed to calculate the number of expected pods: ${(e as Error).message}`,
        { component: 'controllermanager' },
        this.host.ctx
      );
      return this.failSafe(pdb);
    }
    const now = this.host.now();
    const { disrupted, recheck } = this.disruptedPods(pdb, pods, now);
    const currentHealthy = countHealthy(pods, disrupted, now, (ts) => api.timeOf(ts));
    this.writeStatus(pdb, counts, currentHealthy, disrupted);
    if (recheck !== undefined) this.host.scheduleAt(recheck, 'recheck', key);
  }

  /** getPodsForPdb: an empty selector selects nothing. */
  private podsFor(pdb: KubeObject): KubeObject[] {
    const sel = pdb.spec?.selector;
    if (!sel || (!Object.keys(sel.matchLabels ?? {}).length && !(sel.matchExpressions ?? []).length))
      return [];
    return this.host.cluster.api
      .list<KubeObject>('Pod', { namespace: pdb.metadata.namespace })
      .filter((p) => matchLabelSelector(sel, p.metadata.labels));
  }

  /** getExpectedPodCount */
  expectedCounts(pdb: KubeObject, pods: KubeObject[]): PdbCounts {
    const { minAvailable, maxUnavailable } = pdb.spec ?? {};
    if (maxUnavailable === undefined && typeof minAvailable === 'number') {
      return { expectedCount: pods.length, desiredHealthy: minAvailable };
    }
    const expectedCount = this.expectedScale(pods);
    if (maxUnavailable !== undefined) {
      const mu = scaledValue(maxUnavailable, expectedCount);
      return { expectedCount, desiredHealthy: Math.max(0, expectedCount - mu) };
    }
    return { expectedCount, desiredHealthy: scaledValue(minAvailable, expectedCount) };
  }

  /** getExpectedScale: the sum of the replicas of every distinct controller of the pods. */
  private expectedScale(pods: KubeObject[]): number {
    const api = this.host.cluster.api;
    const seen = new Map<string, number>();
    for (const p of pods) {
      const ref = controllerRef(p);
      if (!ref) throw new Error(`found no controller ref for pod "${p.metadata.name}"`);
      if (seen.has(ref.uid)) continue;
      const ns = p.metadata.namespace;
      let scale: number | undefined;
      if (ref.kind === 'ReplicaSet') {
        const rs = api.tryGet<KubeObject>('ReplicaSet', ns, ref.name);
        const dref = rs && controllerRef(rs);
        if (dref?.kind === 'Deployment') {
          if (seen.has(dref.uid)) continue;
          const d = api.tryGet<KubeObject>('Deployment', ns, dref.name);
          if (d) {
            seen.set(dref.uid, d.spec?.replicas ?? 1);
            continue;
          }
        }
        scale = rs ? (rs.spec?.replicas ?? 1) : undefined;
      } else if (ref.kind === 'StatefulSet' || ref.kind === 'ReplicationController') {
        scale = api.tryGet<KubeObject>(ref.kind, ns, ref.name)?.spec?.replicas ?? undefined;
      }
      if (scale === undefined) throw new Error(`found no controllers for pod "${p.metadata.name}"`);
      seen.set(ref.uid, scale);
    }
    let total = 0;
    for (const v of seen.values()) total += v;
    return total;
  }

  /** buildDisruptedPodMap: keep entries for pods not yet deleted and younger than DeletionTimeout. */
  private disruptedPods(
    pdb: KubeObject,
    pods: KubeObject[],
    now: number
  ): { disrupted: Record<string, string>; recheck?: number } {
    const api = this.host.cluster.api;
    const old: Record<string, string> = pdb.status?.disruptedPods ?? {};
    const disrupted: Record<string, string> = {};
    let recheck: number | undefined;
    for (const p of pods) {
      if (p.metadata.deletionTimestamp) continue;
      const ts = old[p.metadata.name];
      if (!ts) continue;
      const expires = api.timeOf(ts) + DELETION_TIMEOUT_MS;
      if (expires <= now) continue;
      disrupted[p.metadata.name] = ts;
      recheck = recheck === undefined ? expires : Math.min(recheck, expires);
    }
    return { disrupted, recheck };
  }

  private writeStatus(
    pdb: KubeObject,
    counts: PdbCounts,
    currentHealthy: number,
    disrupted: Record<string, string>
  ): void {
    const disruptionsAllowed = Math.max(0, currentHealthy - counts.desiredHealthy);
    const generation = pdb.metadata.generation ?? 1;
    const status: Record<string, unknown> = {
      ...(Object.keys(disrupted).length ? { disruptedPods: disrupted } : {}),
      disruptionsAllowed,
      currentHealthy,
      desiredHealthy: counts.desiredHealthy,
      expectedPods: counts.expectedCount,
      observedGeneration: generation,
      conditions: setDisruptionAllowed(
        pdb.status?.conditions,
        disruptionsAllowed > 0,
        generation,
        this.host.cluster
      )
    };
    if (JSON.stringify(status) === JSON.stringify(pdb.status ?? {})) return;
    const upd = clone(pdb);
    upd.status = status;
    this.host.cluster.api.update(upd, this.host.ctx, { subresource: 'status' });
  }

  /** failSafe: no disruptions allowed and the SyncFailed reason. */
  private failSafe(pdb: KubeObject): void {
    const generation = pdb.metadata.generation ?? 1;
    const cur = (pdb.status?.conditions ?? []).find((c: { type: string }) => c.type === 'DisruptionAllowed');
    if (cur?.reason === 'SyncFailed' && pdb.status?.observedGeneration === generation) return;
    const upd = clone(pdb);
    const others = (upd.status?.conditions ?? []).filter(
      (c: { type: string }) => c.type !== 'DisruptionAllowed'
    );
    upd.status = {
      ...(upd.status ?? {}),
      disruptionsAllowed: 0,
      observedGeneration: generation,
      conditions: [
        ...others,
        {
          type: 'DisruptionAllowed',
          status: 'False',
          reason: 'SyncFailed',
          message: '',
          observedGeneration: generation,
          lastTransitionTime: this.host.cluster.api.timestamp()
        }
      ]
    };
    this.host.cluster.api.update(upd, this.host.ctx, { subresource: 'status' });
  }
}

/** countHealthyPods: ready, not terminating, not recently evicted. */
export function countHealthy(
  pods: KubeObject[],
  disrupted: Record<string, string>,
  now: number,
  timeOf: (ts: string) => number
): number {
  let n = 0;
  for (const p of pods) {
    if (p.metadata.deletionTimestamp) continue;
    const ts = disrupted[p.metadata.name];
    if (ts && timeOf(ts) + DELETION_TIMEOUT_MS > now) continue;
    if (isPodReady(p)) n++;
  }
  return n;
}
