/**
 * `kubectl apply` for parsed manifests: every object is first applied to a scratch copy of the API
 * server (same admission chain, same stored objects), and only when all of them pass are they
 * written to the real one, so a file with one bad object changes nothing.
 */
import { ApiServer, mergePatch } from '../api/apiserver';
import { ApiError } from '../api/errors';
import { resourceForKind } from '../api/resources';
import { clone, type KubeObject, type RequestContext } from '../api/types';
import type { Cluster } from '../cluster';
import { Engine } from '../engine/engine';
import { Etcd } from '../etcd/etcd';
import { ManifestError, type ManifestIssue } from './errors';
import type { ParsedManifest } from './parse';

export interface ApplyResult {
  kind: string;
  name: string;
  namespace?: string;
  action: 'created' | 'configured' | 'unchanged';
}

/** kubectl's line for a result: `deployment.apps/web created`. */
export function formatApplyResult(r: ApplyResult): string {
  const res = resourceForKind(r.kind);
  return `${res.singular}${res.group ? '.' + res.group : ''}/${r.name} ${r.action}`;
}

/** Only Nodes may carry a status on create (nodeStrategy); for the rest the control plane writes it. */
function forCreate(obj: KubeObject): KubeObject {
  const o = clone(obj) as KubeObject;
  if (o.kind !== 'Node') delete o.status;
  return o;
}

function comparable(o: KubeObject): string {
  const c = clone(o) as KubeObject;
  delete c.metadata.resourceVersion;
  delete c.metadata.generation;
  return JSON.stringify(c);
}

function applyOne(api: ApiServer, m: ParsedManifest, ctx: RequestContext | undefined): ApplyResult {
  const obj = m.obj;
  const r = resourceForKind(obj.kind);
  const ns = r.namespaced ? obj.metadata.namespace || 'default' : undefined;
  const name = obj.metadata.name;
  const live = name ? api.tryGet<KubeObject>(obj.kind, ns, name) : undefined;
  if (!live) {
    const created = api.create(forCreate(obj), ctx);
    return {
      kind: obj.kind,
      name: created.metadata.name,
      namespace: created.metadata.namespace,
      action: 'created'
    };
  }
  const patch = clone(obj) as Record<string, unknown>;
  delete patch.status;
  const merged = mergePatch(clone(live), patch) as KubeObject;
  const updated = api.update(merged, ctx);
  const same = comparable(updated) === comparable(live);
  return { kind: obj.kind, name, namespace: ns, action: same ? 'unchanged' : 'configured' };
}

function issueFor(m: ParsedManifest, e: ApiError): ManifestIssue {
  const field = e.causes[0]?.field ?? '';
  const p = field ? m.locate(field) : { line: m.line, column: 1 };
  return { file: m.file, line: p.line, column: p.column, path: field, message: e.message };
}

function scratchCopy(api: ApiServer): ApiServer {
  const scratch = new ApiServer(new Engine(0), Etcd.withMembers(1));
  scratch.epochMs = api.epochMs;
  scratch.admission.push(...api.admission);
  scratch.restore(api.snapshot());
  return scratch;
}

/**
 * Apply objects in order (create, or merge into the live object). Throws ManifestError with every
 * rejected object's API message at its line; nothing is written unless all objects are accepted.
 */
export function applyManifests(
  cluster: Cluster,
  objects: ParsedManifest[],
  ctx: RequestContext = { component: 'kubectl' }
): ApplyResult[] {
  const scratch = scratchCopy(cluster.api);
  const issues: ManifestIssue[] = [];
  const unchanged = new Set<ParsedManifest>();
  for (const m of objects) {
    try {
      if (applyOne(scratch, m, undefined).action === 'unchanged') unchanged.add(m);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      issues.push(issueFor(m, e));
    }
  }
  if (issues.length) throw new ManifestError(issues);
  const results: ApplyResult[] = [];
  for (const m of objects) {
    if (unchanged.has(m)) {
      const r = resourceForKind(m.obj.kind);
      results.push({
        kind: m.obj.kind,
        name: m.obj.metadata.name,
        namespace: r.namespaced ? m.obj.metadata.namespace || 'default' : undefined,
        action: 'unchanged'
      });
      continue;
    }
    results.push(applyOne(cluster.api, m, ctx));
  }
  return results;
}
