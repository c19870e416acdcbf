/**
 * What the control-plane view shows, read from the cluster through the API and the load model:
 * topology and quorum, the elected leaders, the sizing and its actions, measured and modelled
 * request rates, and the latency curves for the chart.
 */
import type { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import {
  apiServerLoad,
  CORE_SIZES,
  DEFAULT_CORES,
  ELECTED,
  MAX_API_SERVERS,
  quorumTable,
  type ControlPlaneLoad
} from '../controlplane';
import { managedInfo, type ManagedInfo } from '../controlplane/managed';
import { controlPlaneHostsTaken, nextControlPlaneHost } from '../controlplane/kubeadm';
import { staticPods } from '../etcd/staticpods';
import { etcdMachinesModel, nodeGroupMachinesModel, type MachinesModel } from './machines';

export interface LeaderInfo {
  lease: string;
  holder: string;
  /** Virtual ms since the last renewal, or undefined without a Lease. */
  renewedAgoMs?: number;
  transitions: number;
  /** Candidates: one per control-plane node when elected, else 1. */
  instances: number;
}

export interface SizingAction {
  action: 'ResizeControlPlane' | 'AddApiServer' | 'RemoveApiServer' | 'JoinControlPlaneNode';
  target?: string;
  /** i18n key and its values for the button. */
  key: string;
  values: Record<string, string | number>;
  /** English accessible name. */
  label: string;
  /** The command that does the same on a real cluster ('' when it is only a note). */
  command: string;
  /** What the command leaves to the operator, as an i18n key: shown as a shell comment. */
  note?: { key: string; values: Record<string, string | number> };
}

export interface CpModel {
  /** The provider runs the control plane: who owns what (absent for a kubeadm cluster). */
  managed?: ManagedInfo;
  topology: 'stacked' | 'external';
  apiServers: { name: string; running: boolean }[];
  etcd: {
    /** `learner`: added by a join, replicating, not yet promoted (no vote, not in quorum). */
    members: { name: string; host: string; running: boolean; leader: boolean; learner: boolean }[];
    running: number;
    quorum: number;
    tolerated: number;
    hasQuorum: boolean;
    /** Members that can still fail before writes stop (0 when quorum is already lost). */
    spare: number;
  };
  quorumRows: { members: number; quorum: number; tolerated: number; current: boolean }[];
  leaders: LeaderInfo[];
  load?: ControlPlaneLoad;
  /** Each etcd member's lifecycle machine (machines/etcd-member.ts). */
  etcdMachines?: MachinesModel;
  /** Each Cluster Autoscaler node group's machine (machines/node-group.ts), with an autoscaler. */
  nodeGroupMachines?: MachinesModel;
  cores: number;
  actions: SizingAction[];
}

export function buildCpModel(cluster: Cluster): CpModel {
  const ext = cluster.extensions['scenario'] as { etcd?: { topology?: 'stacked' | 'external' } } | undefined;
  const etcd = cluster.etcd;
  const running = etcd.runningCount();
  const q = quorumTable(etcd.voters);
  const hasQuorum = etcd.hasQuorum();
  const load = apiServerLoad(cluster)?.load();
  const cores = load?.cores ?? DEFAULT_CORES;
  const elected = !!cluster.component('leader-election');
  const leaders: LeaderInfo[] = ELECTED.map((name) => {
    const l = cluster.api.tryGet<KubeObject>('Lease', 'kube-system', name);
    const renew = l?.spec?.renewTime ? cluster.api.timeOf(l.spec.renewTime) : undefined;
    return {
      lease: name,
      holder: (l?.spec?.holderIdentity as string | undefined) ?? '',
      ...(renew !== undefined ? { renewedAgoMs: Math.max(0, cluster.now - renew) } : {}),
      transitions: (l?.spec?.leaseTransitions as number | undefined) ?? 0,
      instances: elected ? cluster.apiServers.length : 1
    };
  });
  const sizes = [...new Set([1, 3, 5, etcd.voters])].sort((a, b) => a - b);
  const managed = cluster.config.managed;
  return {
    ...(managed ? { managed: managedInfo(managed, cluster.config.kubernetesVersion) } : {}),
    topology: ext?.etcd?.topology ?? 'stacked',
    apiServers: cluster.apiServers.map((a) => ({ name: a.name, running: a.running })),
    etcd: {
      members: etcd.members.map((m) => ({
        name: m.name,
        host: m.host,
        running: m.running,
        leader: etcd.leader === m.name,
        learner: !!m.learner
      })),
      running,
      quorum: q.quorum,
      tolerated: q.tolerated,
      hasQuorum,
      spare: hasQuorum ? running - q.quorum : 0
    },
    quorumRows: sizes.map((n) => ({ ...quorumTable(n), current: n === etcd.voters })),
    leaders,
    ...(load ? { load } : {}),
    ...optional('etcdMachines', etcdMachinesModel(cluster)),
    ...optional('nodeGroupMachines', nodeGroupMachinesModel(cluster)),
    cores,
    // A managed control plane is sized by its provider: nothing to resize or join.
    actions: load && !managed ? sizingActions(cluster, cores) : []
  };
}

function optional<K extends string>(key: K, m: MachinesModel | null): Partial<Record<K, MachinesModel>> {
  return m ? ({ [key]: m } as Record<K, MachinesModel>) : {};
}

const JOIN =
  'kubeadm join 10.0.0.10:6443 --control-plane --token <token> --discovery-token-ca-cert-hash sha256:<hash> --certificate-key <key>';

function sizingActions(cluster: Cluster, cores: number): SizingAction[] {
  const out: SizingAction[] = [];
  const i = (CORE_SIZES as readonly number[]).indexOf(cores);
  const resize = (to: number, key: string, word: string) =>
    out.push({
      action: 'ResizeControlPlane',
      target: String(to),
      key,
      values: { cores: to },
      label: `${word} control plane to ${to} cores`,
      command: '',
      note: { key: 'ops.cp.notes.resize', values: { cores: to } }
    });
  if (i > 0) resize(CORE_SIZES[i - 1], 'ops.cp.actions.sizeDown', 'Size down');
  if (i >= 0 && i < CORE_SIZES.length - 1) resize(CORE_SIZES[i + 1], 'ops.cp.actions.sizeUp', 'Size up');
  const sp = staticPods(cluster);
  if (cluster.apiServers.length < MAX_API_SERVERS) {
    // On kubeadm's stacked hosts a joined control-plane node brings its own etcd member too.
    if (sp) {
      const host = nextControlPlaneHost(controlPlaneHostsTaken(cluster));
      out.push({
        action: 'JoinControlPlaneNode',
        key: 'ops.cp.actions.join',
        values: { host },
        label: `Join control-plane node ${host}`,
        command: JOIN,
        note: { key: 'ops.cp.notes.join', values: { host } }
      });
    } else
      out.push({
        action: 'AddApiServer',
        key: 'ops.cp.actions.add',
        values: {},
        label: 'Add an API server',
        command: JOIN
      });
  }
  if (cluster.apiServers.length > 1) {
    const last = cluster.apiServers[cluster.apiServers.length - 1].name;
    const host = last.replace(/^kube-apiserver-?/, '') || 'control-plane-1';
    out.push({
      action: 'RemoveApiServer',
      target: last,
      key: 'ops.cp.actions.remove',
      values: { name: last },
      label: `Remove API server ${last}`,
      command: 'sudo kubeadm reset',
      note: { key: 'ops.cp.notes.reset', values: { host } }
    });
  }
  return out;
}
