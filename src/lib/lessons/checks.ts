/**
 * Task checks: declarative predicates over the cluster's state and event log, so a task is done
 * when the cluster is in the required state however the learner got there.
 *
 * Each check is a one-key object in lesson.yaml, e.g.
 *   check: { pod: { selector: app=web, phase: Running, notNode: worker-2, min: 3 } }
 *   check: { all: [ { node: { name: worker-2, taint: { key: node.kubernetes.io/unreachable, effect: NoExecute } } },
 *                   { event: { reason: TaintManagerEviction, before: 400s } } ] }
 * evaluate() returns whether it holds and, when not, what is not yet true in the learner's terms.
 */
import type { Cluster } from '../sim/cluster';
import type { KubeObject } from '../sim/api/types';
import { podStatusReason } from '../sim/api/corev1/podstatus';
import { matchRequirements, parseLabelSelector, fieldValue } from '../sim/api/selectors';
import { parseDuration } from '../sim/engine/duration';
import { parseQuantity } from '../sim/api/quantity';
import { collectServicePorts, endpointString, type ServicePortInfo } from '../sim/network/model';
import { nodeProgram } from '../sim/network/provider';
import type { KubeProxy, ProxyMode } from '../sim/network/kubeproxy';
import { staticPods } from '../sim/etcd/staticpods';
import { prometheus } from '../sim/monitoring/prometheus';
import { targets, type Job } from '../sim/metrics/registry';
import type { Language } from './format';

export interface PodCheck {
  name?: string;
  selector?: string;
  namespace?: string;
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  /** The STATUS column of `kubectl get pods` (Running, Pending, CrashLoopBackOff, Evicted, ...). */
  status?: string;
  ready?: boolean;
  node?: string;
  notNode?: string;
  nodeLabels?: Record<string, string>;
  /** With a selector: how many matching pods must satisfy the conditions (at least). */
  min?: number;
  /** With a selector: exactly this many. */
  count?: number;
  /** The pod must not exist (deleted or never created). */
  absent?: boolean;
}

export interface NodeCheck {
  name: string;
  exists?: boolean;
  ready?: 'True' | 'False' | 'Unknown';
  condition?: { type: string; status: string; reason?: string };
  taint?: { key: string; effect?: string; absent?: boolean };
  unschedulable?: boolean;
  labels?: Record<string, string>;
  allocatable?: Record<string, string>;
  capacity?: Record<string, string>;
}

export interface EventCheck {
  reason: string;
  /** `Kind/namespace/name` or `Kind/name`; a trailing `*` matches a prefix. */
  object?: string;
  type?: 'Normal' | 'Warning';
  messageContains?: string;
  before?: string;
  after?: string;
  /** Only events after the last time this fault was applied (e.g. StopKubelet on worker-2)... */
  afterFault?: { action: string; target?: string };
  /** ...and at most this long after it. */
  within?: string;
  min?: number;
}

export interface ObjectCheck {
  kind: string;
  namespace?: string;
  name: string;
  path: string;
  equals?: string | number | boolean;
  exists?: boolean;
}

/** kube-proxy on `node` sends the Service to exactly its current ready endpoints. */
export interface ServiceRoutingCheck {
  service: string;
  namespace?: string;
  node: string;
}

/**
 * kube-proxy on `node` (on every node when absent) is running and has programmed its rules in
 * `mode`, for at least `minServicePorts` service ports.
 */
export interface KubeProxyCheck {
  node?: string;
  mode?: ProxyMode;
  minServicePorts?: number;
}

/** etcd as the control-plane hosts hold it: a saved snapshot file, a restore, quorum. */
export interface EtcdCheck {
  /** A snapshot file (`etcdctl snapshot save`) exists on a control-plane host. */
  snapshot?: boolean;
  /** The members run on data restored from a snapshot (`etcdutl snapshot restore`). */
  restored?: boolean;
  quorum?: boolean;
  /** This many voting members, all started (learners do not count until promoted). */
  members?: number;
}

