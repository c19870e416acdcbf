/** `kubectl get` (tables, wide, labels, sort, other output formats) and `get -w`. */
import { AGGREGATED_RESOURCES, type ResourceInfo } from '../../api/resources';
import { aggregatedGet, aggregatedList, discovery } from '../../api/aggregator';
import type { KubeObject } from '../../api/types';
import { matchRequirements, parseLabelSelector } from '../../api/selectors';
import { parseFlags, str, bool, list } from '../args';
import type { ConsoleResult, WatchHandle } from '../console';
import {
  apiGet,
  apiList,
  CommandError,
  errorText,
  nowEpoch,
  qualified,
  resolveResource,
  type KubectlContext
} from '../context';
import { select, relaxed, formatValue } from '../jsonpath';
import { parseOutput, printObjects, type OutputKind } from '../printers/output';
import { headerFor, tableFor } from '../printers/table';
import { GET_TABLE, TabWriter } from '../tabwriter';
import { render } from '../../metrics/exposition';
import { targets as scrapeTargets } from '../../metrics/registry';

const isAggregated = (r: ResourceInfo) => AGGREGATED_RESOURCES.includes(r);

/** The `all` category, in the order kubectl prints it (for the kinds Nodeplane serves). */
const ALL = ['pods', 'services', 'daemonsets', 'deployments', 'replicasets'];

export interface GetTarget {
  r: ResourceInfo;
  names: string[];
}

/** `po,svc`, `pod web`, `pod/web deploy/api`: what kubectl builder resolves from the arguments. */
export function resolveTargets(args: string[], discovered?: ResourceInfo[]): GetTarget[] {
  if (!args.length) {
    throw new CommandError(
      'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.'
    );
  }
  if (args.some((a) => a.includes('/'))) {
    const out: GetTarget[] = [];
    for (const a of args) {
      const [t, n] = a.split('/', 2);
      if (!n) {
        throw new CommandError(
          `error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'`
        );
      }
      const r = resolveResource(t, discovered);
      const prev = out.find((x) => x.r === r);
      if (prev) prev.names.push(n);
      else out.push({ r, names: [n] });
    }
    return out;
  }
  const [types, ...names] = args;
  return types
    .split(',')
    .flatMap((t) =>
      t === 'all'
        ? ALL.map((k) => ({ r: resolveResource(k), names }))
        : [{ r: resolveResource(t, discovered), names }]
    );
}

interface Fetched {
  r: ResourceInfo;
  obj: KubeObject;
}

function sortItems(items: Fetched[], sortBy: string): Fetched[] {
  const path = relaxed(sortBy);
  const key = (f: Fetched) => {
    const v = select(f.obj, path);
    return v.length ? v[0] : undefined;
  };
  return [...items].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === undefined) return y === undefined ? 0 : -1;
    if (y === undefined) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    const sx = formatValue(x);
    const sy = formatValue(y);
    return sx < sy ? -1 : sx > sy ? 1 : 0;
  });
}

interface TableOpts {
  wide: boolean;
  allNamespaces: boolean;
  showLabels: boolean;
  labelColumns: string[];
  noHeaders: boolean;
  /** Print `kind/name` in NAME (several resource types in one command). */
  withKind: boolean;
}

function tableHeader(r: ResourceInfo, o: TableOpts): string[] {
  const h = headerFor(r.kind, o.wide);
  return [
    ...(o.allNamespaces && r.namespaced ? ['NAMESPACE'] : []),
    ...h,
    ...o.labelColumns.map((l) => l.toUpperCase()),
    ...(o.showLabels ? ['LABELS'] : [])
  ];
}

function tableRow(r: ResourceInfo, obj: KubeObject, now: number, o: TableOpts): string[] {
  const cells = tableFor(r.kind).row(obj, now, o.wide);
  if (o.withKind) cells[r.kind === 'Event' ? 3 : 0] = `${qualified(r)}/${cells[0]}`;
  const labels = obj.metadata.labels ?? {};
  return [
    ...(o.allNamespaces && r.namespaced ? [obj.metadata.namespace ?? ''] : []),
    ...cells,
    ...o.labelColumns.map((l) => labels[l] ?? ''),
    ...(o.showLabels
      ? [
          Object.keys(labels).length
            ? Object.keys(labels)
                .sort()
                .map((k) => `${k}=${labels[k]}`)
                .join(',')
            : '<none>'
        ]
      : [])
  ];
}

