/**
 * `nodeplane schedule -f <manifests.yaml> [--config <KubeSchedulerConfiguration.yaml>]
 * [--output json|text]`: schedule the pending Pods of a manifest set against its Nodes with the
 * simulated kube-scheduler and show every plugin's verdict per node.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, parseAllDocuments } from 'yaml';
import { tryParseQuantity } from '../src/lib/sim/api/quantity';
import { findExcessiveNesting, tooLarge } from '../src/lib/sim/manifests/depth';
import type { KubeObject } from '../src/lib/sim/api/types';
import { minorVersion, DEFAULT_KUBERNETES_VERSION } from '../src/lib/sim/config';
import {
  parseSchedulerConfig,
  SchedulerConfigError,
  type SchedulerConfig
} from '../src/lib/sim/scheduler/config';
import { simulateScheduling, type PodResult } from '../src/lib/sim/scheduler/simulate';

export interface Output {
  stdout(s: string): void;
  stderr(s: string): void;
}

const USAGE =
  'usage: nodeplane schedule -f <manifests.yaml> [--config <KubeSchedulerConfiguration.yaml>] [--output json|text] [--kubernetes-version v1.35] [--seed N]';

const KINDS = ['Node', 'Pod', 'Service', 'ReplicaSet', 'StatefulSet', 'Namespace', 'PriorityClass'];

class InputError extends Error {}

interface Args {
  files: string[];
  config?: string;
  output: 'json' | 'text';
  version: string;
  seed: number;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { files: [], output: 'text', version: DEFAULT_KUBERNETES_VERSION, seed: 1 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new InputError(`flag needs an argument: ${flag}\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case '-f':
      case '--filename':
        a.files.push(value());
        break;
      case '--config':
        a.config = value();
        break;
      case '-o':
      case '--output': {
        const o = value();
        if (o !== 'json' && o !== 'text')
          throw new InputError(`--output: unsupported format "${o}": use json or text`);
        a.output = o;
        break;
      }
      case '--kubernetes-version':
        a.version = value();
        break;
      case '--seed':
        a.seed = parseInt(value(), 10);
        break;
      default:
        throw new InputError(`unknown flag: ${arg}\n${USAGE}`);
    }
  }
  if (!a.files.length) throw new InputError(`-f is required\n${USAGE}`);
  return a;
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(
      `${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`
    );
  }
}

interface Doc {
  obj: KubeObject;
  where: string;
}

function loadManifests(file: string): Doc[] {
  const text = readText(file);
  const large = tooLarge(text);
  if (large) throw new InputError(`${file}: line 1: ${large}`);
  const deep = findExcessiveNesting(text);
  if (deep) throw new InputError(`${file}: line ${deep.line}: ${deep.message}`);
  const lc = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lc });
  const out: Doc[] = [];
  let n = 0;
  for (const d of Array.isArray(docs) ? docs : [docs]) {
    n++;
    if (d.errors.length) {
      const e = d.errors[0];
      const pos = lc.linePos(e.pos[0]);
      throw new InputError(`${file}: document ${n}: line ${pos.line}: ${e.message.split('\n')[0]}`);
    }
    let obj: unknown;
    try {
      obj = d.toJS({ maxAliasCount: 100 }) as unknown;
    } catch (e) {
      const pos = lc.linePos(d.range[0]);
      throw new InputError(
        `${file}: document ${n}: line ${pos.line}: ${(e as Error).message.split('\n')[0]}`
      );
    }
    if (obj === null || obj === undefined) {
      n--;
      continue;
    }
    const label = (o: Record<string, unknown>): string => {
      const md = o.metadata as { name?: string } | undefined;
      return `${String(o.kind ?? '?')}/${md?.name ?? '?'}`;
    };
    if (typeof obj !== 'object' || Array.isArray(obj))
      throw new InputError(`${file}: document ${n}: expected a Kubernetes object`);
    const o = obj as Record<string, unknown>;
    const where = `${file}: document ${n} (${label(o)})`;
    if (typeof o.kind !== 'string') throw new InputError(`${where}: kind: Required value`);
    if (!KINDS.includes(o.kind))
      throw new InputError(
        `${where}: kind: Unsupported value: "${o.kind}": supported values: ${KINDS.map((k) => `"${k}"`).join(', ')}`
      );
    const md = o.metadata as Record<string, unknown> | undefined;
    if (!md || typeof md.name !== 'string' || !md.name)
      throw new InputError(`${where}: metadata.name: Required value`);
    if (o.kind === 'List') continue;
    out.push({ obj: o as KubeObject, where });
  }
  return out;
}

function checkQuantities(list: unknown, field: string, where: string): void {
  if (list === undefined) return;
  if (!list || typeof list !== 'object')
    throw new InputError(`${where}: ${field}: Invalid value: expected a map of quantities`);
  for (const [k, v] of Object.entries(list)) {
    if (tryParseQuantity(v) === undefined) {
      throw new InputError(
        `${where}: ${field}.${k}: Invalid value: ${JSON.stringify(v)}: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`
      );
    }
  }
}

function validate(docs: Doc[]): void {
  const seen = new Set<string>();
  const classes = new Map<string, number>();
  for (const d of docs) {
    const { obj, where } = d;
    const id = `${obj.kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
    if (seen.has(id))
      throw new InputError(`${where}: metadata.name: Duplicate value: "${obj.metadata.name}"`);
    seen.add(id);
    if (obj.kind === 'PriorityClass') {
      if (typeof obj.value !== 'number' || !Number.isInteger(obj.value))
        throw new InputError(`${where}: value: Required value: an integer`);
      classes.set(obj.metadata.name, obj.value);
    }
    if (obj.kind === 'Node') {
      checkQuantities(obj.status?.allocatable, 'status.allocatable', where);
      checkQuantities(obj.status?.capacity, 'status.capacity', where);
      for (const [i, t] of ((obj.spec?.taints ?? []) as { key?: string; effect?: string }[]).entries()) {
        if (!t.key) throw new InputError(`${where}: spec.taints[${i}].key: Required value`);
        if (!['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect ?? '')) {
          throw new InputError(
            `${where}: spec.taints[${i}].effect: Unsupported value: "${t.effect ?? ''}": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`
          );
        }
      }
    }
  }
  for (const d of docs) {
    const { obj, where } = d;
    if (obj.kind !== 'Pod') continue;
    const containers = obj.spec?.containers;
    if (!Array.isArray(containers) || !containers.length)
      throw new InputError(`${where}: spec.containers: Required value`);
    for (const group of ['initContainers', 'containers'] as const) {
      ((obj.spec?.[group] ?? []) as { resources?: { requests?: unknown } }[]).forEach((c, i) =>
        checkQuantities(c.resources?.requests, `spec.${group}[${i}].resources.requests`, where)
      );
    }
    checkQuantities(obj.spec?.overhead, 'spec.overhead', where);
    for (const [i, t] of (
      (obj.spec?.tolerations ?? []) as { operator?: string; value?: string }[]
    ).entries()) {
      if (t.operator && t.operator !== 'Exists' && t.operator !== 'Equal') {
        throw new InputError(
          `${where}: spec.tolerations[${i}].operator: Unsupported value: "${t.operator}": supported values: "Equal", "Exists"`
        );
      }
      if (t.operator === 'Exists' && t.value) {
        throw new InputError(
          `${where}: spec.tolerations[${i}].operator: Invalid value: "${t.value}": value must be empty when \`operator\` is 'Exists'`
        );
      }
    }
    // The Priority admission plugin resolves priorityClassName into spec.priority.
    const pcn = obj.spec.priorityClassName;
    if (pcn && obj.spec.priority === undefined) {
      const builtin: Record<string, number> = {
        'system-cluster-critical': 2000000000,
        'system-node-critical': 2000001000
      };
      const v = classes.get(pcn) ?? builtin[pcn];
      if (v === undefined)
        throw new InputError(
          `${where}: spec.priorityClassName: Not found: no PriorityClass with name ${pcn} was found`
        );
      obj.spec.priority = v;
    } else if (obj.spec.priority === undefined) {
      const def = docs.find((x) => x.obj.kind === 'PriorityClass' && x.obj.globalDefault === true);
      obj.spec.priority = def ? (def.obj.value as number) : 0;
    }
    obj.metadata.namespace ??= 'default';
  }
}

export function runSchedule(argv: string[], out: Output): number {
  let args: Args;
  let config: SchedulerConfig | undefined;
  let docs: Doc[] = [];
  let minor: number;
  try {
    args = parseArgs(argv);
    minor = minorVersion(args.version);
    for (const f of args.files) docs.push(...loadManifests(f));
    docs = docs.map((d) => ({ ...d, obj: structuredClone(d.obj) }));
    validate(docs);
    if (args.config) {
      try {
        config = parseSchedulerConfig(readText(args.config), args.config);
      } catch (e) {
        if (e instanceof SchedulerConfigError)
          throw new InputError(e.errors.map((x) => `${args.config}: ${x}`).join('\n'));
        throw e;
      }
    }
  } catch (e) {
    if (
      e instanceof InputError ||
      (e instanceof Error && e.message.startsWith('unsupported kubernetesVersion'))
    ) {
      out.stderr(`error: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const of = (k: string): KubeObject[] => docs.filter((d) => d.obj.kind === k).map((d) => d.obj);
  const result = simulateScheduling({
    nodes: of('Node'),
    pods: of('Pod'),
    services: of('Service'),
    replicaSets: of('ReplicaSet'),
    statefulSets: of('StatefulSet'),
    namespaces: of('Namespace'),
    config,
    minor,
    seed: args.seed,
    reportExisting: true
  });
  if (args.output === 'json') {
    const pods = result.pods.map((p) => ({
      pod: p.pod,
      ...(p.existing ? { existing: true } : {}),
      selectedNode: p.selectedNode,
      message: p.message,
      ...(p.preemption ? { preemption: p.preemption } : {}),
      nodes: p.nodes
    }));
    out.stdout(JSON.stringify({ pods }, null, 2) + '\n');
  } else out.stdout(formatText(result.pods));
  return 0;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return (
    rows
      .map((r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
          .join('   ')
          .trimEnd()
      )
      .join('\n') + '\n'
  );
}

export function formatText(pods: PodResult[]): string {
  let s = '';
  for (const p of pods) {
    if (s) s += '\n';
    s += p.existing
      ? p.selectedNode
        ? `Pod ${p.pod}: already on ${p.selectedNode}, which it fits\n`
        : `Pod ${p.pod}: already assigned, but fits no node\n  ${p.message}\n`
      : p.selectedNode
        ? `Pod ${p.pod}: scheduled on ${p.selectedNode}\n`
        : `Pod ${p.pod}: not scheduled\n  ${p.message}\n`;
    if (p.preemption) {
      s += `  preemption: nominated ${p.preemption.nominatedNodeName}, victims ${p.preemption.victims.join(', ')}\n`;
      s += `  first attempt: ${p.preemption.message}\n`;
    }
    const names = Object.keys(p.nodes);
    if (!names.length) continue;
    const scorePlugins = [...new Set(names.flatMap((n) => Object.keys(p.nodes[n].score)))];
    const rows: string[][] = [['NODE', 'FILTER', ...scorePlugins, 'FINAL']];
    for (const n of names) {
      const e = p.nodes[n];
      const failed = Object.entries(e.filter).find(([, v]) => v.code !== 'Success' && v.code !== 'Skip');
      const filter = failed ? `${failed[0]}: ${failed[1].reasons.join(', ')}` : 'passed';
      rows.push([
        n + (n === p.selectedNode ? ' *' : ''),
        filter,
        ...scorePlugins.map((sp) =>
          e.score[sp] === undefined ? '-' : e.score[sp] === null ? 'skip' : String(e.score[sp])
        ),
        e.finalScore === null ? '-' : String(e.finalScore)
      ]);
    }
    s += table(rows);
  }
  return s;
}

const isMain =
  typeof process !== 'undefined' &&
  process.argv[1] &&
  import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  process.exitCode = runSchedule(process.argv.slice(2), {
    stdout: (x) => process.stdout.write(x),
    stderr: (x) => process.stderr.write(x)
  });
}