/** An alert's state in the lab's Prometheus (monitoring/rules.ts). */
export interface AlertCheck {
  name: string;
  /** inactive: neither pending nor firing. */
  state: 'pending' | 'firing' | 'resolved' | 'inactive';
  severity?: 'critical' | 'warning';
  /** Only the alerts with these labels (KubeAPIErrorBudgetBurn's `long`/`short` windows, an `instance`). */
  labels?: Record<string, string>;
}

/** A sample on the /metrics page of a job's targets, summed over the targets that answer. */
export interface MetricCheck {
  job: Job;
  /** A counter or gauge name, or a histogram's `<name>_count` / `<name>_sum`. */
  name: string;
  labels?: Record<string, string>;
  equals?: number;
  min?: number;
  max?: number;
}

export type Check =
  | { all: Check[] }
  | { any: Check[] }
  | { not: Check }
  | { pod: PodCheck }
  | { node: NodeCheck }
  | { event: EventCheck }
  | { noPendingPods: { namespace?: string } | true }
  | { question: { id: string } }
  | { lease: { node: string; renewedWithin: string } }
  | { object: ObjectCheck }
  | { serviceRouting: ServiceRoutingCheck }
  | { kubeProxy: KubeProxyCheck }
  | { etcd: EtcdCheck }
  | { alert: AlertCheck }
  | { metric: MetricCheck };

export const CHECK_KINDS = [
  'all',
  'any',
  'not',
  'pod',
  'node',
  'event',
  'noPendingPods',
  'question',
  'lease',
  'object',
  'serviceRouting',
  'kubeProxy',
  'etcd',
  'alert',
  'metric'
] as const;

export interface CheckContext {
  cluster: Cluster;
  /** Answers given so far: question id → whether the answer was correct. */
  answers: Record<string, boolean>;
  lang?: Language;
}

export interface CheckResult {
  ok: boolean;
  /** What is not yet true (empty when ok). */
  detail: string;
}

