/**
 * `kubectl drain`: cordon, then evict every pod the filters allow (k8s.io/kubectl/pkg/drain).
 * Evictions honour PodDisruptionBudgets the way the Eviction subresource does.
 */
import { evictPod as apiEvictPod } from '../../api/eviction';
import { ApiError } from '../../api/errors';
import type { KubeObject } from '../../api/types';
import { parseFlags, str, bool } from '../args';
import type { ConsoleResult } from '../console';
import {
  apiGet,
  apiList,
  CommandError,
  errorText,
  KUBECTL,
  resolveResource,
  type KubectlContext
} from '../context';
import { setUnschedulable } from './modify';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

/** policy/v1 Eviction as kube-apiserver's eviction REST handler decides it. */
/** POST pods/eviction: the API server's Eviction API checks the PodDisruptionBudgets. */
export function evictPod(ctx: KubectlContext, pod: KubeObject, gracePeriodSeconds?: number): void {
  apiEvictPod(
    ctx.cluster,
    pod.metadata.namespace!,
    pod.metadata.name,
    KUBECTL,
    gracePeriodSeconds !== undefined
      ? { gracePeriodSeconds, uid: pod.metadata.uid }
      : { uid: pod.metadata.uid }
  );
}

interface Verdict {
  pod: KubeObject;
  delete: boolean;
  warning?: string;
  error?: string;
}

const nsName = (p: KubeObject) => `${p.metadata.namespace}/${p.metadata.name}`;

/** drain filters.go: daemonSet, mirror, localStorage, unreplicated (in that order). */
function verdict(
  ctx: KubectlContext,
  pod: KubeObject,
  opts: { ignoreDs: boolean; emptyDir: boolean; force: boolean }
): Verdict {
  const phase = pod.status?.phase;
  const finished = phase === 'Succeeded' || phase === 'Failed';
  const owner = (pod.metadata.ownerReferences ?? []).find((r) => r.controller);
  if (owner?.kind === 'DaemonSet') {
    const ds = ctx.cluster.api.tryGet('DaemonSet', pod.metadata.namespace, owner.name);
    if (ds || !opts.force) {
      if (!opts.ignoreDs) {
        return {
          pod,
          delete: false,
          error: 'cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore)'
        };
      }
      return { pod, delete: false, warning: 'ignoring DaemonSet-managed Pods' };
    }
  }
  if (pod.metadata.annotations?.['kubernetes.io/config.mirror']) return { pod, delete: false };
  const hasEmptyDir = ((pod.spec?.volumes as Any[]) ?? []).some((v) => v.emptyDir);
  let warning: string | undefined;
  if (!finished && hasEmptyDir) {
    if (!opts.emptyDir) {
      return {
        pod,
        delete: false,
        error: 'cannot delete Pods with local storage (use --delete-emptydir-data to override)'
      };
    }
    warning = 'deleting Pods with local storage';
  }
  if (!finished && !owner) {
    if (!opts.force) {
      return {
        pod,
        delete: false,
        error: 'cannot delete Pods that declare no controller (use --force to override)'
      };
    }
    warning = 'deleting Pods that declare no controller';
  }
  return { pod, delete: true, warning };
}

function grouped(vs: Verdict[], key: 'warning' | 'error'): string[] {
  const by = new Map<string, string[]>();
  for (const v of vs) {
    const k = v[key];
    if (!k) continue;
    by.set(k, [...(by.get(k) ?? []), nsName(v.pod)]);
  }
  return [...by.entries()].map(([k, pods]) => `${k}: ${pods.join(', ')}`);
}

export function drain(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const p = parseFlags(argv, [
    { name: 'ignore-daemonsets' },
    { name: 'delete-emptydir-data' },
    { name: 'delete-local-data' },
    { name: 'force' },
    { name: 'grace-period', value: true },
    { name: 'timeout', value: true },
    { name: 'disable-eviction' },
    { name: 'pod-selector', value: true },
    { name: 'dry-run', value: true }
  ]);
  if (p.positional.length !== 1)
    throw new CommandError("error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples");
  const nodeName = p.positional[0].replace(/^nodes?\//, '');
  const node = apiGet<KubeObject>(ctx, resolveResource('node'), undefined, nodeName);
  let stdout = setUnschedulable(ctx, node, true);
  let stderr = '';
  const opts = {
    ignoreDs: bool(p, 'ignore-daemonsets'),
    emptyDir: bool(p, 'delete-emptydir-data') || bool(p, 'delete-local-data'),
    force: bool(p, 'force')
  };
  const pods = apiList(ctx, 'Pod', {
    fieldSelector: `spec.nodeName=${nodeName}`,
    labelSelector: str(p, 'pod-selector')
  });
  const verdicts = pods.map((pod) => verdict(ctx, pod, opts));
  const errors = grouped(verdicts, 'error');
  if (errors.length) {
    const agg = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
    stderr += `error: unable to drain node "${nodeName}" due to error: ${agg}, continuing command...\n`;
    stderr += `There are pending nodes to be drained:\n ${nodeName}\n`;
    stderr += errors.map((e) => e + '\n').join('');
    return { stdout, stderr, exitCode: 1 };
  }
  for (const w of grouped(verdicts, 'warning')) stderr += `Warning: ${w}\n`;
  const grace = str(p, 'grace-period') !== undefined ? parseInt(str(p, 'grace-period')!, 10) : undefined;
  const failed: string[] = [];
  for (const v of verdicts.filter((x) => x.delete)) {
    stdout += `evicting pod ${nsName(v.pod)}\n`;
    try {
      if (bool(p, 'disable-eviction')) {
        ctx.cluster.api.delete(
          'Pod',
          v.pod.metadata.namespace,
          v.pod.metadata.name,
          grace !== undefined && grace >= 0 ? { gracePeriodSeconds: grace } : {},
          KUBECTL
        );
      } else {
        evictPod(ctx, v.pod, grace !== undefined && grace >= 0 ? grace : undefined);
      }
      stdout += `pod/${v.pod.metadata.name} evicted\n`;
    } catch (e) {
      if (e instanceof ApiError && e.reason === 'TooManyRequests') {
        stderr += `error when evicting pods/"${v.pod.metadata.name}" -n "${v.pod.metadata.namespace}" (will retry after 5s): ${e.message}\n`;
      } else stderr += errorText(e) + '\n';
      failed.push(v.pod.metadata.name);
    }
  }
  if (failed.length) {
    stderr += `There are pending pods in node "${nodeName}" when an error occurred: ${failed.length} pod(s) could not be evicted\n`;
    stderr += `error: unable to drain node "${nodeName}" due to error: ${failed.length} pod(s) could not be evicted, continuing command...\nThere are pending nodes to be drained:\n ${nodeName}\n`;
    return { stdout, stderr, exitCode: 1 };
  }
  stdout += `node/${nodeName} drained\n`;
  return { stdout, stderr, exitCode: 0 };
}
