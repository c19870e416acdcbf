/**
 * `kubectl top node|pod` (staging/src/k8s.io/kubectl/pkg/cmd/top/top_node.go, top_pod.go,
 * pkg/metricsutil/metrics_printer.go). kubectl reads only the Metrics API: discovery must list
 * `metrics.k8s.io/v1beta1` (an APIService that is not Available is stale and dropped, so kubectl
 * says `Metrics API not available`), then it lists NodeMetrics / PodMetrics through kube-apiserver,
 * which proxies to metrics-server. The figures are metrics-server's: the CPU rate over its last
 * scrape window and the last working set, so they lag the node by up to one scrape.
 *
 * Printing as metrics_printer.go: every cell is tab-terminated (so the last column is padded too),
 * CPU is `MilliValue()` (rounded up) with `m`, memory `Value()/(1024*1024)` with `Mi`, and a
 * percentage is the truncated `usage/allocatable*100`. Nodes without metrics print `<unknown>`.
 */
import { aggregatedGet, aggregatedList, discovery } from '../../api/aggregator';
import { tryParseQuantity } from '../../api/quantity';
import type { KubeObject } from '../../api/types';
import { formatGoDuration } from '../../engine/duration';
import { parseNanoCores } from '../../metrics-server/metrics-server';
import { parseFlags, str, bool } from '../args';
import type { ConsoleResult } from '../console';
import {
  apiGet,
  apiList,
  CommandError,
  KUBECTL,
  nowEpoch,
  resolveResource,
  type KubectlContext
} from '../context';
import { GET_TABLE, tabbed } from '../tabwriter';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

const MI = 1024 * 1024;
/** top_pod.go metricsCreationDelay: a pod this old should have metrics. */
const METRICS_CREATION_DELAY_MS = 2 * 60_000;

/** Bytes of a memory quantity (Value(), rounded up). */
function byteValue(q: unknown): number {
  return Math.ceil((tryParseQuantity(String(q ?? '0')) ?? 0) / 1000);
}

interface Usage {
  /** CPU in nanocores, memory in bytes. */
  cpuNano: number;
  memory: number;
}

const cpuMilli = (u: Usage) => Math.ceil(u.cpuNano / 1e6);

function usageOf(usage: Any): Usage {
  return { cpuNano: parseNanoCores(usage?.cpu), memory: byteValue(usage?.memory) };
}

function podUsage(m: KubeObject): Usage {
  const total: Usage = { cpuNano: 0, memory: 0 };
  for (const c of (m.containers ?? []) as Any[]) {
    const u = usageOf(c.usage);
    total.cpuNano += u.cpuNano;
    total.memory += u.memory;
  }
  return total;
}

/** printSingleResourceUsage + the optional percentage, each cell tab-terminated. */
function cells(u: Usage, available?: { cpuMilli: number; memoryMilli: number }): string {
  let out = `${cpuMilli(u)}m\t`;
  if (available) {
    const f = available.cpuMilli ? (cpuMilli(u) / available.cpuMilli) * 100 : 0;
    out += `${Math.trunc(f)}%\t`;
  }
  out += `${Math.floor(u.memory / MI)}Mi\t`;
  if (available) {
    const f = available.memoryMilli ? ((u.memory * 1000) / available.memoryMilli) * 100 : 0;
    out += `${Math.trunc(f)}%\t`;
  }
  return out;
}

/** ServerGroups(): is metrics.k8s.io/v1beta1 among the discovered (not stale) group versions? */
function metricsAPIAvailable(ctx: KubectlContext): boolean {
  ctx.cluster.api.reachable(KUBECTL);
  return discovery(ctx.cluster.api).resources.some(
    (r) => r.group === 'metrics.k8s.io' && r.version === 'v1beta1'
  );
}

function notAvailable(): ConsoleResult {
  return { stdout: '', stderr: 'error: Metrics API not available\n', exitCode: 1 };
}

function sortBy(p: ReturnType<typeof parseFlags>): 'cpu' | 'memory' | '' {
  const s = str(p, 'sort-by') ?? '';
  if (s && s !== 'cpu' && s !== 'memory')
    throw new CommandError('error: --sort-by accepts only cpu or memory');
  return s as 'cpu' | 'memory' | '';
}

