/**
 * What a task's check looks for, in plain words for the learner ("What is checked?" under a task).
 * Generated from the check's predicate kind and arguments (checks.ts), in each UI language, so a
 * lesson author writes the check once and the learner reads it in their language. Kubernetes
 * values (Running, NoExecute, TaintManagerEviction) stay as Kubernetes prints them.
 */
import type { Check, EventCheck, NodeCheck, PodCheck } from './checks';
import type { Language } from './format';

type Words = {
  all: string;
  any: string;
  not: (inner: string) => string;
  podNamed: (name: string) => string;
  podsSelected: (selector: string, n?: { min?: number; count?: number }) => string;
  podAbsent: (what: string) => string;
  phase: (v: string) => string;
  status: (v: string) => string;
  ready: (v: boolean) => string;
  onNode: (n: string) => string;
  notOnNode: (n: string) => string;
  onLabelled: (l: string) => string;
  nodeNamed: (n: string) => string;
  nodeAbsent: (n: string) => string;
  nodeReady: (v: string) => string;
  nodeCondition: (type: string, status: string, reason?: string) => string;
  taint: (t: string, absent: boolean) => string;
  unschedulable: (v: boolean) => string;
  label: (k: string, v: string) => string;
  resource: (field: 'allocatable' | 'capacity', res: string, q: string) => string;
  event: (reason: string) => string;
  eventFor: (object: string) => string;
  eventType: (t: string) => string;
  eventMessage: (m: string) => string;
  eventAfter: (d: string) => string;
  eventBefore: (d: string) => string;
  eventAfterFault: (action: string, target?: string, within?: string) => string;
  eventMin: (n: number) => string;
  noPending: (ns?: string) => string;
  question: string;
  lease: (node: string, within: string) => string;
  objectEquals: (o: string, path: string, v: string) => string;
  objectExists: (o: string, path: string, exists: boolean) => string;
  routing: (node: string, service: string) => string;
  kubeProxy: (node: string | undefined, mode: string | undefined, min: number | undefined) => string;
  alert: (name: string, state: string, severity?: string) => string;
  metric: (job: string, metric: string, expected: string) => string;
};

const podsCountEn = (n?: { min?: number; count?: number }) =>
  n?.count !== undefined
    ? `exactly ${n.count} of them`
    : n?.min !== undefined
      ? `at least ${n.min} of them`
      : 'every one of them';

/** Russian plural form: one (1, 21), few (2–4, 22–24), many (5–20, 25–30, …). */
export function ruPlural(n: number, one: string, few: string, many: string): string {
  const m10 = n % 10;
  const m100 = n % 100;
  if (m10 === 1 && m100 !== 11) return one;
  if (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14)) return few;
  return many;
}

