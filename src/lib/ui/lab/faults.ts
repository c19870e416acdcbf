/**
 * The faults a learner can inject from the lab, each with the command that does the same on a
 * real kubeadm cluster (shown next to the button, so the panel teaches the console too).
 */
import type { NodeView, ControlPlaneView } from '$lib/sim/observe';
import { t } from '$lib/i18n/index.svelte';

export interface FaultButton {
  action: string;
  target: string;
  /**
   * The accessible name as an i18n message, e.g. `lab.faultName.onNode` with `{ node: 'worker-1' }`
   * ("Stop kubelet on worker-1"); `{{action}}` in it is the visible label (`key`).
   */
  name: { key: string; args: Record<string, string> };
  /** i18n key of the visible label. */
  key: string;
  /** The command that does the same on a real cluster, without its note ('' when there is none: only the note). */
  command: string;
  /** A note shown after the command as a shell comment (`# …`), in the learner's language. */
  note?: { key: string; args: Record<string, string> };
  danger?: boolean;
  /** SetProxyMode: the kube-proxy mode to switch to. */
  mode?: string;
}

const PROXY_MODES = ['iptables', 'ipvs', 'nftables'] as const;
const PROXY_KEY: Record<string, string> = {
  iptables: 'lab.fault.proxyIptables',
  ipvs: 'lab.fault.proxyIpvs',
  nftables: 'lab.fault.proxyNftables'
};
const CONFIG_EDIT = 'kubectl edit configmap kube-proxy -n kube-system';
/** Where kube-proxy is a systemd unit: the node's own file, read when the unit restarts. */
const fileEdit = (mode: string) => `sudo sed -i 's/mode: .*/mode: ${mode}/' /var/lib/kube-proxy/config.conf`;

/**
 * kube-proxy on one node restarted in another mode: its DaemonSet pod replaced, the new process
 * reads config.conf.
 */
function proxyModeFaults(node: NodeView): FaultButton[] {
  const kp = node.kubeProxy;
  if (!kp) return [];
  return PROXY_MODES.filter((m) => m !== kp.mode).map((m): FaultButton => ({
    action: 'SetProxyMode',
    target: node.name,
    mode: m,
    key: PROXY_KEY[m],
    name: { key: 'lab.faultName.proxyNode', args: { mode: m, node: node.name } },
    ...(kp.unit
      ? {
          // One argument for ssh: the node's shell splits it again and keeps the sed script whole.
          command: `ssh ${node.name} "${fileEdit(m)}"`,
          note: { key: 'lab.faultNote.proxyModeUnit', args: { node: node.name } }
        }
      : {
          command: CONFIG_EDIT,
          note: {
            key: 'lab.faultNote.proxyMode',
            args: { mode: m === 'iptables' ? '""' : m, node: node.name }
          }
        })
  }));
}

/**
 * Faults for the whole cluster: every node's kube-proxy in another mode, as editing `mode:` in
 * the kube-proxy ConfigMap and a rollout restart of the kube-proxy DaemonSet does.
 */
export function clusterFaults(nodes: readonly NodeView[]): FaultButton[] {
  const withProxy = nodes.filter((n) => n.kubeProxy);
  if (!withProxy.length) return [];
  const modes = new Set(withProxy.map((n) => n.kubeProxy!.mode));
  const only = modes.size === 1 ? [...modes][0] : undefined;
  return PROXY_MODES.filter((m) => m !== only).map((m): FaultButton => ({
    action: 'SetProxyMode',
    target: 'all',
    mode: m,
    key: PROXY_KEY[m],
    name: { key: 'lab.faultName.proxyAll', args: { mode: m } },
    ...(withProxy.every((n) => n.kubeProxy!.unit)
      ? { command: fileEdit(m), note: { key: 'lab.faultNote.proxyModeAllUnits', args: {} } }
      : {
          command: CONFIG_EDIT,
          note: { key: 'lab.faultNote.proxyModeAll', args: { mode: m === 'iptables' ? '""' : m } }
        })
  }));
}

const MANIFESTS = '/etc/kubernetes/manifests';

function runtimeUnit(runtime: string): string {
  return runtime === 'cri-o' ? 'crio' : 'containerd';
}

