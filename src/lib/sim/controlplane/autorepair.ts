/**
 * Managed node auto-repair: the provider's own health check of the worker machines
 * (`NODE_REPAIR` in managed.ts has the documents). It reads each Node's Ready condition through
 * the API every minute; a node that is not Ready on consecutive checks for the provider's time is
 * repaired on the machine itself, outside Kubernetes, as the provider's VM API does:
 *
 * - GKE (cloud.google.com/kubernetes-engine/docs/how-to/node-auto-repair): NotReady or silent for
 *   about 10 minutes → the node is re-created: a new VM with a fresh boot disk, the same name.
 * - AKS (learn.microsoft.com/azure/aks/node-auto-repair): unhealthy for at least five minutes →
 *   reboot; still unhealthy → reimage; still unhealthy → redeploy (a new host). Not triggered on a
 *   node tainted `node.cloudprovider.kubernetes.io/shutdown` or `ToBeDeletedByClusterAutoscaler`.
 * - EKS: off unless enabled on the node group; Nodeplane does not model enabling it.
 *
 * The repair shows in the cluster as a real one does: the Node goes away from Ready while the
 * machine is down, and when it is back the kubelet records `Starting` and, because the boot ID
 * changed, `Rebooted` (node/nodestatus.ts). What a reboot fixes is what dies with the machine's
 * processes (a stopped kubelet or runtime, a process holding memory); a reimage also clears the
 * disk and rewrites /etc/cni/net.d; a new VM or host is also a new network path. Modelled: the
 * check interval (1 minute) and how long the machine takes to come back (1 minute).
 *
 * Component kind and id `node-auto-repair`; `nodeAutoRepairStep` adds it on GKE and AKS.
 */
import type { KubeObject, RequestContext } from '../api/types';
import { ApiError, ConnectionError } from '../api/errors';
import { defineComponent, type Cluster, type Component } from '../cluster';
import type { SimEvent } from '../engine/engine';
import type { Kubelet } from '../node/kubelet';
import { powerOff, powerOn } from '../node/nodeshutdown';
import type { BootstrapStep } from '../scenario/hooks';
import { NODE_REPAIR, type ManagedProvider } from './managed';

export const AUTO_REPAIR_ID = 'node-auto-repair';
/** How often the provider checks the nodes (modelled: "periodic checks", "consecutive checks"). */
export const REPAIR_CHECK_INTERVAL_MS = 60_000;
/** How long a repaired machine takes to boot and start the kubelet (modelled). */
export const REPAIR_BOOT_MS = 60_000;
/** AKS: taints under which no repair starts (node-auto-repair, "Auto-repair is not triggered"). */
const AKS_SKIP_TAINTS = ['node.cloudprovider.kubernetes.io/shutdown', 'ToBeDeletedByClusterAutoscaler'];
const CTX: RequestContext = { component: 'node-auto-repair' };

export type RepairAction = 'reboot' | 'reimage' | 'redeploy' | 'recreate';

export interface AutoRepairArgs {
  provider: ManagedProvider;
}

export interface RepairRecord {
  t: number;
  node: string;
  action: RepairAction;
}

interface State {
  /** First failed check per node. */
  unhealthySince: Record<string, number>;
  /** Repair steps already taken for a node's current episode (AKS escalates). */
  steps: Record<string, number>;
  /** Machines down for a repair, until they boot. */
  booting: Record<string, RepairAction>;
  /** Every repair started, oldest first. */
  repairs: RepairRecord[];
}

/** The steps a provider takes in order, one per threshold the node stays unhealthy. */
function sequence(p: ManagedProvider): RepairAction[] {
  return p === 'aks' ? ['reboot', 'reimage', 'redeploy'] : ['recreate'];
}

export class NodeAutoRepair implements Component {
  readonly id = AUTO_REPAIR_ID;
  readonly kind = AUTO_REPAIR_ID;
  private state: State = { unhealthySince: {}, steps: {}, booting: {}, repairs: [] };

  constructor(
    private cluster: Cluster,
    readonly args: AutoRepairArgs
  ) {}

