/** `kubectl describe TYPE [NAME_PREFIX]` and `describe TYPE/NAME`. */
import type { ResourceInfo } from '../../api/resources';
import type { KubeObject } from '../../api/types';
import { parseFlags, str, bool } from '../args';
import type { ConsoleResult } from '../console';
import {
  apiList,
  apiTryGet,
  errorText,
  eventsFor,
  notFoundError,
  nowEpoch,
  type KubectlContext
} from '../context';
import { resolveTargets } from '../commands/get';
import { rfc1123z } from '../timefmt';
import { describeNode } from './node';
import { describePod } from './pod';
import {
  describeDaemonSet,
  describeDeployment,
  describeEndpoints,
  describeLease,
  describeReplicaSet,
  describeService
} from './workloads';
import { PrefixWriter, annotationsMultiline, describeEvents, labelsMultiline } from './writer';

type Describer = (ctx: KubectlContext, obj: KubeObject) => string;

const DESCRIBERS: Record<string, Describer> = {
  Node: describeNode,
  Pod: describePod,
  Deployment: describeDeployment,
  ReplicaSet: describeReplicaSet,
  DaemonSet: describeDaemonSet,
  Service: describeService,
  Endpoints: describeEndpoints,
  Lease: describeLease
};

/** Objects without a dedicated describer: name, labels, annotations, events. */
function describeGeneric(ctx: KubectlContext, o: KubeObject): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${o.metadata.name}\n`);
  if (o.metadata.namespace) w.write(0, `Namespace:\t${o.metadata.namespace}\n`);
  labelsMultiline(w, 'Labels', o.metadata.labels);
  annotationsMultiline(w, 'Annotations', o.metadata.annotations);
  w.write(0, `CreationTimestamp:\t${rfc1123z(o.metadata.creationTimestamp)}\n`);
  describeEvents(w, eventsFor(ctx, o), nowEpoch(ctx));
  return w.toString();
}

export function describeObject(ctx: KubectlContext, obj: KubeObject): string {
  return (DESCRIBERS[obj.kind] ?? describeGeneric)(ctx, obj);
}

export function describe(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const p = parseFlags(argv, [{ name: 'show-events' }]);
  const targets = resolveTargets(p.positional);
  const ns = str(p, 'namespace') ?? 'default';
  const allNs = bool(p, 'all-namespaces');
  const found: KubeObject[] = [];
  let stderr = '';
  let failed = false;
  const scope = (r: ResourceInfo) => (r.namespaced && !allNs ? ns : undefined);
  for (const t of targets) {
    if (!t.names.length) {
      found.push(
        ...apiList(ctx, t.r.kind, {
          namespace: scope(t.r),
          labelSelector: str(p, 'selector'),
          fieldSelector: str(p, 'field-selector')
        })
      );
      continue;
    }
    for (const name of t.names) {
      try {
        const exact = apiTryGet<KubeObject>(ctx, t.r.kind, t.r.namespaced ? ns : undefined, name);
        if (exact) {
          found.push(exact);
          continue;
        }
        // describe.go falls back to every object whose name starts with the argument.
        const prefixed = apiList(ctx, t.r.kind, { namespace: scope(t.r) }).filter((o) =>
          o.metadata.name.startsWith(name)
        );
        if (!prefixed.length) throw notFoundError(t.r, name);
        found.push(...prefixed);
      } catch (e) {
        stderr += errorText(e) + '\n';
        failed = true;
      }
    }
  }
  if (!found.length && !stderr) {
    stderr =
      targets.every((t) => t.r.namespaced) && !allNs
        ? `No resources found in ${ns} namespace.\n`
        : 'No resources found\n';
  }
  const stdout = found.map((o) => describeObject(ctx, o)).join('\n\n');
  return { stdout, stderr, exitCode: failed ? 1 : 0 };
}