function topNode(ctx: KubectlContext, rest: string[]): ConsoleResult {
  const p = parseFlags(rest, [
    { name: 'sort-by', value: true },
    { name: 'no-headers' },
    { name: 'show-capacity' }
  ]);
  const by = sortBy(p);
  const selector = str(p, 'selector');
  const name = p.positional[0];
  if (p.positional.length > 1) throw new CommandError('error: top node [NAME | -l label]');
  if (name && selector) throw new CommandError('error: only one of NAME or --selector can be provided');
  if (!metricsAPIAvailable(ctx)) return notAvailable();
  const api = ctx.cluster.api;
  const metrics = name
    ? [aggregatedGet(api, 'NodeMetrics', undefined, name)]
    : aggregatedList(api, 'NodeMetrics', { labelSelector: selector });
  if (!metrics.length) throw new CommandError('error: metrics not available yet');
  const nodes = name
    ? [apiGet<KubeObject>(ctx, resolveResource('nodes'), undefined, name)]
    : apiList<KubeObject>(ctx, 'Node', { labelSelector: selector });
  const available = new Map<string, { cpuMilli: number; memoryMilli: number }>();
  for (const n of nodes) {
    const src = bool(p, 'show-capacity') ? n.status?.capacity : n.status?.allocatable;
    available.set(n.metadata.name, {
      cpuMilli: tryParseQuantity(src?.cpu ?? '0') ?? 0,
      memoryMilli: tryParseQuantity(src?.memory ?? '0') ?? 0
    });
  }
  const rows = metrics.map((m) => ({ name: m.metadata.name, u: usageOf(m.usage) }));
  // NodeMetricsSorter: by name, or the largest first.
  rows.sort((a, b) =>
    by === 'cpu'
      ? cpuMilli(b.u) - cpuMilli(a.u)
      : by === 'memory'
        ? b.u.memory - a.u.memory
        : a.name < b.name
          ? -1
          : a.name > b.name
            ? 1
            : 0
  );
  let text = bool(p, 'no-headers') ? '' : 'NAME\tCPU(cores)\tCPU(%)\tMEMORY(bytes)\tMEMORY(%)\t\n';
  for (const r of rows) {
    text += `${r.name}\t${cells(r.u, available.get(r.name))}\n`;
    available.delete(r.name);
  }
  for (const n of [...available.keys()].sort()) {
    text += `${n}\t<unknown>\t<unknown>\t<unknown>\t<unknown>\t\n`;
  }
  return { stdout: tabbed(text, GET_TABLE), stderr: '', exitCode: 0 };
}

/** verifyEmptyMetrics (top_pod.go): why a list came back empty. */
function emptyMetricsError(ctx: KubectlContext, pods: KubeObject[]): string | undefined {
  if (!pods.length) return undefined;
  const now = nowEpoch(ctx);
  for (const pod of pods) {
    const age = now - Date.parse(pod.metadata.creationTimestamp ?? '');
    if (age > METRICS_CREATION_DELAY_MS) {
      return `error: Metrics not available for pod ${pod.metadata.namespace}/${pod.metadata.name}, age: ${formatGoDuration(age)}`;
    }
  }
  return 'error: metrics not available yet';
}

function topPod(ctx: KubectlContext, rest: string[]): ConsoleResult {
  const p = parseFlags(rest, [
    { name: 'sort-by', value: true },
    { name: 'no-headers' },
    { name: 'containers' },
    { name: 'sum' }
  ]);
  const by = sortBy(p);
  const allNs = bool(p, 'all-namespaces');
  const ns = allNs ? undefined : (str(p, 'namespace') ?? 'default');
  const selector = str(p, 'selector');
  const name = p.positional[0];
  if (p.positional.length > 1) throw new CommandError('error: top pod [NAME | -l label]');
  if (name && selector) throw new CommandError('error: only one of NAME or --selector can be provided');
  if (!metricsAPIAvailable(ctx)) return notAvailable();
  const api = ctx.cluster.api;
  const metrics = name
    ? [aggregatedGet(api, 'PodMetrics', ns ?? 'default', name)]
    : aggregatedList(api, 'PodMetrics', { namespace: ns, labelSelector: selector });
  if (!metrics.length) {
    const pods = apiList<KubeObject>(ctx, 'Pod', { namespace: ns, labelSelector: selector });
    const err = emptyMetricsError(ctx, pods);
    if (err) throw new CommandError(err);
    return {
      stdout: '',
      stderr: allNs ? 'No resources found\n' : `No resources found in ${ns} namespace.\n`,
      exitCode: 0
    };
  }
  const containers = bool(p, 'containers');
  const rows = metrics.map((m) => ({ m, u: podUsage(m) }));
  const key = (m: KubeObject) => (allNs ? `${m.metadata.namespace}/` : '') + m.metadata.name;
  rows.sort((a, b) =>
    by === 'cpu'
      ? cpuMilli(b.u) - cpuMilli(a.u)
      : by === 'memory'
        ? b.u.memory - a.u.memory
        : key(a.m) < key(b.m)
          ? -1
          : key(a.m) > key(b.m)
            ? 1
            : 0
  );
  let width = 3;
  let text = '';
  if (!bool(p, 'no-headers')) {
    if (allNs) {
      text += 'NAMESPACE\t';
      width++;
    }
    if (containers) {
      text += 'POD\t';
      width++;
    }
    text += 'NAME\tCPU(cores)\tMEMORY(bytes)\t\n';
  }
  for (const { m, u } of rows) {
    const nsCell = allNs ? `${m.metadata.namespace}\t` : '';
    if (containers) {
      for (const c of (m.containers ?? []) as Any[]) {
        text += `${nsCell}${m.metadata.name}\t${c.name}\t${cells(usageOf(c.usage))}\n`;
      }
    } else {
      text += `${nsCell}${m.metadata.name}\t${cells(u)}\n`;
    }
  }
  if (bool(p, 'sum')) {
    const total: Usage = { cpuNano: 0, memory: 0 };
    for (const { u } of rows) {
      total.cpuNano += u.cpuNano;
      total.memory += u.memory;
    }
    text += '\t'.repeat(width - 2) + '________\t________\t\n';
    text += '\t'.repeat(width - 3) + `\t${cells(total)}\n`;
  }
  return { stdout: tabbed(text, GET_TABLE), stderr: '', exitCode: 0 };
}

export function top(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const [what, ...rest] = argv;
  if (what === 'node' || what === 'nodes' || what === 'no') return topNode(ctx, rest);
  if (what === 'pod' || what === 'pods' || what === 'po') return topPod(ctx, rest);
  throw new CommandError(`error: unknown command "${what ?? ''}" for "kubectl top"`);
}