  start(): void {
    this.cluster.engine.schedule(REPAIR_CHECK_INTERVAL_MS, this.id, 'check');
  }

  get repairs(): readonly RepairRecord[] {
    return this.state.repairs;
  }

  handle(ev: SimEvent): void {
    if (ev.type === 'check') {
      this.check();
      this.cluster.engine.schedule(REPAIR_CHECK_INTERVAL_MS, this.id, 'check');
    } else if (ev.type === 'boot') {
      const { node } = ev.data as { node: string };
      this.boot(node);
    }
  }

  private check(): void {
    const p = this.args.provider;
    const after = (NODE_REPAIR[p].afterMinutes ?? 10) * 60_000;
    let nodes: KubeObject[];
    try {
      this.cluster.api.countRead('list', 'Node', CTX);
      nodes = this.cluster.api.list<KubeObject>('Node');
    } catch (e) {
      if (e instanceof ApiError || e instanceof ConnectionError) return;
      throw e;
    }
    const now = this.cluster.now;
    const seen = new Set<string>();
    for (const n of nodes) {
      const name = n.metadata.name;
      seen.add(name);
      if (this.state.booting[name]) continue;
      const ready = ((n.status?.conditions ?? []) as { type: string; status: string }[]).find(
        (c) => c.type === 'Ready'
      );
      if (ready?.status === 'True') {
        delete this.state.unhealthySince[name];
        delete this.state.steps[name];
        continue;
      }
      const skip =
        p === 'aks' &&
        ((n.spec?.taints ?? []) as { key: string }[]).some((t) => AKS_SKIP_TAINTS.includes(t.key));
      if (skip) continue;
      const since = (this.state.unhealthySince[name] ??= now);
      if (now - since < after) continue;
      const step = this.state.steps[name] ?? 0;
      const action = sequence(p)[step];
      if (!action) continue; // every step tried: the provider's engineers take over
      this.repair(name, action);
      this.state.steps[name] = step + 1;
      this.state.unhealthySince[name] = now;
    }
    for (const name of Object.keys(this.state.unhealthySince)) {
      if (!seen.has(name)) {
        delete this.state.unhealthySince[name];
        delete this.state.steps[name];
      }
    }
  }

  private kubelet(node: string): Kubelet | undefined {
    return this.cluster.nodeHost(node)?.kubelet;
  }

  /** The machine goes down now and comes back after REPAIR_BOOT_MS. */
  private repair(node: string, action: RepairAction): void {
    const k = this.kubelet(node);
    if (!k) return;
    this.state.repairs.push({ t: this.cluster.now, node, action });
    powerOff(k);
    this.state.booting[node] = action;
    this.cluster.engine.schedule(REPAIR_BOOT_MS, this.id, 'boot', { node });
  }

  private boot(node: string): void {
    const action = this.state.booting[node];
    delete this.state.booting[node];
    const k = this.kubelet(node);
    if (!k || !action) return;
    // A reboot ends every process: a memory hog too. A new disk image also drops the files.
    k.host.state.system.fillMemory = 0;
    if (action !== 'reboot') {
      k.host.state.system.fillDisk = 0;
      const cni = this.cluster.config.network.cni;
      if (cni !== 'none') k.host.cni.install(cni);
    }
    if (action === 'redeploy' || action === 'recreate') this.cluster.partitioned.delete(node);
    powerOn(k);
  }

  getState(): unknown {
    return structuredClone(this.state);
  }

  setState(s: unknown): void {
    this.state = structuredClone(s as State);
  }
}

export const nodeAutoRepairComponent = defineComponent(
  AUTO_REPAIR_ID,
  (cluster, args: AutoRepairArgs) => new NodeAutoRepair(cluster, args)
);

/** Bootstrap step: the provider's node auto-repair where it is on by default (GKE, AKS). */
export const nodeAutoRepairStep: BootstrapStep = (cluster) => {
  const p = cluster.config.managed;
  if (!p || !NODE_REPAIR[p].byDefault) return;
  cluster.addComponent(AUTO_REPAIR_ID, { provider: p } satisfies AutoRepairArgs);
};
