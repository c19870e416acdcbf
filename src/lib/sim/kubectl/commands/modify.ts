/** Verbs that change one field of existing objects: delete, label, annotate, taint, cordon, uncordon, scale. */
import type { ResourceInfo } from '../../api/resources';
import { clone, type KubeObject } from '../../api/types';
import { parseFlags, str, bool } from '../args';
import type { ConsoleResult } from '../console';
import {
  apiGet,
  apiList,
  CommandError,
  errorText,
  KUBECTL,
  qualified,
  resolveResource,
  type KubectlContext
} from '../context';
import { resolveTargets } from './get';
import { taintString } from '../describe/writer';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

interface Selected {
  r: ResourceInfo;
  obj: KubeObject;
}

/** Objects named by `TYPE NAME...`, `TYPE/NAME...`, or `TYPE -l selector` / `--all`. */
function select(
  ctx: KubectlContext,
  positional: string[],
  p: ReturnType<typeof parseFlags>
): {
  items: Selected[];
  errors: string;
} {
  const targets = resolveTargets(positional);
  const ns = str(p, 'namespace') ?? 'default';
  const items: Selected[] = [];
  let errors = '';
  for (const t of targets) {
    if (t.names.length) {
      for (const n of t.names) {
        try {
          items.push({ r: t.r, obj: apiGet(ctx, t.r, ns, n) });
        } catch (e) {
          errors += errorText(e) + '\n';
        }
      }
    } else if (str(p, 'selector') !== undefined || bool(p, 'all') || str(p, 'field-selector') !== undefined) {
      for (const obj of apiList(ctx, t.r.kind, {
        namespace: t.r.namespaced && !bool(p, 'all-namespaces') ? ns : undefined,
        labelSelector: str(p, 'selector'),
        fieldSelector: str(p, 'field-selector')
      })) {
        items.push({ r: t.r, obj });
      }
    } else {
      throw new CommandError(`error: resource(s) were provided, but no name was specified`);
    }
  }
  return { items, errors };
}

const id = (s: Selected) => `${qualified(s.r)}/${s.obj.metadata.name}`;

export function deleteCmd(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const p = parseFlags(argv, [
    { name: 'grace-period', value: true },
    { name: 'force' },
    { name: 'now' },
    { name: 'all' },
    { name: 'wait', value: true },
    { name: 'ignore-not-found' },
    { name: 'filename', short: 'f', value: true }
  ]);
  let grace = str(p, 'grace-period') !== undefined ? parseInt(str(p, 'grace-period')!, 10) : undefined;
  if (bool(p, 'now')) grace = 1;
  const force = bool(p, 'force');
  let stderr = '';
  if (force && grace === 0) {
    stderr +=
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n';
  } else if (grace === 0) {
    // kubectl: --grace-period=0 without --force is treated as 1.
    grace = 1;
  }
  const { items, errors } = select(ctx, p.positional, p);
  stderr += bool(p, 'ignore-not-found') ? '' : errors;
  let stdout = '';
  if (!items.length && !errors && !stdout) {
    return { stdout: '', stderr: 'No resources found\n', exitCode: 0 };
  }
  for (const s of items) {
    try {
      ctx.cluster.api.delete(
        s.r.kind,
        s.obj.metadata.namespace,
        s.obj.metadata.name,
        grace !== undefined ? { gracePeriodSeconds: grace } : {},
        KUBECTL
      );
      const verb = force && grace === 0 ? 'force deleted' : 'deleted';
      // Since kubectl v1.34 namespaced objects name their namespace.
      const where = s.r.namespaced ? ` from ${s.obj.metadata.namespace} namespace` : '';
      stdout += `${qualified(s.r)} "${s.obj.metadata.name}" ${verb}${where}\n`;
    } catch (e) {
      stderr += errorText(e) + '\n';
    }
  }
  return { stdout, stderr, exitCode: stderr && !stderr.startsWith('Warning') ? 1 : 0 };
}

