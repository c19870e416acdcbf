/** Column definitions of `kubectl get` per resource (printers.go AddHandlers). */
import type { KubeObject } from '../../api/types';
import { since } from '../timefmt';
import { nodeRow, podRow } from './pod';
import { formatBytes, tryParseQuantity } from '../../api/quantity';
import { formatNanoCores, parseNanoCores } from '../../metrics-server/metrics-server';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

export interface TableDef {
  columns: string[];
  wideColumns: string[];
  row(obj: KubeObject, now: number, wide: boolean): string[];
}

const age = (o: KubeObject, now: number) => since(o.metadata.creationTimestamp, now);

function selectorString(sel: Any): string {
  if (!sel) return '<none>';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) parts.push(`${k}=${v}`);
  for (const e of sel.matchExpressions ?? []) {
    if (e.operator === 'In') parts.push(`${e.key} in (${e.values.join(',')})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${e.values.join(',')})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else parts.push(`!${e.key}`);
  }
  return parts.length ? parts.sort().join(',') : '<none>';
}

function containersAndImages(tpl: Any): [string, string] {
  const cs: Any[] = tpl?.spec?.containers ?? [];
  return [cs.map((c) => c.name).join(','), cs.map((c) => c.image).join(',')];
}

function mapString(m: Record<string, string> | undefined): string {
  const e = Object.entries(m ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  return e.length ? e.map(([k, v]) => `${k}=${v}`).join(',') : '<none>';
}

function servicePorts(spec: Any): string {
  const ports: Any[] = spec?.ports ?? [];
  if (!ports.length) return '<none>';
  return ports.map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',');
}

/** printers.go formatEndpoints: first 3 addresses then ` + N more...`. */
function formatEndpointList(addrs: string[]): string {
  if (!addrs.length) return '<none>';
  const shown = addrs.slice(0, 3).join(',');
  return addrs.length > 3 ? `${shown} + ${addrs.length - 3} more...` : shown;
}

/**
 * printers.go formatEndpoints: `<none>` without subsets; otherwise the ready addresses, port by
 * port within each subset (`ip:port`, or the bare IP for a headless Service without ports), the
 * first 3 shown then ` + N more...`. A subset of only not-ready addresses prints nothing.
 */
export function formatEndpoints(o: Any): string {
  const subsets: Any[] = o.subsets ?? [];
  if (!subsets.length) return '<none>';
  const list: string[] = [];
  const max = 3;
  let count = 0;
  for (const ss of subsets) {
    const addrs: Any[] = ss.addresses ?? [];
    const ports: Any[] = ss.ports ?? [];
    if (!ports.length) {
      count += addrs.length;
      for (const a of addrs) if (list.length < max) list.push(a.ip);
      continue;
    }
    for (const p of ports) {
      count += addrs.length;
      for (const a of addrs) {
        if (list.length < max) list.push(a.ip.includes(':') ? `[${a.ip}]:${p.port}` : `${a.ip}:${p.port}`);
      }
    }
  }
  const ret = list.join(',');
  return count > max ? `${ret} + ${count - max} more...` : ret;
}

export const TABLES: Record<string, TableDef> = {
  Pod: {
    columns: ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
    wideColumns: ['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'],
    row: podRow
  },
  Node: {
    columns: ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'],
    wideColumns: ['INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME'],
    row: nodeRow
  },
  Namespace: {
    columns: ['NAME', 'STATUS', 'AGE'],
    wideColumns: [],
    row: (o, now) => [o.metadata.name, o.status?.phase ?? '', age(o, now)]
  },
  Deployment: {
    columns: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
    wideColumns: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
    row: (o, now, wide) => {
      const s: Any = o.status ?? {};
      const r = [
        o.metadata.name,
        `${s.readyReplicas ?? 0}/${o.spec?.replicas ?? 1}`,
        String(s.updatedReplicas ?? 0),
        String(s.availableReplicas ?? 0),
        age(o, now)
      ];
      if (wide) r.push(...containersAndImages(o.spec?.template), selectorString(o.spec?.selector));
      return r;
    }
  },
  ReplicaSet: {
    columns: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
    wideColumns: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
    row: (o, now, wide) => {
      const s: Any = o.status ?? {};
      const r = [
        o.metadata.name,
        String(o.spec?.replicas ?? 1),
        String(s.replicas ?? 0),
        String(s.readyReplicas ?? 0),
        age(o, now)
      ];
      if (wide) r.push(...containersAndImages(o.spec?.template), selectorString(o.spec?.selector));
      return r;
    }
  },
  DaemonSet: {
    columns: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'],
    wideColumns: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
    row: (o, now, wide) => {
      const s: Any = o.status ?? {};
      const r = [
        o.metadata.name,
        String(s.desiredNumberScheduled ?? 0),
        String(s.currentNumberScheduled ?? 0),
        String(s.numberReady ?? 0),
        String(s.updatedNumberScheduled ?? 0),
        String(s.numberAvailable ?? 0),
        mapString(o.spec?.template?.spec?.nodeSelector),
        age(o, now)
      ];
      if (wide) r.push(...containersAndImages(o.spec?.template), selectorString(o.spec?.selector));
      return r;
    }
  },
  Service: {
    columns: ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'],
    wideColumns: ['SELECTOR'],
    row: (o, now, wide) => {
      const spec: Any = o.spec ?? {};
      const type = spec.type ?? 'ClusterIP';
      const lb: Any[] = o.status?.loadBalancer?.ingress ?? [];
      const ext =
        spec.externalIPs?.join(',') ||
        (type === 'LoadBalancer' ? lb.map((i) => i.ip || i.hostname).join(',') || '<pending>' : '') ||
        (type === 'ExternalName' ? spec.externalName : '<none>');
      const r = [o.metadata.name, type, spec.clusterIP || '<none>', ext, servicePorts(spec), age(o, now)];
      if (wide) r.push(mapString(spec.selector));
      return r;
    }
  },
  Endpoints: {
    columns: ['NAME', 'ENDPOINTS', 'AGE'],
    wideColumns: [],
    row: (o, now) => [o.metadata.name, formatEndpoints(o), age(o, now)]
  },
  EndpointSlice: {
    columns: ['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'],
    wideColumns: [],
    row: (o, now) => {
      const ports: Any[] = (o.ports as Any[]) ?? [];
      const addrs = ((o.endpoints as Any[]) ?? []).flatMap((e) => e.addresses ?? []);
      return [
        o.metadata.name,
        String(o.addressType ?? 'IPv4'),
        ports.length ? ports.map((p) => p.port ?? '').join(',') : '<unset>',
        addrs.length ? formatEndpointList(addrs) : '<unset>',
        age(o, now)
      ];
    }
  },
  Lease: {
    columns: ['NAME', 'HOLDER', 'AGE'],
    wideColumns: [],
    row: (o, now) => [o.metadata.name, o.spec?.holderIdentity ?? '', age(o, now)]
  },
  ConfigMap: {
    columns: ['NAME', 'DATA', 'AGE'],
    wideColumns: [],
    row: (o, now) => [
      o.metadata.name,
      String(
        Object.keys((o.data as object) ?? {}).length + Object.keys((o.binaryData as object) ?? {}).length
      ),
      age(o, now)
    ]
  },
  PodDisruptionBudget: {
    columns: ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'],
    wideColumns: [],
    row: (o, now) => [
      o.metadata.name,
      o.spec?.minAvailable !== undefined ? String(o.spec.minAvailable) : 'N/A',
      o.spec?.maxUnavailable !== undefined ? String(o.spec.maxUnavailable) : 'N/A',
      String(o.status?.disruptionsAllowed ?? 0),
      age(o, now)
    ]
  },
  // kube-aggregator's table (pkg/registry/apiservice/etcd/etcd.go): SERVICE is Local or
  // namespace/name; AVAILABLE is the condition's status, with the reason when not True.
  APIService: {
    columns: ['NAME', 'SERVICE', 'AVAILABLE', 'AGE'],
    wideColumns: [],
    row: (o, now) => {
      const svc = o.spec?.service;
      const cond = ((o.status?.conditions ?? []) as Any[]).find((c) => c.type === 'Available');
      const available = !cond
        ? 'Unknown'
        : cond.status === 'True'
          ? 'True'
          : `${cond.status} (${cond.reason})`;
      return [o.metadata.name, svc ? `${svc.namespace}/${svc.name}` : 'Local', available, age(o, now)];
    }
  },
  // metrics-server's tables (pkg/api/table.go): the usage names sorted (cpu, memory), then the window.
  NodeMetrics: {
    columns: ['NAME', 'CPU', 'MEMORY', 'WINDOW'],
    wideColumns: [],
    row: (o) => {
      const u: Any = o.usage ?? {};
      return [o.metadata.name, String(u.cpu ?? ''), String(u.memory ?? ''), String(o.window ?? '')];
    }
  },
  PodMetrics: {
    columns: ['NAME', 'CPU', 'MEMORY', 'WINDOW'],
    wideColumns: [],
    row: (o) => {
      let nano = 0;
      let bytes = 0;
      for (const c of (o.containers ?? []) as Any[]) {
        nano += parseNanoCores(c.usage?.cpu);
        bytes += Math.round((tryParseQuantity(String(c.usage?.memory ?? '0')) ?? 0) / 1000);
      }
      return [o.metadata.name, formatNanoCores(nano), formatBytes(bytes * 1000), String(o.window ?? '')];
    }
  },
  PriorityClass: {
    columns: ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY'],
    wideColumns: [],
    row: (o, now) => [
      o.metadata.name,
      String(o.value ?? 0),
      String(o.globalDefault ?? false),
      age(o, now),
      String(o.preemptionPolicy ?? 'PreemptLowerPriority')
    ]
  },
  Event: {
    columns: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
    wideColumns: [],
    row: (o, now, wide) => {
      const inv: Any = o.involvedObject ?? {};
      const first = since((o.firstTimestamp as string) || (o.eventTime as string), now);
      const last = o.lastTimestamp ? since(o.lastTimestamp as string, now) : first;
      const target = inv.name
        ? `${String(inv.kind).toLowerCase()}/${inv.name}`
        : String(inv.kind).toLowerCase();
      const msg = String(o.message ?? '').trim();
      if (!wide) return [last, String(o.type ?? ''), String(o.reason ?? ''), target, msg];
      const src: Any = o.source ?? {};
      const source = src.component
        ? src.host
          ? `${src.component}, ${src.host}`
          : src.component
        : `${o.reportingComponent ?? ''}${o.reportingInstance ? `, ${o.reportingInstance}` : ''}`;
      return [
        last,
        String(o.type ?? ''),
        String(o.reason ?? ''),
        target,
        inv.fieldPath ?? '',
        source,
        msg,
        first,
        String(o.count || 1),
        o.metadata.name
      ];
    }
  }
};

/** `kubectl get events -o wide` replaces the column list rather than appending to it. */
export const EVENT_WIDE_COLUMNS = [
  'LAST SEEN',
  'TYPE',
  'REASON',
  'OBJECT',
  'SUBOBJECT',
  'SOURCE',
  'MESSAGE',
  'FIRST SEEN',
  'COUNT',
  'NAME'
];

export function tableFor(kind: string): TableDef {
  return (
    TABLES[kind] ?? {
      columns: ['NAME', 'AGE'],
      wideColumns: [],
      row: (o, now) => [o.metadata.name, age(o, now)]
    }
  );
}

export function headerFor(kind: string, wide: boolean): string[] {
  if (kind === 'Event' && wide) return EVENT_WIDE_COLUMNS;
  const t = tableFor(kind);
  return wide ? [...t.columns, ...t.wideColumns] : t.columns;
}