const MSG: Record<Language, Record<string, (p: Record<string, string | number>) => string>> = {
  en: {
    podMissing: (p) => `pod ${p.pod} does not exist`,
    podExists: (p) => `pod ${p.pod} still exists`,
    podField: (p) => `${p.pod} is ${p.actual}, not ${p.expected}${p.why ? `: ${p.why}` : ''}`,
    podNode: (p) => `${p.pod} is on ${p.actual}, not on ${p.expected}`,
    podNotNode: (p) => `${p.pod} is still on ${p.node}`,
    podNodeLabels: (p) => `${p.pod} is on ${p.node}, which is not labelled ${p.labels}`,
    podCount: (p) => `${p.actual} of the pods matching ${p.selector} qualify, ${p.expected} needed`,
    nodeMissing: (p) => `node ${p.node} does not exist`,
    nodeExists: (p) => `node ${p.node} still exists`,
    nodeCondition: (p) => `node ${p.node} has ${p.type}=${p.actual}, not ${p.expected}`,
    nodeTaint: (p) => `node ${p.node} does not have the taint ${p.taint}`,
    nodeNoTaint: (p) => `node ${p.node} still has the taint ${p.taint}`,
    nodeField: (p) => `node ${p.node}: ${p.field} is ${p.actual}, not ${p.expected}`,
    noFault: (p) => `${p.action}${p.target ? ` on ${p.target}` : ''} has not happened yet`,
    event: (p) =>
      `no ${p.reason} event${p.object ? ` for ${p.object}` : ''}${p.window ? ` ${p.window}` : ''} yet`,
    pending: (p) => `${p.pod} is still Pending${p.why ? `: ${p.why}` : ''}`,
    question: (p) => `question ${p.id} is not answered correctly yet`,
    lease: (p) => `the Lease of ${p.node} was not renewed in the last ${p.within}`,
    object: (p) => `${p.object}: ${p.path} is ${p.actual}, not ${p.expected}`,
    routeNone: (p) => `Service ${p.service} has no ready endpoints`,
    etcdSnapshot: () => 'no etcd snapshot file has been saved on a control-plane host',
    etcdNoSnapshot: () => 'an etcd snapshot file was saved',
    etcdRestored: () => 'etcd still runs on its original data, not on a restored snapshot',
    etcdNotRestored: () => 'etcd runs on data restored from a snapshot',
    etcdQuorum: () => 'etcd has no quorum',
    etcdNoQuorum: () => 'etcd still has quorum',
    etcdMembers: (p) => `etcd has ${p.actual} started voting member(s), not ${p.expected}`,
    alertState: (p) => `alert ${p.alert} is ${p.actual}, not ${p.expected}`,
    metricMissing: (p) => `no ${p.job} target serves ${p.metric}`,
    metricValue: (p) => `${p.metric} on ${p.job} is ${p.actual}, not ${p.expected}`,
    routeStale: (p) =>
      `${p.node} still sends Service ${p.service} to ${p.endpoint}, which is no longer a ready endpoint`,
    routeMissing: (p) => `${p.node} does not send Service ${p.service} to its endpoint ${p.endpoint} yet`,
    proxyMissing: (p) => `no kube-proxy runs on ${p.node}`,
    proxyStopped: (p) => `kube-proxy on ${p.node} is not running`,
    proxyMode: (p) => `kube-proxy on ${p.node} has its rules in ${p.actual} mode, not ${p.expected}`,
    proxyPorts: (p) =>
      `kube-proxy on ${p.node} has programmed ${p.actual} service ports, not yet ${p.expected}`,
    not: (p) => `this must not be true: ${p.inner}`
  },
  ru: {
    podMissing: (p) => `Pod ${p.pod} не существует`,
    podExists: (p) => `Pod ${p.pod} всё ещё существует`,
    podField: (p) => `${p.pod}: ${p.actual}, а нужно ${p.expected}${p.why ? `: ${p.why}` : ''}`,
    podNode: (p) => `${p.pod} работает на ${p.actual}, а не на ${p.expected}`,
    podNotNode: (p) => `${p.pod} всё ещё на узле ${p.node}`,
    podNodeLabels: (p) => `${p.pod} на узле ${p.node}, у которого нет меток ${p.labels}`,
    podCount: (p) => `подходят ${p.actual} Pod'ов с селектором ${p.selector}, нужно ${p.expected}`,
    nodeMissing: (p) => `узла ${p.node} нет`,
    nodeExists: (p) => `узел ${p.node} всё ещё существует`,
    nodeCondition: (p) => `у узла ${p.node} ${p.type}=${p.actual}, а нужно ${p.expected}`,
    nodeTaint: (p) => `у узла ${p.node} нет taint ${p.taint}`,
    nodeNoTaint: (p) => `у узла ${p.node} всё ещё есть taint ${p.taint}`,
    nodeField: (p) => `узел ${p.node}: ${p.field} = ${p.actual}, а нужно ${p.expected}`,
    noFault: (p) => `${p.action}${p.target ? ` для ${p.target}` : ''} ещё не выполнялось`,
    event: (p) =>
      `события ${p.reason}${p.object ? ` для ${p.object}` : ''}${p.window ? ` ${p.window}` : ''} пока не было`,
    pending: (p) => `${p.pod} всё ещё Pending${p.why ? `: ${p.why}` : ''}`,
    question: (p) => `на вопрос ${p.id} пока нет верного ответа`,
    lease: (p) => `Lease узла ${p.node} не обновлялся последние ${p.within}`,
    object: (p) => `${p.object}: ${p.path} = ${p.actual}, а нужно ${p.expected}`,
    routeNone: (p) => `у Service ${p.service} нет готовых эндпоинтов`,
    etcdSnapshot: () => 'на управляющих узлах нет сохранённого снимка etcd',
    etcdNoSnapshot: () => 'снимок etcd уже сохранён',
    etcdRestored: () => 'etcd работает на исходных данных, а не на восстановленном снимке',
    etcdNotRestored: () => 'etcd работает на данных, восстановленных из снимка',
    etcdQuorum: () => 'у etcd нет кворума',
    etcdNoQuorum: () => 'у etcd всё ещё есть кворум',
    etcdMembers: (p) => `у etcd запущено голосующих членов: ${p.actual}, а нужно ${p.expected}`,
    alertState: (p) => `алерт ${p.alert} в состоянии ${p.actual}, а нужно ${p.expected}`,
    metricMissing: (p) => `ни одна цель ${p.job} не отдаёт ${p.metric}`,
    metricValue: (p) => `${p.metric} у ${p.job} равно ${p.actual}, а нужно ${p.expected}`,
    routeStale: (p) =>
      `${p.node} всё ещё направляет Service ${p.service} на ${p.endpoint}, а это больше не готовый эндпоинт`,
    routeMissing: (p) => `${p.node} пока не направляет Service ${p.service} на его эндпоинт ${p.endpoint}`,
    proxyMissing: (p) => `на узле ${p.node} нет kube-proxy`,
    proxyStopped: (p) => `kube-proxy на ${p.node} не запущен`,
    proxyMode: (p) => `правила kube-proxy на ${p.node} — в режиме ${p.actual}, а нужно ${p.expected}`,
    proxyPorts: (p) =>
      `kube-proxy на ${p.node} запрограммировал портов Service: ${p.actual}, нужно не меньше ${p.expected}`,
    not: (p) => `это не должно выполняться: ${p.inner}`
  }
};