const WORDS: Record<Language, Words> = {
  en: {
    all: 'All of these:',
    any: 'Any one of these:',
    not: (inner) => `This is not the case: ${inner}`,
    podNamed: (name) => `Pod ${name}`,
    podsSelected: (selector, n) => `Pods labelled ${selector} (${podsCountEn(n)})`,
    podAbsent: (what) => `${what} no longer exists`,
    phase: (v) => `phase is ${v}`,
    status: (v) => `STATUS in kubectl get pods is ${v}`,
    ready: (v) => (v ? 'is Ready' : 'is not Ready'),
    onNode: (n) => `runs on ${n}`,
    notOnNode: (n) => `does not run on ${n}`,
    onLabelled: (l) => `runs on a node labelled ${l}`,
    nodeNamed: (n) => `Node ${n}`,
    nodeAbsent: (n) => `Node ${n} no longer exists`,
    nodeReady: (v) => `Ready condition is ${v}`,
    nodeCondition: (type, status, reason) =>
      `${type} condition is ${status}${reason ? ` with reason ${reason}` : ''}`,
    taint: (t, absent) => (absent ? `does not have the taint ${t}` : `has the taint ${t}`),
    unschedulable: (v) => (v ? 'is cordoned (unschedulable)' : 'is not cordoned'),
    label: (k, v) => `has the label ${k}=${v}`,
    resource: (field, res, q) => `reports ${field} ${res} of ${q}`,
    event: (reason) => `An event with reason ${reason}`,
    eventFor: (object) => `about ${object}`,
    eventType: (t) => `of type ${t}`,
    eventMessage: (m) => `whose message contains “${m}”`,
    eventAfter: (d) => `after ${d} of lesson time`,
    eventBefore: (d) => `before ${d} of lesson time`,
    eventAfterFault: (action, target, within) =>
      `${within ? `within ${within} ` : ''}after you apply ${action}${target ? ` to ${target}` : ''}`,
    eventMin: (n) => (n === 1 ? '' : `at least ${n} times`),
    noPending: (ns) => `No pod${ns ? ` in namespace ${ns}` : ''} is left Pending without a node`,
    question: 'You answer the question in the lesson text correctly',
    lease: (node, within) => `The kubelet on ${node} renewed its Lease within the last ${within}`,
    objectEquals: (o, path, v) => `${o} has ${path} set to ${v}`,
    objectExists: (o, path, exists) => (exists ? `${o} has ${path} set` : `${o} has no ${path}`),
    routing: (node, service) =>
      `kube-proxy on ${node} sends Service ${service} to exactly its ready endpoints`,
    kubeProxy: (node, mode, min) =>
      `kube-proxy on ${node ?? 'every node'} is running` +
      [
        mode ? ` with its rules in ${mode} mode` : '',
        min !== undefined ? ` for at least ${min} service ports` : ''
      ]
        .filter(Boolean)
        .join(','),
    alert: (name, state, severity) =>
      state === 'inactive'
        ? `the alert ${name}${severity ? ` (${severity})` : ''} is neither pending nor firing`
        : `the alert ${name}${severity ? ` (${severity})` : ''} is ${state}`,
    metric: (job, metric, expected) => `${job}'s /metrics shows ${metric} ${expected}`
  },
  ru: {
    all: 'Всё это сразу:',
    any: 'Любое из этого:',
    not: (inner) => `Это не так: ${inner}`,
    podNamed: (name) => `Pod ${name}`,
    podsSelected: (selector, n) =>
      `Pod'ы с метками ${selector} (${
        n?.count !== undefined ? `ровно ${n.count}` : n?.min !== undefined ? `не меньше ${n.min}` : 'все'
      })`,
    podAbsent: (what) => `${what} больше не существует`,
    phase: (v) => `фаза ${v}`,
    status: (v) => `STATUS в kubectl get pods — ${v}`,
    ready: (v) => (v ? 'в состоянии Ready' : 'не в состоянии Ready'),
    onNode: (n) => `работает на узле ${n}`,
    notOnNode: (n) => `не работает на узле ${n}`,
    onLabelled: (l) => `работает на узле с метками ${l}`,
    nodeNamed: (n) => `Узел ${n}`,
    nodeAbsent: (n) => `Узла ${n} больше нет`,
    nodeReady: (v) => `условие Ready равно ${v}`,
    nodeCondition: (type, status, reason) =>
      `условие ${type} равно ${status}${reason ? ` с причиной ${reason}` : ''}`,
    taint: (t, absent) => (absent ? `без taint ${t}` : `с taint ${t}`),
    unschedulable: (v) => (v ? 'закрыт для планирования (cordon)' : 'открыт для планирования'),
    label: (k, v) => `с меткой ${k}=${v}`,
    resource: (field, res, q) => `сообщает ${field} ${res} = ${q}`,
    event: (reason) => `Событие с причиной ${reason}`,
    eventFor: (object) => `об объекте ${object}`,
    eventType: (t) => `типа ${t}`,
    eventMessage: (m) => `в сообщении которого есть «${m}»`,
    eventAfter: (d) => `позже ${d} от начала урока`,
    eventBefore: (d) => `раньше ${d} от начала урока`,
    eventAfterFault: (action, target, within) =>
      `${within ? `в течение ${within} ` : ''}после того как вы примените ${action}${target ? ` к ${target}` : ''}`,
    eventMin: (n) => (n === 1 ? '' : `не меньше ${n} ${ruPlural(n, 'раза', 'раз', 'раз')}`),
    noPending: (ns) => `Ни один Pod${ns ? ` в пространстве имён ${ns}` : ''} не остаётся в Pending без узла`,
    question: 'Вы верно ответили на вопрос в тексте урока',
    lease: (node, within) => `kubelet на ${node} обновил свой Lease за последние ${within}`,
    objectEquals: (o, path, v) => `У ${o} поле ${path} равно ${v}`,
    objectExists: (o, path, exists) => (exists ? `У ${o} задано поле ${path}` : `У ${o} нет поля ${path}`),
    routing: (node, service) =>
      `kube-proxy на ${node} направляет Service ${service} ровно на его готовые эндпоинты`,
    kubeProxy: (node, mode, min) =>
      `kube-proxy ${node ? `на ${node}` : 'на каждом узле'} запущен` +
      [
        mode ? ` и держит правила в режиме ${mode}` : '',
        min !== undefined ? ` не меньше чем для ${min} портов Service` : ''
      ]
        .filter(Boolean)
        .join(','),
    alert: (name, state, severity) => {
      const st: Record<string, string> = {
        pending: 'ожидает (pending)',
        firing: 'сработал (firing)',
        resolved: 'снят (resolved)',
        inactive: 'не ожидает и не сработал'
      };
      return `Алерт ${name}${severity ? ` (${severity})` : ''}: ${st[state] ?? state}`;
    },
    metric: (job, metric, expected) => `В /metrics у ${job} значение ${metric} ${expected}`
  }
};

