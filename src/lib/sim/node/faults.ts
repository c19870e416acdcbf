/**
 * Node faults: the kubelet and runtime services, network partitions, memory and disk hogs, the CNI
 * config, and deleting the Node. Every handler is safe to repeat (stopping a stopped kubelet is a
 * no-op), because the console's `systemctl` applies them too.
 */
import { FaultError, defineFault, type Cluster, type FaultTarget } from '../cluster';
import { tryParseQuantity } from '../api/quantity';
import { thresholdQuantity, evictionHard } from './allocatable';
import { observe } from './eviction';
import type { Kubelet } from './kubelet';
import { baselineSystemUsage } from './host';
import { powerOn, shutdownNode } from './nodeshutdown';
import { minorVersion } from '../config';

export function kubeletFor(cluster: Cluster, params: FaultTarget): Kubelet {
  const name = params.target;
  if (!name) throw new FaultError('this fault needs a target node, for example { target: "worker-1" }');
  const k = cluster.nodeHost(name)?.kubelet;
  if (!k) {
    const nodes = cluster
      .nodeHosts()
      .map((h) => h.name)
      .sort();
    throw new FaultError(
      `unknown node "${name}": no kubelet runs there (nodes: ${nodes.join(', ') || 'none'})`
    );
  }
  return k;
}

/** A quantity parameter in bytes, or undefined when absent. */
function amountParam(params: FaultTarget): number | undefined {
  if (params.amount === undefined) return undefined;
  const m = tryParseQuantity(params.amount);
  if (m === undefined || m < 0)
    throw new FaultError(`invalid amount "${String(params.amount)}": use a quantity such as 2Gi`);
  return Math.round(m / 1000);
}

export const faultStopKubelet = defineFault(
  'StopKubelet',
  'Stop the kubelet service on a node (containers keep running)',
  (c, p) => {
    const k = kubeletFor(c, p);
    if (!k.running) return;
    k.journal('I', 'server.go:1263', '"Shutting down kubelet"');
    k.stopService();
  }
);

export const faultShutdownNode = defineFault(
  'ShutdownNode',
  'Shut the machine down (systemctl poweroff): with shutdownGracePeriod the kubelet first terminates the pods',
  (c, p) => shutdownNode(kubeletFor(c, p))
);

export const faultPowerOnNode = defineFault(
  'PowerOnNode',
  'Power a shut-down machine on again: it boots, and the runtime and kubelet start',
  (c, p) => powerOn(kubeletFor(c, p))
);

export const faultUpgradeKubelet = defineFault(
  'UpgradeKubelet',
  'Install another kubelet version on a node (params: version, e.g. v1.34.2) and restart the kubelet',
  (c, p) => {
    const k = kubeletFor(c, p);
    const version = String(p.version ?? '');
    if (!/^v1\.\d+\.\d+$/.test(version))
      throw new FaultError(`invalid version "${version}": use a kubelet version such as v1.35.0`);
    const skew = minorVersion(c.config.kubernetesVersion) - minorVersion(version);
    if (skew < 0)
      throw new FaultError(
        `kubelet ${version} is newer than kube-apiserver ${c.config.kubernetesVersion}: the kubelet must not be newer than the API server`
      );
    const restart = k.running;
    k.stopService();
    k.args = { ...k.args, kubeletVersion: version };
    if (restart) k.startService();
  }
);

export const faultStartKubelet = defineFault('StartKubelet', 'Start the kubelet service on a node', (c, p) =>
  kubeletFor(c, p).startService()
);

export const faultStopRuntime = defineFault(
  'StopRuntime',
  'Stop the container runtime (containerd / CRI-O) on a node',
  (c, p) => {
    const rt = kubeletFor(c, p).host.runtime;
    if (!rt.state.running) return;
    rt.stopService();
    rt.log({ level: 'I', source: 'service.go:211', message: '"Stop CRI service"' });
  }
);

