/**
 * The kubelet's resource metrics endpoint, `GET https://<node>:10250/metrics/resource`
 * (pkg/kubelet/metrics/collectors/resource_metrics.go): per node and per running container the
 * cumulative CPU time (`node_cpu_usage_seconds_total`, `container_cpu_usage_seconds_total`), the
 * memory working set (`node_memory_working_set_bytes`, `container_memory_working_set_bytes`) and
 * the container start time, each sample stamped with the time cAdvisor measured it. metrics-server
 * scrapes it and turns the CPU counters into a rate.
 *
 * CPU time is counted from the runtime's containers (each runs at its modelled millicores,
 * docs/workload-model.md); the node's counter adds the CPU time of containers already removed, so
 * it never goes down. Memory is what the eviction manager observes.
 */
import type { Cluster } from '../cluster';
import { containerMemory, observe } from './eviction';
import { containerCpuNs } from './runtime';

/** One measurement: times in virtual ms, CPU in core-nanoseconds since `startTime`, memory in bytes. */
export interface ResourcePoint {
  startTime: number;
  timestamp: number;
  cpuNs: number;
  memory: number;
}

export interface ContainerResourcePoint extends ResourcePoint {
  namespace: string;
  pod: string;
  container: string;
}

export interface ResourceMetrics {
  node: ResourcePoint;
  containers: ContainerResourcePoint[];
}

/** The kubelet's port (--port, KubeletConfiguration port). */
export const KUBELET_PORT = 10250;

/**
 * Scrape one node's kubelet. Returns the error string the HTTP client gives when the kubelet does
 * not answer: refused while the service is stopped, a timeout while the node is cut off.
 */
export function scrapeResourceMetrics(
  cluster: Cluster,
  nodeName: string,
  address: string
): ResourceMetrics | { error: string } {
  const url = `https://${address}:${KUBELET_PORT}/metrics/resource`;
  const k = cluster.nodeHost(nodeName)?.kubelet;
  if (!k || cluster.partitioned.has(nodeName)) {
    return { error: `Get "${url}": context deadline exceeded` };
  }
  if (!k.running) {
    return { error: `Get "${url}": dial tcp ${address}:${KUBELET_PORT}: connect: connection refused` };
  }
  const now = k.now;
  const rt = k.runtime;
  const known = new Set<string>();
  for (const key in k.state.pods) known.add(k.state.pods[key].uid);
  const containers: ContainerResourcePoint[] = [];
  let cpuNs = rt.state.cpuRetiredNs ?? 0;
  for (const c of rt.containers()) {
    cpuNs += containerCpuNs(c, now);
    if (c.state !== 'CONTAINER_RUNNING' || !known.has(c.podUid) || c.startedAt === undefined) continue;
    containers.push({
      namespace: c.podNamespace,
      pod: c.podName,
      container: c.name,
      startTime: c.startedAt,
      timestamp: now,
      cpuNs: containerCpuNs(c, now),
      memory: containerMemory(k, c)
    });
  }
  const o = observe(k);
  return {
    node: { startTime: 0, timestamp: now, cpuNs, memory: o.memoryCapacity - o.memoryAvailable },
    containers
  };
}
