/** `kubectl apply -f` and `create -f`. */
import { lookupResource } from '../../api/resources';
import { clone, type KubeObject } from '../../api/types';
import { mergePatch } from '../../api/apiserver';
import { parseFlags, str, list } from '../args';
import type { ConsoleResult } from '../console';
import { CommandError, errorText, KUBECTL, qualified, type KubectlContext } from '../context';
import { parseManifests } from '../manifests';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function readFile(ctx: KubectlContext, name: string): string {
  if (name === '-') {
    const buf = ctx.options.editorBuffer?.();
    if (buf !== undefined) return buf;
  }
  const f = ctx.options.files?.[name];
  if (f !== undefined) return f;
  if (name === '-' && ctx.options.files?.['-'] !== undefined) return ctx.options.files['-'];
  throw new CommandError(`error: the path "${name}" does not exist`);
}

function manifests(ctx: KubectlContext, argv: string[]) {
  const p = parseFlags(argv, [
    { name: 'filename', short: 'f', value: true, repeat: true },
    { name: 'dry-run', value: true },
    { name: 'server-side' },
    { name: 'force' },
    { name: 'save-config' },
    { name: 'validate', value: true }
  ]);
  const files = list(p, 'filename');
  if (!files.length) {
    throw new CommandError('error: must specify one of -f and -k\n\nerror: no objects passed to apply');
  }
  const objs = files.flatMap((f) => parseManifests(readFile(ctx, f), f));
  return { p, objs, ns: str(p, 'namespace') };
}

function resourceOf(o: KubeObject) {
  const r = lookupResource(o.kind);
  if (!r) {
    throw new CommandError(
      `error: resource mapping not found for name: "${o.metadata?.name ?? ''}" namespace: "${
        o.metadata?.namespace ?? ''
      }" from "${o.kind}": no matches for kind "${o.kind}" in version "${o.apiVersion}"\nensure CRDs are installed first`
    );
  }
  return r;
}

function withNamespace(o: KubeObject, ns: string | undefined): KubeObject {
  const c = clone(o) as KubeObject;
  c.metadata = c.metadata ?? ({} as KubeObject['metadata']);
  const r = resourceOf(c);
  if (r.namespaced) {
    if (ns && c.metadata.namespace && c.metadata.namespace !== ns) {
      throw new CommandError(
        `error: the namespace from the provided object "${c.metadata.namespace}" does not match the namespace "${ns}". You must pass '--namespace=${c.metadata.namespace}' to perform this operation.`
      );
    }
    c.metadata.namespace = c.metadata.namespace || ns || 'default';
  }
  return c;
}

/** Every field the manifest sets already has that value in the live object (server defaults aside). */
function subsetOf(want: unknown, have: unknown): boolean {
  if (Array.isArray(want)) {
    return Array.isArray(have) && want.length === have.length && want.every((w, i) => subsetOf(w, have[i]));
  }
  if (want && typeof want === 'object') {
    if (!have || typeof have !== 'object' || Array.isArray(have)) return false;
    return Object.entries(want).every(([k, v]) => subsetOf(v, (have as Record<string, unknown>)[k]));
  }
  return want === have;
}

/**
 * Strategic merge as far as apply needs it: lists of named items (containers, ports, env)
 * merge item by item on `name`; other lists and scalars are replaced; null deletes.
 */
function strategicMerge(live: unknown, patch: unknown): unknown {
  if (Array.isArray(patch)) {
    const named = patch.every((p) => p && typeof p === 'object' && 'name' in p);
    if (!named || !Array.isArray(live)) return patch;
    return patch.map((p) => {
      const cur = live.find((l) => l && typeof l === 'object' && l.name === p.name);
      return cur ? strategicMerge(cur, p) : p;
    });
  }
  if (patch === null || typeof patch !== 'object') return patch;
  const out: Record<string, unknown> =
    live && typeof live === 'object' && !Array.isArray(live) ? { ...(live as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = strategicMerge(out[k], v);
  }
  return out;
}

export function apply(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const { objs, ns } = manifests(ctx, argv);
  let stdout = '';
  let stderr = '';
  let failed = false;
  for (const raw of objs) {
    try {
      const obj = withNamespace(raw, ns);
      const r = resourceOf(obj);
      const id = `${qualified(r)}/${obj.metadata.name}`;
      const applied = JSON.stringify(raw);
      obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [LAST_APPLIED]: applied + '\n' };
      const live = ctx.cluster.api.tryGet<KubeObject>(obj.kind, obj.metadata.namespace, obj.metadata.name);
      ctx.cluster.api.countRead('get', obj.kind, KUBECTL);
      if (!live) {
        ctx.cluster.api.create(obj, KUBECTL);
        stdout += `${id} created\n`;
        continue;
      }
      // Three-way merge reduced to its effect: fields dropped since the last apply are removed.
      const prevApplied = live.metadata.annotations?.[LAST_APPLIED];
      let base = clone(live) as KubeObject;
      if (prevApplied) {
        const removed = removedFields(JSON.parse(prevApplied), raw);
        base = mergePatch(base, removed) as KubeObject;
      }
      if (subsetOf(obj, live)) {
        stdout += `${id} unchanged\n`;
        continue;
      }
      if (!prevApplied) {
        stderr += `Warning: resource ${r.plural}/${obj.metadata.name} is missing the ${LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n`;
      }
      ctx.cluster.api.update(strategicMerge(base, obj) as KubeObject, KUBECTL);
      stdout += `${id} configured\n`;
    } catch (e) {
      stderr += errorText(e) + '\n';
      failed = true;
    }
  }
  // Warnings go to stderr without failing the command, as kubectl does.
  return { stdout, stderr, exitCode: failed ? 1 : 0 };
}

/** A merge patch with `null` for every key present in `prev` but absent from `next`. */
function removedFields(prev: unknown, next: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!prev || typeof prev !== 'object' || Array.isArray(prev)) return out;
  const n = (next && typeof next === 'object' && !Array.isArray(next) ? next : {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(prev as Record<string, unknown>)) {
    if (!(k in n)) out[k] = null;
    else if (v && typeof v === 'object' && !Array.isArray(v)) {
      const sub = removedFields(v, n[k]);
      if (Object.keys(sub).length) out[k] = sub;
    }
  }
  return out;
}

export function create(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const { objs, ns } = manifests(ctx, argv);
  let stdout = '';
  let stderr = '';
  for (const raw of objs) {
    try {
      const obj = withNamespace(raw, ns);
      const r = resourceOf(obj);
      ctx.cluster.api.create(obj, KUBECTL);
      stdout += `${qualified(r)}/${obj.metadata.name} created\n`;
    } catch (e) {
      stderr += errorText(e) + '\n';
    }
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}