/** One line of the "What is checked?" list; nested lines are indented under a group line. */
export interface CheckLine {
  depth: number;
  text: string;
}

function sentence(head: string, parts: string[], lang: Language): string {
  const p = parts.filter(Boolean);
  if (!p.length) return head;
  return `${head}: ${p.join(lang === 'ru' ? ', ' : ', ')}`;
}

function pod(c: PodCheck, w: Words, lang: Language): string {
  const head = c.name
    ? w.podNamed(c.namespace && c.namespace !== 'default' ? `${c.namespace}/${c.name}` : c.name)
    : w.podsSelected(c.selector ?? '', { min: c.min, count: c.count });
  if (c.absent) return w.podAbsent(head);
  return sentence(
    head,
    [
      c.phase ? w.phase(c.phase) : '',
      c.status ? w.status(c.status) : '',
      c.ready !== undefined ? w.ready(c.ready) : '',
      c.node ? w.onNode(c.node) : '',
      c.notNode ? w.notOnNode(c.notNode) : '',
      c.nodeLabels
        ? w.onLabelled(
            Object.entries(c.nodeLabels)
              .map(([k, v]) => `${k}=${v}`)
              .join(',')
          )
        : ''
    ],
    lang
  );
}

function node(c: NodeCheck, w: Words, lang: Language): string {
  if (c.exists === false) return w.nodeAbsent(c.name);
  return sentence(
    w.nodeNamed(c.name),
    [
      c.ready ? w.nodeReady(c.ready) : '',
      c.condition ? w.nodeCondition(c.condition.type, c.condition.status, c.condition.reason) : '',
      c.taint ? w.taint(`${c.taint.key}${c.taint.effect ? `:${c.taint.effect}` : ''}`, !!c.taint.absent) : '',
      c.unschedulable !== undefined ? w.unschedulable(c.unschedulable) : '',
      ...Object.entries(c.labels ?? {}).map(([k, v]) => w.label(k, v)),
      ...(['allocatable', 'capacity'] as const).flatMap((f) =>
        Object.entries(c[f] ?? {}).map(([r, q]) => w.resource(f, r, q))
      )
    ],
    lang
  );
}

