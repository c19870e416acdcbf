/**
 * The `scenario` component: applies the scenario's objects once the nodes have registered (a
 * cluster that is already running has its nodes before anyone applies workloads), and the faults
 * at their virtual times through `cluster.applyFault`, like a person pressing the fault panel. A
 * fault or an object that cannot be applied (its module not loaded, its target gone) is recorded
 * instead of stopping the run.
 */
import type { KubeObject } from '../api/types';
import { defineComponent, type Cluster, type Component } from '../cluster';
import type { SimEvent } from '../engine/engine';
import { applyManifests, formatIssue, ManifestError, type ParsedManifest } from '../manifests';
import { installNetworking } from '../network';
import type { ScheduledFault } from './types';

export const SCENARIO_COMPONENT_ID = 'scenario';

/** A scenario object as JSON (snapshots keep component arguments): the object and where it was written. */
export interface ScenarioObject {
  obj: KubeObject;
  doc: number;
  line: number;
  file: string;
}

export interface ScenarioComponentArgs {
  faults: ScheduledFault[];
  /** The objects after the Scenario document, applied as the user `kubectl` at `objectsAt`. */
  objects?: ScenarioObject[];
  /** Virtual ms: right after the kubelets' first registration attempts. */
  objectsAt?: number;
  /** Keep one kube-proxy per Node and the EndpointSlice controller running, as kubeadm's addons do. */
  network?: boolean;
}

export interface FaultFailure {
  t: number;
  action: string;
  target?: string;
  error: string;
}

interface ScenarioState {
  applied: number;
  failures: FaultFailure[];
  networkSyncPending: boolean;
}

export class ScenarioComponent implements Component {
  readonly id = SCENARIO_COMPONENT_ID;
  readonly kind = 'scenario';
  state: ScenarioState = { applied: 0, failures: [], networkSyncPending: false };
  private unwatch?: () => void;

  constructor(
    private cluster: Cluster,
    readonly args: ScenarioComponentArgs
  ) {
    if (args.network) {
      // kube-proxy is a DaemonSet: a Node joining or leaving adds or removes one.
      this.unwatch = cluster.api.watch('Node', (type) => {
        if (type === 'MODIFIED' || this.state.networkSyncPending) return;
        this.state.networkSyncPending = true;
        cluster.engine.schedule(0, this.id, 'sync-network');
      });
    }
  }

  start(): void {
    this.args.faults.forEach((f, index) => this.cluster.engine.scheduleAt(f.at, this.id, 'fault', { index }));
    if (this.args.objects?.length)
      this.cluster.engine.scheduleAt(this.args.objectsAt ?? 0, this.id, 'objects');
    if (this.args.network) {
      this.state.networkSyncPending = true;
      this.cluster.engine.schedule(0, this.id, 'sync-network');
    }
  }

  dispose(): void {
    this.unwatch?.();
  }

  handle(ev: SimEvent): void {
    if (ev.type === 'sync-network') {
      this.state.networkSyncPending = false;
      installNetworking(this.cluster);
      return;
    }
    if (ev.type === 'objects') {
      this.applyObjects();
      return;
    }
    if (ev.type !== 'fault') return;
    const f = this.args.faults[(ev.data as { index: number }).index];
    try {
      this.cluster.applyFault(f.action, { ...(f.params ?? {}), ...(f.target ? { target: f.target } : {}) });
      this.state.applied++;
    } catch (e) {
      this.state.failures.push({
        t: this.cluster.now,
        action: f.action,
        ...(f.target ? { target: f.target } : {}),
        error: (e as Error).message
      });
    }
  }

  private applyObjects(): void {
    const manifests: ParsedManifest[] = (this.args.objects ?? []).map((o) => ({
      ...structuredClone(o),
      locate: () => ({ line: o.line, column: 1 })
    }));
    try {
      applyManifests(this.cluster, manifests, { component: 'kubectl' });
    } catch (e) {
      if (!(e instanceof ManifestError)) throw e;
      this.state.failures.push({
        t: this.cluster.now,
        action: 'apply',
        error: e.issues.map(formatIssue).join('; ')
      });
    }
  }

  getState(): ScenarioState {
    return structuredClone(this.state);
  }

  setState(s: unknown): void {
    this.state = structuredClone(s as ScenarioState);
  }
}

export const scenarioComponent = defineComponent(
  'scenario',
  (cluster, args: ScenarioComponentArgs) => new ScenarioComponent(cluster, args)
);