/** `k=v`, `k-` arguments of label/annotate. */
function splitKeyValues(args: string[]): { set: Record<string, string>; remove: string[]; rest: string[] } {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  const rest: string[] = [];
  for (const a of args) {
    if (a.includes('=')) {
      const i = a.indexOf('=');
      set[a.slice(0, i)] = a.slice(i + 1);
    } else if (a.endsWith('-') && rest.length) remove.push(a.slice(0, -1));
    else rest.push(a);
  }
  return { set, remove, rest };
}

function metaCommand(ctx: KubectlContext, argv: string[], field: 'labels' | 'annotations'): ConsoleResult {
  const p = parseFlags(argv, [{ name: 'overwrite' }, { name: 'all' }, { name: 'list' }]);
  const { set, remove, rest } = splitKeyValues(p.positional);
  const { items, errors } = select(ctx, rest, p);
  let stdout = '';
  let stderr = errors;
  for (const s of items) {
    const cur = (s.obj.metadata[field] ?? {}) as Record<string, string>;
    if (!bool(p, 'overwrite')) {
      const clash = Object.keys(set).find((k) => k in cur && cur[k] !== set[k]);
      if (clash) {
        stderr +=
          field === 'labels'
            ? `error: '${clash}' already has a value (${cur[clash]}), and --overwrite is false\n`
            : `error: --overwrite is false but found the following declared annotation(s): '${clash}' already has a value (${cur[clash]})\n`;
        continue;
      }
    }
    const patch: Record<string, string | null> = { ...set };
    for (const k of remove) patch[k] = null;
    const changed = Object.entries(set).some(([k, v]) => cur[k] !== v) || remove.some((k) => k in cur);
    try {
      if (changed) {
        ctx.cluster.api.patch(
          s.r.kind,
          s.obj.metadata.namespace,
          s.obj.metadata.name,
          { metadata: { [field]: patch } },
          KUBECTL
        );
      }
      const verb = field === 'labels' ? 'labeled' : 'annotated';
      const done = !changed ? 'not ' + verb : Object.keys(set).length ? verb : 'un' + verb;
      stdout += `${id(s)} ${done}\n`;
    } catch (e) {
      stderr += errorText(e) + '\n';
    }
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

export const label = (ctx: KubectlContext, argv: string[]) => metaCommand(ctx, argv, 'labels');
export const annotate = (ctx: KubectlContext, argv: string[]) => metaCommand(ctx, argv, 'annotations');

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** `kubectl taint nodes NAME key=value:Effect`, `key:Effect-`, `key-`. */
export function taint(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const p = parseFlags(argv, [{ name: 'overwrite' }, { name: 'all' }]);
  const [type, ...rest] = p.positional;
  if (!type) throw new CommandError('error: at least one taint update is required');
  const r = resolveResource(type.split('/')[0]);
  if (r.kind !== 'Node')
    throw new CommandError(`error: invalid resource type ${type}, only node types are supported`);
  const names = type.includes('/') ? [type.split('/')[1]] : [];
  const specs: string[] = [];
  for (const a of rest) (a.includes(':') || a.includes('=') || a.endsWith('-') ? specs : names).push(a);
  if (!specs.length) throw new CommandError('error: at least one taint update is required');
  const add: Any[] = [];
  const del: { key: string; effect?: string }[] = [];
  for (const s of specs) {
    if (s.endsWith('-')) {
      const [key, effect] = s.slice(0, -1).split(':');
      del.push({ key, effect });
      continue;
    }
    const m = /^([^=:]+)(?:=([^:]*))?:(.+)$/.exec(s);
    if (!m) throw new CommandError(`error: invalid taint spec: ${s}, unknown taint spec format`);
    if (!EFFECTS.includes(m[3])) {
      throw new CommandError(`error: invalid taint effect: ${m[3]}, unsupported taint effect`);
    }
    add.push({ key: m[1], ...(m[2] ? { value: m[2] } : {}), effect: m[3] });
  }
  const nodes = bool(p, 'all')
    ? apiList(ctx, 'Node')
    : names.map((n) => apiGet<KubeObject>(ctx, r, undefined, n));
  let stdout = '';
  let stderr = '';
  for (const node of nodes) {
    let taints: Any[] = clone(node.spec?.taints ?? []) as Any[];
    for (const d of del) {
      const before = taints.length;
      taints = taints.filter((t) => !(t.key === d.key && (!d.effect || t.effect === d.effect)));
      if (taints.length === before) {
        stderr += `error: taint ${JSON.stringify(d.effect ? `${d.key}:${d.effect}` : d.key)} not found\n`;
      }
    }
    let blocked = false;
    for (const a of add) {
      const i = taints.findIndex((t) => t.key === a.key && t.effect === a.effect);
      if (i >= 0 && !bool(p, 'overwrite')) {
        stderr += `error: node ${node.metadata.name} already has ${a.key} taint(s) with same effect(s) and --overwrite is false\n`;
        blocked = true;
      } else if (i >= 0) taints[i] = a;
      else taints.push(a);
    }
    if (blocked || stderr) continue;
    try {
      const n = clone(node) as KubeObject;
      n.spec = { ...(n.spec ?? {}), taints };
      if (!taints.length) delete n.spec.taints;
      ctx.cluster.api.update(n, KUBECTL);
      stdout += `node/${node.metadata.name} ${add.length ? 'tainted' : 'untainted'}\n`;
    } catch (e) {
      stderr += errorText(e) + '\n';
    }
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

export function setUnschedulable(ctx: KubectlContext, node: KubeObject, value: boolean): string {
  const name = node.metadata.name;
  if (!!node.spec?.unschedulable === value)
    return `node/${name} already ${value ? 'cordoned' : 'uncordoned'}\n`;
  ctx.cluster.api.patch('Node', undefined, name, { spec: { unschedulable: value ? true : null } }, KUBECTL);
  return `node/${name} ${value ? 'cordoned' : 'uncordoned'}\n`;
}

export function cordon(ctx: KubectlContext, argv: string[], value: boolean): ConsoleResult {
  const p = parseFlags(argv, [{ name: 'dry-run', value: true }]);
  if (!p.positional.length && str(p, 'selector') === undefined) {
    throw new CommandError(
      `error: USAGE: ${value ? 'cordon' : 'uncordon'} NODE [flags]\nSee '-h' for help and examples`
    );
  }
  const nodes = p.positional.length
    ? p.positional.map((n) =>
        apiGet<KubeObject>(ctx, resolveResource('node'), undefined, n.replace(/^nodes?\//, ''))
      )
    : apiList(ctx, 'Node', { labelSelector: str(p, 'selector') });
  return { stdout: nodes.map((n) => setUnschedulable(ctx, n, value)).join(''), stderr: '', exitCode: 0 };
}

export function scale(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const p = parseFlags(argv, [
    { name: 'replicas', value: true },
    { name: 'current-replicas', value: true },
    { name: 'all' }
  ]);
  const replicas = str(p, 'replicas');
  if (replicas === undefined || !/^\d+$/.test(replicas)) {
    throw new CommandError(
      'error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0'
    );
  }
  const { items, errors } = select(ctx, p.positional, p);
  let stdout = '';
  let stderr = errors;
  for (const s of items) {
    if (!['Deployment', 'ReplicaSet'].includes(s.r.kind)) {
      stderr += `error: no scaler has been implemented for {"${s.r.group}" "${s.r.kind}"}\n`;
      continue;
    }
    try {
      ctx.cluster.api.patch(
        s.r.kind,
        s.obj.metadata.namespace,
        s.obj.metadata.name,
        { spec: { replicas: parseInt(replicas, 10) } },
        KUBECTL
      );
      stdout += `${id(s)} scaled\n`;
    } catch (e) {
      stderr += errorText(e) + '\n';
    }
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

export { taintString };