function fail(ctx: CheckContext, key: string, p: Record<string, string | number>): CheckResult {
  return { ok: false, detail: MSG[ctx.lang ?? 'en'][key](p) };
}
const OK: CheckResult = { ok: true, detail: '' };

export function evaluate(check: Check, ctx: CheckContext): CheckResult {
  if ('all' in check) {
    for (const c of check.all) {
      const r = evaluate(c, ctx);
      if (!r.ok) return r;
    }
    return OK;
  }
  if ('any' in check) {
    let first: CheckResult | undefined;
    for (const c of check.any) {
      const r = evaluate(c, ctx);
      if (r.ok) return OK;
      first ??= r;
    }
    return first ?? OK;
  }
  if ('not' in check) {
    const r = evaluate(check.not, ctx);
    return r.ok ? fail(ctx, 'not', { inner: describeCheck(check.not) }) : OK;
  }
  if ('pod' in check) return checkPod(check.pod, ctx);
  if ('node' in check) return checkNode(check.node, ctx);
  if ('event' in check) return checkEvent(check.event, ctx);
  if ('noPendingPods' in check) {
    const ns = check.noPendingPods === true ? undefined : check.noPendingPods.namespace;
    const pending = ctx.cluster.api
      .list<KubeObject>('Pod', { namespace: ns })
      .find((p) => p.status?.phase === 'Pending' && !p.spec?.nodeName && !p.metadata.deletionTimestamp);
    return pending
      ? fail(ctx, 'pending', { pod: pending.metadata.name, why: unschedulableMessage(pending) })
      : OK;
  }
  if ('question' in check)
    return ctx.answers[check.question.id] ? OK : fail(ctx, 'question', { id: check.question.id });
  if ('lease' in check) {
    const lease = ctx.cluster.api.tryGet<KubeObject>('Lease', 'kube-node-lease', check.lease.node);
    const renew = lease ? ctx.cluster.api.timeOf(lease.spec?.renewTime) : -Infinity;
    return ctx.cluster.now - renew <= parseDuration(check.lease.renewedWithin)
      ? OK
      : fail(ctx, 'lease', { node: check.lease.node, within: check.lease.renewedWithin });
  }
  if ('object' in check) {
    const o = check.object;
    const obj = ctx.cluster.api.tryGet<KubeObject>(o.kind, o.namespace ?? 'default', o.name);
    const v = obj ? valueAt(obj, o.path) : undefined;
    const label = `${o.kind}/${o.name}`;
    if (o.exists !== undefined && (v !== undefined) !== o.exists) {
      return fail(ctx, 'object', {
        object: label,
        path: o.path,
        actual: v === undefined ? '<none>' : String(v),
        expected: o.exists ? 'set' : '<none>'
      });
    }
    if (o.equals !== undefined && String(v) !== String(o.equals)) {
      return fail(ctx, 'object', {
        object: label,
        path: o.path,
        actual: v === undefined ? '<none>' : String(v),
        expected: String(o.equals)
      });
    }
    return OK;
  }
  if ('serviceRouting' in check) return checkRouting(check.serviceRouting, ctx);
  if ('kubeProxy' in check) return checkKubeProxy(check.kubeProxy, ctx);
  if ('etcd' in check) return checkEtcd(check.etcd, ctx);
  if ('alert' in check) return checkAlert(check.alert, ctx);
  if ('metric' in check) return checkMetric(check.metric, ctx);
  throw new Error(`unknown check ${JSON.stringify(check)}`);
}