function event(c: EventCheck, w: Words, lang: Language): string {
  return sentence(
    w.event(c.reason),
    [
      c.object ? w.eventFor(c.object) : '',
      c.type ? w.eventType(c.type) : '',
      c.messageContains ? w.eventMessage(c.messageContains) : '',
      c.after ? w.eventAfter(c.after) : '',
      c.before ? w.eventBefore(c.before) : '',
      c.afterFault ? w.eventAfterFault(c.afterFault.action, c.afterFault.target, c.within) : '',
      c.min !== undefined ? w.eventMin(c.min) : ''
    ],
    lang
  );
}

/** The check as plain lines in `lang` (a group `all`/`any` puts its parts one level deeper). */
export function explainCheck(check: Check, lang: Language, depth = 0): CheckLine[] {
  const w = WORDS[lang];
  if ('all' in check || 'any' in check) {
    const parts = 'all' in check ? check.all : check.any;
    if (parts.length === 1) return explainCheck(parts[0], lang, depth);
    // A task is already "all of" its lines, so a top-level `all` needs no group line.
    if ('all' in check && depth === 0) return parts.flatMap((c) => explainCheck(c, lang, 0));
    return [
      { depth, text: 'all' in check ? w.all : w.any },
      ...parts.flatMap((c) => explainCheck(c, lang, depth + 1))
    ];
  }
  if ('not' in check) {
    const inner = explainCheck(check.not, lang, depth + 1);
    return inner.length === 1
      ? [{ depth, text: w.not(lowerFirst(inner[0].text, lang)) }]
      : [{ depth, text: w.not('') }, ...inner];
  }
  const line = (text: string): CheckLine[] => [{ depth, text }];
  if ('pod' in check) return line(pod(check.pod, w, lang));
  if ('node' in check) return line(node(check.node, w, lang));
  if ('event' in check) return line(event(check.event, w, lang));
  if ('noPendingPods' in check)
    return line(w.noPending(check.noPendingPods === true ? undefined : check.noPendingPods.namespace));
  if ('question' in check) return line(w.question);
  if ('lease' in check) return line(w.lease(check.lease.node, check.lease.renewedWithin));
  if ('object' in check) {
    const o = check.object;
    const label = `${o.kind}/${o.name}`;
    return line(
      o.equals !== undefined
        ? w.objectEquals(label, o.path, String(o.equals))
        : w.objectExists(label, o.path, o.exists !== false)
    );
  }
  if ('serviceRouting' in check) {
    const r = check.serviceRouting;
    return line(w.routing(r.node, `${r.namespace ?? 'default'}/${r.service}`));
  }
  if ('kubeProxy' in check) {
    const k = check.kubeProxy;
    return line(w.kubeProxy(k.node, k.mode, k.minServicePorts));
  }
  if ('alert' in check) return line(w.alert(check.alert.name, check.alert.state, check.alert.severity));
  if ('metric' in check) {
    const m = check.metric;
    const sel = m.labels
      ? `{${Object.entries(m.labels)
          .map(([k, v]) => `${k}="${v}"`)
          .join(',')}}`
      : '';
    const expected = [
      m.equals !== undefined ? `= ${m.equals}` : '',
      m.min !== undefined ? `≥ ${m.min}` : '',
      m.max !== undefined ? `≤ ${m.max}` : ''
    ]
      .filter(Boolean)
      .join(', ');
    return line(w.metric(m.job, m.name + sel, expected));
  }
  return [];
}

function lowerFirst(s: string, lang: Language): string {
  // "Pod web" / "Node worker-2" keep their capital (a Kubernetes kind); other sentences do not.
  if (/^(Pod|Node|Service|kube|Lease)/.test(s) || lang === 'ru') return s;
  return s.charAt(0).toLowerCase() + s.slice(1);
}
