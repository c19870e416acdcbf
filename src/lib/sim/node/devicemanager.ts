/**
 * The kubelet's device manager (pkg/kubelet/cm/devicemanager): device plugins register a resource
 * name with the kubelet, and only then do their devices appear in the Node's capacity and
 * allocatable. The machine's devices are KubeletArgs.devices; a plugin is a pod on the node
 * annotated `nodeplane.dev/device-plugin: <resource>` whose containers run (the stand-in for its
 * Register call on /var/lib/kubelet/device-plugins/kubelet.sock).
 *
 * GetCapacity: a serving plugin gives capacity = allocatable = its devices; when the plugin goes
 * away its devices turn unhealthy (allocatable 0, capacity kept) for endpointStopGracePeriod (5m),
 * after which the resource is removed and the node setter reports capacity 0. The manager's state
 * lives in the kubelet process: a kubelet restart forgets the registrations until the plugins
 * register again.
 */
import type { KubeObject } from '../api/types';
import type { Kubelet } from './kubelet';

export const DEVICE_PLUGIN_ANNOTATION = 'nodeplane.dev/device-plugin';
/** endpointStopGracePeriod (pkg/kubelet/cm/devicemanager/types.go). */
export const ENDPOINT_STOP_GRACE_PERIOD_MS = 5 * 60_000;

/** The resource a pod's device plugin serves, if it is one. */
export function devicePluginResource(pod: KubeObject): string | undefined {
  return pod.metadata.annotations?.[DEVICE_PLUGIN_ANNOTATION] || undefined;
}

/** A plugin pod serves while all its containers run and it is not being deleted. */
function serving(k: Kubelet, key: string): boolean {
  const rec = k.state.pods[key];
  if (!rec || rec.terminal || rec.terminating) return false;
  const app = rec.containers.filter((c) => !c.init);
  return app.length > 0 && app.every((c) => c.started && !c.terminated && !!c.containerId);
}

/**
 * Registrations and endpoint stops, at every housekeeping pass. Returns true when capacity or
 * allocatable changed (the next status sync reports it).
 */
export function deviceManagerTick(k: Kubelet): boolean {
  const devices = k.args.devices;
  if (!devices) return false;
  const s = k.state;
  const plugins = (s.devicePlugins ??= {});
  let changed = false;
  for (const resource of Object.keys(devices)) {
    const cur = plugins[resource];
    if (cur && cur.stoppedAt === undefined && serving(k, cur.pod)) continue;
    const candidate = Object.keys(s.pods).find((key) => {
      const pod = k.cluster.api.tryGet<KubeObject>('Pod', s.pods[key].namespace, s.pods[key].name);
      return !!pod && devicePluginResource(pod) === resource && serving(k, key);
    });
    if (candidate) {
      k.journal(
        'I',
        'server.go:146',
        `"Got registration request from device plugin with resource" resourceName="${resource}"`
      );
      plugins[resource] = { pod: candidate };
      changed = true;
    } else if (cur && cur.stoppedAt === undefined) {
      k.journal(
        'E',
        'client.go:90',
        `"ListAndWatch ended unexpectedly for device plugin" err="rpc error: code = Unavailable desc = error reading from server: EOF" resource="${resource}"`
      );
      cur.stoppedAt = k.now;
      changed = true;
    } else if (cur && cur.stoppedAt !== undefined && k.now - cur.stoppedAt > ENDPOINT_STOP_GRACE_PERIOD_MS) {
      // Removed: the node setter sets its capacity to 0 from now on.
      plugins[resource] = { ...cur, pod: '' };
    }
  }
  return changed;
}

/**
 * GetCapacity as milli-quantities: resources of registered (or recently stopped) plugins, and 0
 * for resources removed after the grace period. Resources never registered are absent.
 */
export function deviceCapacity(k: Kubelet): {
  capacity: Record<string, number>;
  allocatable: Record<string, number>;
} {
  const capacity: Record<string, number> = {};
  const allocatable: Record<string, number> = {};
  const devices = k.args.devices ?? {};
  for (const [resource, p] of Object.entries(k.state.devicePlugins ?? {})) {
    const n = devices[resource] ?? 0;
    const removed = p.pod === '';
    capacity[resource] = removed ? 0 : n * 1000;
    allocatable[resource] = removed || p.stoppedAt !== undefined ? 0 : n * 1000;
  }
  return { capacity, allocatable };
}

/** A kubelet restart: the plugins must register again with the new process. */
export function resetDeviceManager(k: Kubelet): void {
  if (k.state.devicePlugins) k.state.devicePlugins = {};
}