function checkAlert(c: AlertCheck, ctx: CheckContext): CheckResult {
  const alerts = (prometheus(ctx.cluster)?.alerts() ?? []).filter(
    (a) =>
      a.alert === c.name &&
      (!c.severity || a.severity === c.severity) &&
      Object.entries(c.labels ?? {}).every(([k, v]) => a.labels[k] === v)
  );
  const states = new Set<string>(alerts.map((a) => a.state));
  const actual = states.has('firing')
    ? 'firing'
    : states.has('pending')
      ? 'pending'
      : states.has('resolved')
        ? 'resolved'
        : 'inactive';
  const ok = c.state === 'inactive' ? !states.has('firing') && !states.has('pending') : states.has(c.state);
  return ok ? OK : fail(ctx, 'alertState', { alert: c.name, actual, expected: c.state });
}

function checkMetric(c: MetricCheck, ctx: CheckContext): CheckResult {
  const label = `${c.name}${
    c.labels
      ? `{${Object.entries(c.labels)
          .map(([k, v]) => `${k}="${v}"`)
          .join(',')}}`
      : ''
  }`;
  const base = c.name.replace(/_(count|sum)$/, '');
  const part = c.name.endsWith('_count') ? 'count' : c.name.endsWith('_sum') ? 'sum' : undefined;
  let value: number | undefined;
  for (const t of targets(ctx.cluster)) {
    if (t.job !== c.job || !t.up) continue;
    for (const f of t.families()) {
      const histogram = f.type === 'histogram';
      if (f.name !== (histogram ? base : c.name) || (histogram && !part)) continue;
      for (const smp of f.samples) {
        if (c.labels && Object.entries(c.labels).some(([k, v]) => smp.labels[k] !== v)) continue;
        const v = 'value' in smp ? smp.value : part === 'count' ? smp.count : smp.sum;
        value = (value ?? 0) + v;
      }
    }
  }
  if (value === undefined) return fail(ctx, 'metricMissing', { job: c.job, metric: label });
  const bad =
    (c.equals !== undefined && value !== c.equals) ||
    (c.min !== undefined && value < c.min) ||
    (c.max !== undefined && value > c.max);
  if (!bad) return OK;
  const expected = [
    c.equals !== undefined ? `${c.equals}` : '',
    c.min !== undefined ? `≥ ${c.min}` : '',
    c.max !== undefined ? `≤ ${c.max}` : ''
  ]
    .filter(Boolean)
    .join(', ');
  return fail(ctx, 'metricValue', {
    job: c.job,
    metric: label,
    actual: Math.round(value * 1000) / 1000,
    expected
  });
}

