/**
 * The lifecycle machines of a selected node or pod: each machine's states and transitions (read
 * from its XState definition, so the drawing and docs/lifecycles.md show what the engine steps),
 * the current state, the event that moved it last with its virtual time, and the path it took.
 *
 * The records live in the owners' component state (the node lifecycle controller's per-node
 * record, the kubelet's per-container record), so snapshots carry them and a jump back in time
 * restores them with the cluster; nothing here is re-derived from the event log.
 */
import type { AnyStateMachine } from 'xstate';
import type { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import { KCM_KIND, type KubeControllerManager } from '../controllers/kube-controller-manager';
import type { NodeLifecycleController } from '../controllers/nodelifecycle/node_lifecycle_controller';
import { nodeHealthMachine } from '../machines/node-health';
import { containerMachine } from '../machines/container';
import { kubeletMachine } from '../machines/kubelet';
import { etcdMemberMachine } from '../machines/etcd-member';
import { nodeGroupMachine } from '../machines/node-group';
import { CA_ID, type ClusterAutoscaler } from '../controllers/cluster-autoscaler/autoscaler';
import { POOL_LABEL } from '../controllers/cluster-autoscaler/template';
import { initialRecord, valueToString, type MachineRecord, type MachineStep } from '../machines/record';

export type MachineId = 'nodeHealth' | 'container' | 'kubelet' | 'etcdMember' | 'nodeGroup';

export interface MachineStateView {
  /** Dotted path below the root: `waiting.ErrImagePull`. */
  id: string;
  /** Its own key: `ErrImagePull`. */
  key: string;
  /** The compound state it sits in, if any. */
  parent?: string;
  /** Has child states. */
  compound: boolean;
  description?: string;
}

export interface MachineTransitionView {
  /** A state id, or `*` for a transition the machine takes in any state (declared on the root). */
  source: string;
  target: string;
  event: string;
  guard?: string;
  actions: string[];
}

export interface MachineDefinitionView {
  id: MachineId;
  initial: string;
  states: MachineStateView[];
  transitions: MachineTransitionView[];
}

export interface MachineInstanceView {
  machine: MachineId;
  /** What it is the lifecycle of: `Node/worker-1`, `container web`. */
  subject: string;
  /** The component that steps it. */
  owner: 'node-lifecycle-controller' | 'kubelet' | 'etcd' | 'cluster-autoscaler';
  current: string;
  /** Virtual ms of the last move (or of the initial state). */
  at: number;
  event?: string;
  detail?: string;
  /** Oldest first; the last entry is the current state. */
  path: MachineStep[];
  /** Older steps no longer kept. */
  folded?: number;
}

export interface MachinesModel {
  definitions: MachineDefinitionView[];
  instances: MachineInstanceView[];
}

export const MACHINES: Record<MachineId, AnyStateMachine> = {
  nodeHealth: nodeHealthMachine,
  container: containerMachine,
  kubelet: kubeletMachine,
  etcdMember: etcdMemberMachine,
  nodeGroup: nodeGroupMachine
};

interface StateNodeLike {
  key: string;
  path: string[];
  description?: string;
  states: Record<string, StateNodeLike>;
  transitions: Map<string, TransitionLike[]>;
  initial?: { target: StateNodeLike[] };
}

interface TransitionLike {
  eventType: string;
  target?: StateNodeLike[];
  guard?: unknown;
  actions: unknown[];
}

function actionName(a: unknown): string {
  if (typeof a === 'string') return a;
  const t = (a as { type?: string }).type ?? '';
  const params = (a as { params?: Record<string, unknown> }).params;
  return params
    ? `${t}(${Object.entries(params)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', ')})`
    : t;
}

function guardName(g: unknown): string | undefined {
  if (g === undefined) return undefined;
  if (typeof g === 'string') return g;
  return (g as { type?: string }).type;
}

const described = new Map<MachineId, MachineDefinitionView>();

/** The states and transitions of a machine the lab draws, in definition order. */
export function describeMachine(id: MachineId): MachineDefinitionView {
  const hit = described.get(id);
  if (hit) return hit;
  const view = describeDefinition(MACHINES[id]) as MachineDefinitionView;
  described.set(id, view);
  return view;
}

/** The states and transitions of any XState machine, in definition order. */
export function describeDefinition(
  machine: AnyStateMachine
): Omit<MachineDefinitionView, 'id'> & { id: string } {
  const states: MachineStateView[] = [];
  const transitions: MachineTransitionView[] = [];
  const idOf = (n: StateNodeLike) => (n.path.length ? n.path.join('.') : '*');
  const visit = (n: StateNodeLike) => {
    if (n.path.length) {
      const children = Object.keys(n.states);
      states.push({
        id: idOf(n),
        key: n.key,
        ...(n.path.length > 1 ? { parent: n.path.slice(0, -1).join('.') } : {}),
        compound: children.length > 0,
        ...(n.description ? { description: n.description } : {})
      });
    }
    for (const [, list] of n.transitions) {
      for (const t of list) {
        for (const target of t.target ?? []) {
          const guard = guardName(t.guard);
          transitions.push({
            source: idOf(n),
            target: idOf(target),
            event: t.eventType,
            ...(guard ? { guard } : {}),
            actions: t.actions.map(actionName).filter((a) => a && !a.startsWith('xstate.'))
          });
        }
      }
    }
    for (const child of Object.values(n.states)) visit(child);
  };
  visit(machine.root as unknown as StateNodeLike);
  const initial = valueToString(initialRecord(machine, 0).value);
  return { id: machine.id, initial, states, transitions };
}

function instance(
  machine: MachineId,
  subject: string,
  owner: MachineInstanceView['owner'],
  rec: MachineRecord
): MachineInstanceView {
  return {
    machine,
    subject,
    owner,
    current: rec.value,
    at: rec.at,
    ...(rec.event ? { event: rec.event } : {}),
    ...(rec.detail ? { detail: rec.detail } : {}),
    path: rec.path.map((s) => ({ ...s })),
    ...(rec.folded ? { folded: rec.folded } : {})
  };
}

/** The node's health machine as the (leading) node lifecycle controller last stepped it. */
function nodeMachines(cluster: Cluster, name: string): MachineInstanceView[] {
  let best: MachineRecord | undefined;
  for (const kcm of cluster.componentsOfKind<KubeControllerManager>(KCM_KIND)) {
    let nlc: NodeLifecycleController;
    try {
      nlc = kcm.controller<NodeLifecycleController>('node-lifecycle-controller');
    } catch {
      continue;
    }
    const rec = nlc.machines[name];
    if (rec && (!best || rec.at > best.at)) best = rec;
  }
  const out = best ? [instance('nodeHealth', `Node/${name}`, 'node-lifecycle-controller', best)] : [];
  const service = cluster.nodeHost(name)?.kubelet.state.machine;
  if (service) out.push(instance('kubelet', name, 'kubelet', service));
  // A node of an autoscaled pool: its node group's activity.
  const pool = cluster.api.tryGet<KubeObject>('Node', undefined, name)?.metadata.labels?.[POOL_LABEL];
  const group = pool ? autoscaler(cluster)?.groupMachines[pool] : undefined;
  if (pool && group) out.push(instance('nodeGroup', pool, 'cluster-autoscaler', group));
  return out;
}

function autoscaler(cluster: Cluster): ClusterAutoscaler | undefined {
  return cluster.component<ClusterAutoscaler>(CA_ID);
}

function model(instances: MachineInstanceView[]): MachinesModel | null {
  if (!instances.length) return null;
  const ids = [...new Set(instances.map((i) => i.machine))];
  return { definitions: ids.map(describeMachine), instances };
}

/** Every etcd member's machine as the etcd model last stepped it, in membership order. */
export function etcdMachinesModel(cluster: Cluster): MachinesModel | null {
  const recs = cluster.etcd.machines;
  return model(
    cluster.etcd.members
      .filter((m) => recs[m.name])
      .map((m) => instance('etcdMember', m.name, 'etcd', recs[m.name]))
  );
}

/** Every node group's machine as the Cluster Autoscaler's loop last stepped it; null without one. */
export function nodeGroupMachinesModel(cluster: Cluster): MachinesModel | null {
  const ca = autoscaler(cluster);
  if (!ca) return null;
  const recs = ca.groupMachines;
  return model(
    ca.baseGroups
      .filter((g) => recs[g.name])
      .map((g) => instance('nodeGroup', g.name, 'cluster-autoscaler', recs[g.name]))
  );
}

/** The app containers' machines as the pod's kubelet last stepped them. */
function podMachines(cluster: Cluster, ns: string, name: string): MachineInstanceView[] {
  const pod = cluster.api.tryGet<KubeObject>('Pod', ns, name);
  const node = pod?.spec?.nodeName as string | undefined;
  if (!pod || !node) return [];
  const k = cluster.nodeHost(node)?.kubelet;
  const rec = k?.state.pods[`${ns}/${name}`];
  if (!rec || rec.uid !== pod.metadata.uid) return [];
  return rec.containers
    .filter((c) => !c.init && c.machine)
    .map((c) => instance('container', `container ${c.name}`, 'kubelet', c.machine!));
}

export type MachineSelection = { kind: 'node'; name: string } | { kind: 'pod'; key: string };

/** The machines of one selected object; null when it has none (yet). */
export function machinesModel(cluster: Cluster, sel: MachineSelection): MachinesModel | null {
  let instances: MachineInstanceView[];
  if (sel.kind === 'node') instances = nodeMachines(cluster, sel.name);
  else {
    const [ns, name] = sel.key.split('/');
    instances = podMachines(cluster, ns, name);
  }
  return model(instances);
}