/** The toggles for one worker node, chosen from its current state. */
export function nodeFaults(node: NodeView, cni: string): FaultButton[] {
  const n = node.name;
  const unit = runtimeUnit(node.runtime.name);
  const out: FaultButton[] = [];
  const add = (action: string, key: string, command: string, danger = false) =>
    out.push({
      action,
      target: n,
      key,
      name: { key: 'lab.faultName.onNode', args: { node: n } },
      command,
      danger
    });
  if (node.kubeletRunning)
    add('StopKubelet', 'lab.fault.stopKubelet', `ssh ${n} sudo systemctl stop kubelet`);
  else add('StartKubelet', 'lab.fault.startKubelet', `ssh ${n} sudo systemctl start kubelet`);
  if (node.runtime.running)
    add('StopRuntime', 'lab.fault.stopRuntime', `ssh ${n} sudo systemctl stop ${unit}`);
  else add('StartRuntime', 'lab.fault.startRuntime', `ssh ${n} sudo systemctl start ${unit}`);
  if (!node.partitioned) add('PartitionNode', 'lab.fault.partition', `ssh ${n} sudo ip link set eth0 down`);
  else add('HealNode', 'lab.fault.heal', `ssh ${n} sudo ip link set eth0 up`);
  if (node.cniInstalled)
    add('RemoveCNI', 'lab.fault.removeCni', `ssh ${n} sudo mv /etc/cni/net.d/10-${cni}.conflist /root/`);
  else add('InstallCNI', 'lab.fault.installCni', `ssh ${n} sudo mv /root/10-${cni}.conflist /etc/cni/net.d/`);
  add('FillMemory', 'lab.fault.fillMemory', `ssh ${n} stress-ng --vm 1 --vm-bytes 95% --vm-keep`);
  add('FillDisk', 'lab.fault.fillDisk', `ssh ${n} sudo fallocate -l 100G /var/lib/fill.img`);
  out.push(...proxyModeFaults(node));
  add('DeleteNode', 'lab.fault.deleteNode', `kubectl delete node ${n}`, true);
  return out;
}

/** kubeadm runs the control plane as static pods: moving a manifest out stops the component. */
export function controlPlaneFaults(cp: ControlPlaneView): FaultButton[] {
  // A managed control plane is the provider's: nothing to stop, so nothing is offered.
  if (cp.managed) return [];
  const out: FaultButton[] = [];
  for (const m of cp.etcd.members) {
    // A joining learner belongs to kubeadm until it is promoted (a couple of seconds).
    if (m.learner) continue;
    // One button for this member: its fault, label key, note key, and the command it stands for.
    const button = (
      action: string,
      key: string,
      note: string,
      command = '',
      danger = false
    ): FaultButton => ({
      action,
      target: m.name,
      key: `lab.fault.${key}`,
      name: { key: 'lab.faultName.named', args: { name: m.name } },
      command,
      note: { key: `lab.faultNote.${note}`, args: { member: m.name } },
      ...(danger ? { danger: true } : {})
    });
    // A failed disk: the member cannot start until a new disk is in; on the new, empty disk it
    // cannot start either, until it is removed from the membership and added again.
    if (m.diskFailed) {
      out.push(button('ReplaceEtcdDisk', 'replaceEtcdDisk', 'replaceDisk'));
      continue;
    }
    if (m.dataLost) {
      out.push(button('RejoinEtcdMember', 'rejoinEtcd', 'rejoinEtcd'));
      continue;
    }
    out.push(
      m.running
        ? button('StopEtcdMember', 'stopEtcd', 'onHost', `sudo mv ${MANIFESTS}/etcd.yaml /root/`)
        : button('StartEtcdMember', 'startEtcd', 'onHost', `sudo mv /root/etcd.yaml ${MANIFESTS}/`)
    );
    // No command fails a disk: the note says what the lab does instead.
    out.push(
      m.diskSlow
        ? button('FixEtcdDisk', 'fixEtcdDisk', 'fixDisk')
        : button('SlowEtcdDisk', 'slowEtcdDisk', 'slowDisk', '', true),
      button('FailEtcdDisk', 'failEtcdDisk', 'failDisk', '', true)
    );
  }
  const component = (
    present: boolean,
    running: boolean,
    stop: string,
    start: string,
    name: string,
    key: string
  ) => {
    if (!present) return;
    out.push(
      running
        ? {
            action: stop,
            target: name,
            key: `lab.fault.stop${key}`,
            name: { key: 'lab.faultName.plain', args: {} },
            command: `sudo mv ${MANIFESTS}/${name}.yaml /root/`
          }
        : {
            action: start,
            target: name,
            key: `lab.fault.start${key}`,
            name: { key: 'lab.faultName.plain', args: {} },
            command: `sudo mv /root/${name}.yaml ${MANIFESTS}/`
          }
    );
  };
  component(
    cp.scheduler.present,
    cp.scheduler.running,
    'StopScheduler',
    'StartScheduler',
    'kube-scheduler',
    'Scheduler'
  );
  component(
    cp.controllerManager.present,
    cp.controllerManager.running,
    'StopControllerManager',
    'StartControllerManager',
    'kube-controller-manager',
    'ControllerManager'
  );
  return out;
}

/** A fault's "Same as:" line: the command, then its note as a shell comment in the learner's language. */
export function sameAs(f: Pick<FaultButton, 'command' | 'note'>): string {
  if (!f.note) return f.command;
  const note = `# ${t(f.note.key, f.note.args)}`;
  return f.command ? `${f.command}  ${note}` : note;
}