function checkEtcd(c: EtcdCheck, ctx: CheckContext): CheckResult {
  const sp = staticPods(ctx.cluster);
  if (c.snapshot !== undefined) {
    const saved = !!sp && sp.hosts.some((h) => Object.values(sp.files(h)).some((f) => f.type === 'snapshot'));
    if (saved !== c.snapshot) return fail(ctx, c.snapshot ? 'etcdSnapshot' : 'etcdNoSnapshot', {});
  }
  if (c.restored !== undefined) {
    const restored = !!sp && sp.state.live !== 'initial';
    if (restored !== c.restored) return fail(ctx, c.restored ? 'etcdRestored' : 'etcdNotRestored', {});
  }
  if (c.quorum !== undefined && ctx.cluster.etcd.hasQuorum() !== c.quorum)
    return fail(ctx, c.quorum ? 'etcdQuorum' : 'etcdNoQuorum', {});
  if (c.members !== undefined) {
    const etcd = ctx.cluster.etcd;
    if (etcd.voters !== c.members || etcd.runningCount() !== c.members)
      return fail(ctx, 'etcdMembers', { actual: etcd.runningCount(), expected: c.members });
  }
  return OK;
}

/** Ready endpoints (`ip:port`) per Service port, from kube-proxy's view of Services and slices. */
function readyEndpoints(ports: ServicePortInfo[], ns: string, name: string): string[] {
  return ports
    .filter((p) => p.namespace === ns && p.name === name)
    .flatMap((p) => p.endpoints.filter((e) => e.ready).map((e) => `${p.port}>${endpointString(e)}`))
    .sort();
}

function checkKubeProxy(c: KubeProxyCheck, ctx: CheckContext): CheckResult {
  const proxies = ctx.cluster
    .componentsOfKind<KubeProxy>('kube-proxy')
    .filter((p) => !c.node || p.nodeName === c.node)
    .sort((a, b) => (a.nodeName < b.nodeName ? -1 : 1));
  if (!proxies.length) return fail(ctx, 'proxyMissing', { node: c.node ?? 'any node' });
  for (const p of proxies) {
    const node = p.nodeName;
    if (p.state.stopped) return fail(ctx, 'proxyStopped', { node });
    if (c.mode && p.state.programmedMode !== c.mode)
      return fail(ctx, 'proxyMode', { node, actual: p.state.programmedMode ?? 'no', expected: c.mode });
    if (c.minServicePorts !== undefined && p.state.ports.length < c.minServicePorts)
      return fail(ctx, 'proxyPorts', { node, actual: p.state.ports.length, expected: c.minServicePorts });
  }
  return OK;
}

function checkRouting(c: ServiceRoutingCheck, ctx: CheckContext): CheckResult {
  const ns = c.namespace ?? 'default';
  const service = `${ns}/${c.service}`;
  const api = ctx.cluster.api;
  const live = readyEndpoints(
    collectServicePorts(api.list('Service'), api.list('EndpointSlice')),
    ns,
    c.service
  );
  if (!live.length) return fail(ctx, 'routeNone', { service });
  const programmed = readyEndpoints(nodeProgram(ctx.cluster, c.node)?.ports ?? [], ns, c.service);
  const ep = (x: string) => x.split('>')[1];
  const stale = programmed.find((x) => !live.includes(x));
  if (stale) return fail(ctx, 'routeStale', { node: c.node, service, endpoint: ep(stale) });
  const missing = live.find((x) => !programmed.includes(x));
  if (missing) return fail(ctx, 'routeMissing', { node: c.node, service, endpoint: ep(missing) });
  return OK;
}

