/** What every kubectl command gets: the cluster, console options, and API helpers acting as kubectl. */
import type { Cluster } from '../cluster';
import { ApiError, ConnectionError, etcdUnavailable, notFound } from '../api/errors';
import { lookupResource, type ResourceInfo } from '../api/resources';
import type { KubeObject, RequestContext } from '../api/types';
import type { ConsoleOptions, ConsoleResult } from './console';

export const KUBECTL: RequestContext = { component: 'kubectl' };

export interface KubectlContext {
  cluster: Cluster;
  options: ConsoleOptions;
}

/** A failed command: kubectl prints `message` on stderr and exits 1. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1
  ) {
    super(message);
  }
}

export function ok(stdout: string, stderr = ''): ConsoleResult {
  return { stdout, stderr, exitCode: 0 };
}

export function fail(stderr: string, stdout = '', exitCode = 1): ConsoleResult {
  return { stdout, stderr: stderr.endsWith('\n') ? stderr : stderr + '\n', exitCode };
}

/** The line kubectl prints for an error thrown by the API or the transport (E1, E3). */
export function errorText(e: unknown): string {
  if (e instanceof ApiError) return e.kubectlMessage();
  if (e instanceof ConnectionError) {
    return e.message.startsWith('The connection')
      ? e.message
      : `Unable to connect to the server: ${e.message}`;
  }
  if (e instanceof CommandError) return e.message;
  if (e instanceof Error) return `error: ${e.message}`;
  return `error: ${String(e)}`;
}

/** `error: the server doesn't have a resource type "x"` (E2). */
export function resolveResource(name: string, discovered?: ResourceInfo[]): ResourceInfo {
  const r = lookupResource(name, discovered);
  if (!r) throw new CommandError(`error: the server doesn't have a resource type "${name}"`);
  return r;
}

/** `pod`, `deployment.apps`: the resource as kubectl names it in `<resource>/<name>` output. */
export function qualified(r: ResourceInfo): string {
  return r.group ? `${r.singular}.${r.group}` : r.singular;
}

export function nowEpoch(ctx: KubectlContext): number {
  return ctx.cluster.api.epochMs + ctx.cluster.engine.now;
}

/**
 * kubectl's reads are quorum reads (resourceVersion ""): without an etcd leader they time out,
 * unlike the watch-cache reads of the controllers.
 */
function beginRead(ctx: KubectlContext, verb: 'get' | 'list', kind: string): void {
  ctx.cluster.api.countRead(verb, kind, KUBECTL);
  if (ctx.cluster.api.readsMayBeStale) throw etcdUnavailable();
}

export function apiGet<T extends KubeObject>(
  ctx: KubectlContext,
  r: ResourceInfo,
  namespace: string | undefined,
  name: string
): T {
  beginRead(ctx, 'get', r.kind);
  const o = ctx.cluster.api.tryGet<T>(r.kind, r.namespaced ? namespace : undefined, name);
  if (!o) throw notFoundError(r, name);
  return o;
}

/** kube-apiserver names group resources with their group: `deployments.apps "x" not found`. */
export function notFoundError(r: ResourceInfo, name: string): ApiError {
  return notFound(r.group ? `${r.plural}.${r.group}` : r.plural, name);
}

export function apiTryGet<T extends KubeObject>(
  ctx: KubectlContext,
  kind: string,
  namespace: string | undefined,
  name: string
): T | undefined {
  beginRead(ctx, 'get', kind);
  return ctx.cluster.api.tryGet<T>(kind, namespace, name);
}

/** A list in etcd key order (namespace, then name), as the API server returns it. */
export function apiList<T extends KubeObject>(
  ctx: KubectlContext,
  kind: string,
  opts: { namespace?: string; labelSelector?: string; fieldSelector?: string } = {}
): T[] {
  beginRead(ctx, 'list', kind);
  return sortByKey(ctx.cluster.api.list<T>(kind, opts));
}

export function sortByKey<T extends KubeObject>(items: T[]): T[] {
  const key = (o: KubeObject) =>
    o.kind === 'Event' ? eventKey(o) : `${o.metadata.namespace ?? ''}\u0000${o.metadata.name}`;
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * Upstream event names are `<object>.<hex of the creation time in ns>`, so etcd key order is
 * creation order per object. Our recorder's suffixes are random; order by object, then by write.
 */
function eventKey(e: KubeObject): string {
  const n = e.metadata.name;
  const prefix = n.includes('.') ? n.slice(0, n.lastIndexOf('.')) : n;
  return `${e.metadata.namespace ?? ''}\u0000${prefix}\u0000${(e.metadata.resourceVersion ?? '').padStart(12, '0')}`;
}

/** Events about one object, oldest first (describe.go SearchEvents + SortableEvents). */
export function eventsFor(ctx: KubectlContext, obj: KubeObject): KubeObject[] {
  const fs = `involvedObject.kind=${obj.kind},involvedObject.name=${obj.metadata.name}`;
  const evs = apiList(ctx, 'Event', {
    namespace: obj.metadata.namespace,
    fieldSelector: obj.metadata.namespace ? `${fs},involvedObject.namespace=${obj.metadata.namespace}` : fs
  });
  // SortableEvents sorts by lastTimestamp; ties keep the list (creation) order.
  return evs.sort((a, b) => lastSeen(a) - lastSeen(b));
}

export function lastSeen(e: KubeObject): number {
  const t = (e.lastTimestamp ?? e.firstTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp) as string;
  return Date.parse(t) || 0;
}