const line = (cells: string[]) => cells.join('\t') + '\n';

/**
 * `kubectl get --raw <path>`: a GET of a non-resource path with the kubeconfig's credentials (the
 * console's admin), printed as the server sends it (kubectl/pkg/cmd/get/get.go rawGet). Served:
 * the API server's /metrics and health paths, and a node's kubelet /metrics through the API
 * server's node proxy (`/api/v1/nodes/<node>/proxy/metrics`).
 */
function getRaw(ctx: KubectlContext, path: string, positional: string[]): ConsoleResult {
  if (positional.length)
    return {
      stdout: '',
      stderr: 'error: arguments may not be passed when --raw is specified\n',
      exitCode: 1
    };
  const cluster = ctx.cluster;
  if (!cluster.apiServers.some((a) => a.running))
    return {
      stdout: '',
      stderr:
        'The connection to the server 10.0.0.10:6443 was refused - did you specify the right host or port?\n',
      exitCode: 1
    };
  const notFound: ConsoleResult = {
    stdout: '',
    stderr: 'Error from server (NotFound): the server could not find the requested resource\n',
    exitCode: 1
  };
  const clean = path.split('?')[0];
  if (['/healthz', '/livez', '/readyz'].includes(clean)) return { stdout: 'ok', stderr: '', exitCode: 0 };
  const all = scrapeTargets(cluster);
  if (clean === '/metrics') {
    const t = all.find((x) => x.job === 'apiserver' && x.up);
    return t ? { stdout: render(t.families()), stderr: '', exitCode: 0 } : notFound;
  }
  const node = /^\/api\/v1\/nodes\/([^/]+)\/proxy\/metrics$/.exec(clean);
  if (node) {
    const t = all.find((x) => x.job === 'kubelet' && x.host === node[1]);
    if (!t) return { ...notFound, stderr: `Error from server (NotFound): nodes "${node[1]}" not found\n` };
    if (!t.up)
      return {
        stdout: '',
        stderr: `Error from server (ServiceUnavailable): the server is currently unable to handle the request\n`,
        exitCode: 1
      };
    return { stdout: render(t.families()), stderr: '', exitCode: 0 };
  }
  return notFound;
}