export const faultStartRuntime = defineFault(
  'StartRuntime',
  'Start the container runtime on a node',
  (c, p) => {
    const rt = kubeletFor(c, p).host.runtime;
    if (rt.state.running) return;
    rt.startService();
    if (rt.state.name === 'cri-o')
      rt.log({ level: 'I', source: 'server.go:556', message: '"Started CRI-O"' });
    else rt.log({ level: 'I', source: 'main.go:286', message: '"containerd successfully booted in 0.042s"' });
  }
);

export const faultPartitionNode = defineFault(
  'PartitionNode',
  'Cut a node off from the control plane',
  (c, p) => {
    kubeletFor(c, p);
    c.partitioned.add(p.target!);
  }
);

export const faultHealNode = defineFault('HealNode', 'Reconnect a partitioned node', (c, p) => {
  kubeletFor(c, p);
  c.partitioned.delete(p.target!);
});

export const faultFillMemory = defineFault(
  'FillMemory',
  'A system process allocates memory (amount, default: just past memory.available); amount 0 frees it',
  (c, p) => {
    const k = kubeletFor(c, p);
    const amount = amountParam(p);
    if (amount !== undefined) {
      k.host.state.system.fillMemory = amount;
      return;
    }
    const o = observe(k);
    const threshold = thresholdQuantity(evictionHard(k.args)['memory.available'], o.memoryCapacity);
    k.host.state.system.fillMemory += Math.max(0, o.memoryAvailable - threshold) + 50 * 2 ** 20;
  }
);

export const faultFillDisk = defineFault(
  'FillDisk',
  'Fill the node filesystem (amount, default: just past nodefs.available); amount 0 frees it',
  (c, p) => {
    const k = kubeletFor(c, p);
    const amount = amountParam(p);
    if (amount !== undefined) {
      k.host.state.system.fillDisk = amount;
      return;
    }
    const o = observe(k);
    const threshold = thresholdQuantity(evictionHard(k.args)['nodefs.available'], o.fsCapacity);
    k.host.state.system.fillDisk += Math.max(0, o.fsAvailable - threshold) + 2 ** 30;
  }
);

export const faultRemoveCNI = defineFault(
  'RemoveCNI',
  'Delete the CNI config from /etc/cni/net.d on a node',
  (c, p) => {
    kubeletFor(c, p).host.cni.remove();
  }
);

export const faultInstallCNI = defineFault(
  'InstallCNI',
  "Write the cluster CNI's config to /etc/cni/net.d on a node",
  (c, p) => {
    const k = kubeletFor(c, p);
    k.host.cni.install(c.config.network.cni === 'none' ? 'calico' : c.config.network.cni);
  }
);

export const faultDeleteNode = defineFault(
  'DeleteNode',
  'Delete the Node object and remove the machine',
  (c, p) => {
    const k = kubeletFor(c, p);
    try {
      c.api.delete('Node', undefined, k.name, {}, { component: 'kubectl' });
    } catch {
      // Already gone: removing the machine is what matters.
    }
    c.removeNodeHost(k.name);
  }
);

export const faultReconfigureNode = defineFault(
  'ReconfigureNode',
  'Resize the machine (capacity; pods sets maxPods) and restart the kubelet so it reports the new capacity',
  (c, p) => {
    const k = kubeletFor(c, p);
    const wanted = (p.capacity ?? {}) as Record<string, unknown>;
    const args = structuredClone(k.args);
    for (const [name, value] of Object.entries(wanted)) {
      if (name.startsWith('hugepages-')) continue;
      if (tryParseQuantity(value) === undefined) {
        throw new FaultError(`invalid capacity ${name}: "${String(value)}": use a quantity such as 8Gi or 4`);
      }
      if (name === 'pods') args.maxPods = parseInt(String(value), 10);
      else args.capacity[name] = String(value);
    }
    const restart = k.running;
    k.stopService();
    k.args = args;
    const fill = { fillMemory: k.host.state.system.fillMemory, fillDisk: k.host.state.system.fillDisk };
    k.host.state.system = { ...baselineSystemUsage(args), ...fill };
    if (restart) k.startService();
  }
);