function valueAt(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function unschedulableMessage(pod: KubeObject): string {
  const c = (pod.status?.conditions ?? []).find((x: { type: string }) => x.type === 'PodScheduled');
  return c?.status === 'False' ? (c.message ?? '') : '';
}

/** The STATUS column of `kubectl get pods`, from api/corev1/podstatus.ts. */
export function podDisplayStatus(pod: KubeObject): string {
  return podStatusReason(pod);
}

function podReady(pod: KubeObject): boolean {
  return (pod.status?.conditions ?? []).some(
    (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True'
  );
}

/** Why one pod does not satisfy the conditions, or undefined if it does. */
function podMismatch(pod: KubeObject, c: PodCheck, ctx: CheckContext): CheckResult | undefined {
  const name = pod.metadata.name;
  if (c.phase && pod.status?.phase !== c.phase) {
    const why = pod.status?.phase === 'Pending' ? unschedulableMessage(pod) : '';
    return fail(ctx, 'podField', {
      pod: name,
      actual: pod.status?.phase ?? 'Pending',
      expected: c.phase,
      why
    });
  }
  if (c.status && podDisplayStatus(pod) !== c.status) {
    return fail(ctx, 'podField', { pod: name, actual: podDisplayStatus(pod), expected: c.status, why: '' });
  }
  if (c.ready !== undefined && podReady(pod) !== c.ready) {
    return fail(ctx, 'podField', {
      pod: name,
      actual: podReady(pod) ? 'Ready' : 'not Ready',
      expected: c.ready ? 'Ready' : 'not Ready',
      why: ''
    });
  }
  const node = pod.spec?.nodeName as string | undefined;
  if (c.node && node !== c.node)
    return fail(ctx, 'podNode', { pod: name, actual: node ?? '<none>', expected: c.node });
  if (c.notNode && node === c.notNode) return fail(ctx, 'podNotNode', { pod: name, node: c.notNode });
  if (c.nodeLabels) {
    const n = node ? ctx.cluster.api.tryGet<KubeObject>('Node', undefined, node) : undefined;
    const reqs = Object.entries(c.nodeLabels).map(([key, v]) => ({ key, op: '=' as const, values: [v] }));
    if (!n || !matchRequirements(reqs, n.metadata.labels)) {
      return fail(ctx, 'podNodeLabels', {
        pod: name,
        node: node ?? '<none>',
        labels: Object.entries(c.nodeLabels)
          .map(([k, v]) => `${k}=${v}`)
          .join(',')
      });
    }
  }
  return undefined;
}

function checkPod(c: PodCheck, ctx: CheckContext): CheckResult {
  const ns = c.namespace ?? 'default';
  if (c.name) {
    const pod = ctx.cluster.api.tryGet<KubeObject>('Pod', ns, c.name);
    if (c.absent) return pod ? fail(ctx, 'podExists', { pod: c.name }) : OK;
    if (!pod) return fail(ctx, 'podMissing', { pod: c.name });
    return podMismatch(pod, c, ctx) ?? OK;
  }
  const reqs = parseLabelSelector(c.selector);
  const pods = ctx.cluster.api
    .list<KubeObject>('Pod', { namespace: ns })
    .filter((p) => matchRequirements(reqs, p.metadata.labels))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  let good = 0;
  let firstBad: CheckResult | undefined;
  for (const p of pods) {
    const m = podMismatch(p, c, ctx);
    if (m) firstBad ??= m;
    else good++;
  }
  if (
    c.count !== undefined
      ? good === c.count
      : c.min !== undefined
        ? good >= c.min
        : pods.length > 0 && good === pods.length
  ) {
    return OK;
  }
  if (c.count === undefined && c.min === undefined && firstBad) return firstBad;
  return fail(ctx, 'podCount', {
    actual: good,
    selector: c.selector ?? '',
    expected: c.count ?? c.min ?? pods.length
  });
}

function checkNode(c: NodeCheck, ctx: CheckContext): CheckResult {
  const n = ctx.cluster.api.tryGet<KubeObject>('Node', undefined, c.name);
  if (c.exists === false) return n ? fail(ctx, 'nodeExists', { node: c.name }) : OK;
  if (!n) return fail(ctx, 'nodeMissing', { node: c.name });
  const cond = (type: string) => (n.status?.conditions ?? []).find((x: { type: string }) => x.type === type);
  if (c.ready) {
    const actual = cond('Ready')?.status ?? 'Unknown';
    if (actual !== c.ready)
      return fail(ctx, 'nodeCondition', { node: c.name, type: 'Ready', actual, expected: c.ready });
  }
  if (c.condition) {
    const x = cond(c.condition.type);
    if (!x || x.status !== c.condition.status || (c.condition.reason && x.reason !== c.condition.reason)) {
      return fail(ctx, 'nodeCondition', {
        node: c.name,
        type: c.condition.type,
        actual: `${x?.status ?? '<none>'}${c.condition.reason ? ` (${x?.reason ?? ''})` : ''}`,
        expected: `${c.condition.status}${c.condition.reason ? ` (${c.condition.reason})` : ''}`
      });
    }
  }
  if (c.taint) {
    const t = c.taint;
    const has = (n.spec?.taints ?? []).some(
      (x: { key: string; effect: string }) => x.key === t.key && (!t.effect || x.effect === t.effect)
    );
    const label = `${t.key}${t.effect ? `:${t.effect}` : ''}`;
    if (t.absent ? has : !has)
      return fail(ctx, t.absent ? 'nodeNoTaint' : 'nodeTaint', { node: c.name, taint: label });
  }
  if (c.unschedulable !== undefined && !!n.spec?.unschedulable !== c.unschedulable) {
    return fail(ctx, 'nodeField', {
      node: c.name,
      field: 'spec.unschedulable',
      actual: String(!!n.spec?.unschedulable),
      expected: String(c.unschedulable)
    });
  }
  for (const [k, v] of Object.entries(c.labels ?? {})) {
    if (n.metadata.labels?.[k] !== v) {
      return fail(ctx, 'nodeField', {
        node: c.name,
        field: `labels[${k}]`,
        actual: n.metadata.labels?.[k] ?? '<none>',
        expected: v
      });
    }
  }
  for (const field of ['allocatable', 'capacity'] as const) {
    for (const [res, q] of Object.entries(c[field] ?? {})) {
      const actual = n.status?.[field]?.[res];
      if (actual === undefined || parseQuantity(actual) !== parseQuantity(q)) {
        return fail(ctx, 'nodeField', {
          node: c.name,
          field: `status.${field}[${res}]`,
          actual: actual ?? '<none>',
          expected: q
        });
      }
    }
  }
  return OK;
}

function checkEvent(c: EventCheck, ctx: CheckContext): CheckResult {
  let before = c.before ? parseDuration(c.before) : Infinity;
  let after = c.after ? parseDuration(c.after) : -Infinity;
  if (c.afterFault) {
    const f = [...ctx.cluster.faultLog]
      .reverse()
      .find(
        (x) =>
          x.action === c.afterFault!.action && (!c.afterFault!.target || x.target === c.afterFault!.target)
      );
    if (!f) return fail(ctx, 'noFault', { action: c.afterFault.action, target: c.afterFault.target ?? '' });
    after = Math.max(after, f.t - 1);
    if (c.within) before = Math.min(before, f.t + parseDuration(c.within) + 1);
  }
  const objMatch = (o: string) =>
    !c.object || (c.object.endsWith('*') ? o.startsWith(c.object.slice(0, -1)) : o === c.object);
  const n = ctx.cluster.eventLog.filter(
    (e) =>
      e.reason === c.reason &&
      objMatch(e.object) &&
      (!c.type || e.type === c.type) &&
      (!c.messageContains || e.message.includes(c.messageContains)) &&
      e.t < before &&
      e.t > after
  ).length;
  if (n >= (c.min ?? 1)) return OK;
  const window = [
    c.after ? `after ${c.after}` : '',
    c.before ? `before ${c.before}` : '',
    c.afterFault
      ? `within ${c.within ?? 'any time'} of ${c.afterFault.action}${c.afterFault.target ? ` ${c.afterFault.target}` : ''}`
      : ''
  ]
    .filter(Boolean)
    .join(' ');
  return fail(ctx, 'event', { reason: c.reason, object: c.object ?? '', window });
}

/** A short English rendering of a check (used in `not` failures and in docs/tools). */
export function describeCheck(c: Check): string {
  const [k, v] = Object.entries(c)[0];
  return `${k} ${JSON.stringify(v)}`;
}

export { fieldValue };