export function get(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const p = parseFlags(argv, [
    { name: 'watch', short: 'w' },
    { name: 'watch-only' },
    { name: 'show-labels' },
    { name: 'label-columns', short: 'L', value: true, repeat: true },
    { name: 'sort-by', value: true },
    { name: 'no-headers' },
    { name: 'show-kind' },
    { name: 'ignore-not-found' },
    { name: 'chunk-size', value: true },
    { name: 'raw', value: true }
  ]);
  const raw = str(p, 'raw');
  if (raw !== undefined) return getRaw(ctx, raw, p.positional);
  const output: OutputKind = parseOutput(str(p, 'output'));
  // Discovery decides what the names mean: metrics.k8s.io only while its APIService is Available.
  const targets = resolveTargets(p.positional, discovery(ctx.cluster.api).resources);
  const allNs = bool(p, 'all-namespaces');
  const ns = str(p, 'namespace') ?? 'default';
  const now = nowEpoch(ctx);
  let stderr = '';
  const items: Fetched[] = [];
  const byName = targets.some((t) => t.names.length > 0);
  for (const t of targets) {
    if (t.names.length) {
      for (const n of t.names) {
        try {
          const obj = isAggregated(t.r)
            ? aggregatedGet(ctx.cluster.api, t.r.kind, ns, n)
            : apiGet<KubeObject>(ctx, t.r, ns, n);
          items.push({ r: t.r, obj });
        } catch (e) {
          if (bool(p, 'ignore-not-found')) continue;
          stderr += errorText(e) + '\n';
        }
      }
    } else {
      const opts = {
        namespace: t.r.namespaced && !allNs ? ns : undefined,
        labelSelector: str(p, 'selector'),
        fieldSelector: str(p, 'field-selector')
      };
      const objs = isAggregated(t.r)
        ? aggregatedList(ctx.cluster.api, t.r.kind, opts)
        : apiList(ctx, t.r.kind, opts);
      for (const obj of objs) items.push({ r: t.r, obj });
    }
  }
  const sorted = str(p, 'sort-by') ? sortItems(items, str(p, 'sort-by')!) : items;
  const exitCode = stderr ? 1 : 0;

  if (output.kind !== 'table') {
    if (!sorted.length && !byName) {
      return { stdout: '', stderr: noResources(targets, allNs, ns), exitCode: 0 };
    }
    const single = byName && targets.length === 1 && targets[0].names.length === 1;
    return { stdout: printObjects(output, sorted, single), stderr, exitCode };
  }

  const opts: TableOpts = {
    wide: output.wide,
    allNamespaces: allNs,
    showLabels: bool(p, 'show-labels'),
    labelColumns: list(p, 'label-columns').flatMap((l) => l.split(',')),
    noHeaders: bool(p, 'no-headers'),
    withKind: targets.length > 1 || bool(p, 'show-kind') || p.positional[0] === 'all'
  };
  const writer = new TabWriter(GET_TABLE);
  let stdout = '';
  const watch = bool(p, 'watch') || bool(p, 'watch-only');
  for (const t of targets) {
    const rows = sorted.filter((f) => f.r === t.r);
    if (!rows.length) continue;
    if (stdout) stdout += '\n';
    const w = targets.length > 1 ? new TabWriter(GET_TABLE) : writer;
    if (!opts.noHeaders) w.write(line(tableHeader(t.r, opts)));
    if (!bool(p, 'watch-only')) for (const f of rows) w.write(line(tableRow(t.r, f.obj, now, opts)));
    stdout += w.take();
  }
  if (!stdout && !byName && !watch) stderr += noResources(targets, allNs, ns);
  const result: ConsoleResult = { stdout, stderr, exitCode };
  if (watch) {
    if (targets.length !== 1) {
      return { stdout: '', stderr: 'error: you may only specify a single resource type\n', exitCode: 1 };
    }
    const t = targets[0];
    if (!stdout && !opts.noHeaders) writer.write(line(tableHeader(t.r, opts)));
    result.watch = watchTable(ctx, t, opts, writer, {
      namespace: t.r.namespaced && !allNs ? ns : undefined,
      labelSelector: str(p, 'selector')
    });
  }
  return result;
}

function noResources(targets: GetTarget[], allNs: boolean, ns: string): string {
  const namespaced = targets.every((t) => t.r.namespaced);
  return namespaced && !allNs ? `No resources found in ${ns} namespace.\n` : 'No resources found\n';
}

/**
 * `get -w`: every change after the initial listing prints one row, laid out with the widths
 * remembered from earlier output (T4). The API watch only records what changed; rows are
 * rendered at the time of the change.
 */
function watchTable(
  ctx: KubectlContext,
  t: GetTarget,
  opts: TableOpts,
  writer: TabWriter,
  filter: { namespace?: string; labelSelector?: string }
): WatchHandle {
  const pending: string[] = [];
  const labels = parseLabelSelector(filter.labelSelector);
  const stop = ctx.cluster.api.watch(t.r.kind, (_type, obj) => {
    if (filter.namespace && obj.metadata.namespace !== filter.namespace) return;
    if (t.names.length && !t.names.includes(obj.metadata.name)) return;
    if (!matchRequirements(labels, obj.metadata.labels)) return;
    writer.write(line(tableRow(t.r, obj, nowEpoch(ctx), opts)));
    pending.push(writer.take());
  });
  return {
    poll() {
      const out = pending.join('');
      pending.length = 0;
      return out;
    },
    stop
  };
}
