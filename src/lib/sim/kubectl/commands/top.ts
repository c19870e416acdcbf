/**
 * `kubectl top nodes|pods` from the simulated usage. The workload model (docs/workload-model.md)
 * sets usage per container with pod annotations; without them a container uses its request
 * (or 16Mi / 10m).
 */
import { tryParseQuantity } from '../../api/quantity';
import type { KubeObject } from '../../api/types';
import { hostView } from '../../node/host';
import { parseFlags, str, bool } from '../args';
import type { ConsoleResult } from '../console';
import { apiList, CommandError, nowEpoch, type KubectlContext } from '../context';
import { GET_TABLE, tabbed } from '../tabwriter';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

const MI = 2 ** 20;

function annotation(pod: KubeObject, key: string, container: string): string | undefined {
  const a = pod.metadata.annotations ?? {};
  return a[`nodeplane.dev/${key}.${container}`] ?? a[`nodeplane.dev/${key}`];
}

/** "200Mi", "100Mi+5Mi/s", "100Mi+5Mi/s,max=800Mi" after `elapsedMs` running. */
function memoryAt(spec: string, elapsedMs: number): number | undefined {
  const [growth, ...opts] = spec.split(',').map((s) => s.trim());
  const m = /^([^+]+)(?:\+([^/]+)\/s)?$/.exec(growth);
  if (!m) return undefined;
  const base = (tryParseQuantity(m[1]) ?? 0) / 1000;
  const rate = m[2] ? (tryParseQuantity(m[2]) ?? 0) / 1000 : 0;
  let v = base + (rate * Math.max(0, elapsedMs)) / 1000;
  const max = opts.map((o) => /^max=(.+)$/.exec(o)).find(Boolean);
  if (max) v = Math.min(v, (tryParseQuantity(max[1]) ?? Infinity) / 1000);
  return v;
}

/** Usage of the running containers of a pod: millicores and bytes. */
export function podUsage(pod: KubeObject, now: number): { cpu: number; memory: number } | undefined {
  const statuses: Any[] = pod.status?.containerStatuses ?? [];
  let cpu = 0;
  let memory = 0;
  let running = 0;
  for (const c of (pod.spec?.containers as Any[]) ?? []) {
    const s = statuses.find((x) => x.name === c.name);
    if (!s?.state?.running) continue;
    running++;
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    const elapsed = now - Date.parse(s.state.running.startedAt);
    cpu +=
      tryParseQuantity(annotation(pod, 'cpu-usage', c.name) ?? '') ??
      tryParseQuantity(req.cpu ?? lim.cpu ?? '') ??
      10;
    const memSpec = annotation(pod, 'memory-usage', c.name);
    memory +=
      (memSpec ? memoryAt(memSpec, elapsed) : undefined) ??
      (tryParseQuantity(req.memory ?? lim.memory ?? '') ?? 16 * MI * 1000) / 1000;
  }
  return running ? { cpu, memory } : undefined;
}

function metricsAvailable(ctx: KubectlContext, nodes: KubeObject[]): boolean {
  return nodes.some((n) => hostView(ctx.cluster, n.metadata.name) !== undefined);
}

const NO_METRICS = 'error: Metrics API not available\n';

export function top(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const [what, ...rest] = argv;
  const p = parseFlags(rest, [
    { name: 'sort-by', value: true },
    { name: 'no-headers' },
    { name: 'containers' }
  ]);
  const now = nowEpoch(ctx);
  const nodes = apiList(ctx, 'Node');
  if (!metricsAvailable(ctx, nodes)) return { stdout: '', stderr: NO_METRICS, exitCode: 1 };
  if (what === 'node' || what === 'nodes' || what === 'no') {
    let text = 'NAME\tCPU(cores)\tCPU(%)\tMEMORY(bytes)\tMEMORY(%)\n';
    const rows = nodes
      .filter((n) => !p.positional.length || p.positional.includes(n.metadata.name))
      .map((n) => {
        const pods = ctx.cluster.api.podsOnNode<KubeObject>(n.metadata.name);
        let cpu = 0;
        let mem = 0;
        for (const pod of pods) {
          const u = podUsage(pod, now);
          if (u) {
            cpu += u.cpu;
            mem += u.memory;
          }
        }
        const host = hostView(ctx.cluster, n.metadata.name);
        if (host) mem = Math.max(mem, host.memory().used);
        const alloc = n.status?.allocatable ?? {};
        const cpuAlloc = tryParseQuantity(alloc.cpu) ?? 0;
        const memAlloc = (tryParseQuantity(alloc.memory) ?? 0) / 1000;
        return {
          n,
          cpu,
          mem,
          cpuPct: cpuAlloc ? Math.round((cpu / cpuAlloc) * 100) : 0,
          memPct: memAlloc ? Math.round((mem / memAlloc) * 100) : 0
        };
      });
    if (str(p, 'sort-by') === 'cpu') rows.sort((a, b) => b.cpu - a.cpu);
    if (str(p, 'sort-by') === 'memory') rows.sort((a, b) => b.mem - a.mem);
    for (const r of rows) {
      text += `${r.n.metadata.name}\t${Math.round(r.cpu)}m\t${r.cpuPct}%\t${Math.round(r.mem / MI)}Mi\t${r.memPct}%\n`;
    }
    return {
      stdout: tabbed(bool(p, 'no-headers') ? text.split('\n').slice(1).join('\n') : text, GET_TABLE),
      stderr: '',
      exitCode: 0
    };
  }
  if (what === 'pod' || what === 'pods' || what === 'po') {
    const allNs = bool(p, 'all-namespaces');
    const ns = str(p, 'namespace') ?? 'default';
    const pods = apiList(ctx, 'Pod', { namespace: allNs ? undefined : ns, labelSelector: str(p, 'selector') })
      .filter((pod) => !p.positional.length || p.positional.includes(pod.metadata.name))
      .map((pod) => ({ pod, u: podUsage(pod, now) }))
      .filter((x) => x.u);
    if (!pods.length) {
      return {
        stdout: '',
        stderr: allNs ? 'No resources found\n' : `No resources found in ${ns} namespace.\n`,
        exitCode: 0
      };
    }
    if (str(p, 'sort-by') === 'cpu') pods.sort((a, b) => b.u!.cpu - a.u!.cpu);
    if (str(p, 'sort-by') === 'memory') pods.sort((a, b) => b.u!.memory - a.u!.memory);
    let text = (allNs ? 'NAMESPACE\t' : '') + 'NAME\tCPU(cores)\tMEMORY(bytes)\n';
    for (const { pod, u } of pods) {
      text += `${allNs ? `${pod.metadata.namespace}\t` : ''}${pod.metadata.name}\t${Math.round(u!.cpu)}m\t${Math.round(u!.memory / MI)}Mi\n`;
    }
    return { stdout: tabbed(text, GET_TABLE), stderr: '', exitCode: 0 };
  }
  throw new CommandError(`error: unknown command "${what ?? ''}" for "kubectl top"`);
}
