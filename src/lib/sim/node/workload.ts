/**
 * The workload model: pod annotations that say how a simulated container behaves (when it becomes
 * ready, crashes or completes, how much memory, CPU and disk it uses). Documented in
 * docs/workload-model.md. A `<key>.<container>` annotation overrides the pod-wide `<key>` for one
 * container.
 */
import { parseDuration } from '../engine/duration';
import { tryParseQuantity } from '../api/quantity';
import type { KubeObject } from '../api/types';

export const ANNOTATION_PREFIX = 'nodeplane.dev/';

/** A usage that may grow linearly from the container start, up to a cap. Bytes (or millicores for CPU). */
export interface Usage {
  base: number;
  perSecond: number;
  max?: number;
}

export interface ContainerBehaviour {
  readyAfterMs: number;
  /** Exit after running this long (with exitCode). */
  exitAfterMs?: number;
  exitCode: number;
  /** How long the process takes to exit after SIGTERM. */
  terminationDelayMs: number;
  memory: Usage;
  cpuMilli: number;
  disk: Usage;
}

function annotation(pod: KubeObject, key: string, container: string): string | undefined {
  const a = pod.metadata.annotations;
  if (!a) return undefined;
  return a[`${ANNOTATION_PREFIX}${key}.${container}`] ?? a[`${ANNOTATION_PREFIX}${key}`];
}

function duration(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  try {
    return parseDuration(v);
  } catch {
    return undefined;
  }
}

function bytes(q: string): number | undefined {
  if (!q) return undefined;
  const m = tryParseQuantity(q);
  return m === undefined ? undefined : Math.round(m / 1000);
}

/** "200Mi", "100Mi+5Mi/s" or "100Mi+5Mi/s,max=800Mi". */
export function parseUsage(v: string | undefined): Usage | undefined {
  if (!v) return undefined;
  const [growth, ...opts] = v.split(',').map((s) => s.trim());
  const m = /^([^+]+)(?:\+([^/]+)\/s)?$/.exec(growth);
  if (!m) return undefined;
  const base = bytes(m[1]);
  const perSecond = m[2] ? bytes(m[2]) : 0;
  if (base === undefined || perSecond === undefined) return undefined;
  const u: Usage = { base, perSecond };
  for (const o of opts) {
    const mm = /^max=(.+)$/.exec(o);
    const max = mm ? bytes(mm[1]) : undefined;
    if (max !== undefined) u.max = max;
  }
  return u;
}

/** Usage `elapsedMs` after the container started. */
export function usageAt(u: Usage, elapsedMs: number): number {
  const v = u.base + (u.perSecond * Math.max(0, elapsedMs)) / 1000;
  return Math.round(u.max !== undefined ? Math.min(v, u.max) : v);
}

/** Milliseconds after the start when usage first exceeds `limit`, or undefined if it never does. */
export function msUntilAbove(u: Usage, limit: number): number | undefined {
  if (u.base > limit) return 0;
  if (u.perSecond <= 0) return undefined;
  if (u.max !== undefined && u.max <= limit) return undefined;
  return Math.floor(((limit - u.base) * 1000) / u.perSecond) + 1;
}

interface ContainerSpecLike {
  name: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: { initialDelaySeconds?: number };
}

/** Without annotations a container is ready at once, uses its request (or 16Mi / 10m) and runs forever. */
export function containerBehaviour(pod: KubeObject, c: ContainerSpecLike): ContainerBehaviour {
  const name = c.name;
  const crash = duration(annotation(pod, 'crash-after', name));
  const complete = duration(annotation(pod, 'complete-after', name));
  const exitAfterMs = crash ?? complete;
  const codeText = annotation(pod, 'exit-code', name);
  const exitCode =
    codeText !== undefined && /^\d+$/.test(codeText) ? parseInt(codeText, 10) : crash !== undefined ? 1 : 0;
  const probeDelay = c.readinessProbe ? (c.readinessProbe.initialDelaySeconds ?? 0) * 1000 : 0;
  const req = c.resources?.requests ?? {};
  const lim = c.resources?.limits ?? {};
  const memReq = bytes(req.memory ?? lim.memory ?? '') ?? 16 * 2 ** 20;
  const cpuText = req.cpu ?? lim.cpu;
  const cpuReq = (cpuText ? tryParseQuantity(cpuText) : undefined) ?? 10;
  const cpuAnn = annotation(pod, 'cpu-usage', name);
  const cpu = cpuAnn ? tryParseQuantity(cpuAnn) : undefined;
  return {
    readyAfterMs: duration(annotation(pod, 'ready-after', name)) ?? probeDelay,
    ...(exitAfterMs !== undefined ? { exitAfterMs } : {}),
    exitCode,
    terminationDelayMs: duration(annotation(pod, 'termination-delay', name)) ?? 0,
    memory: parseUsage(annotation(pod, 'memory-usage', name)) ?? { base: memReq, perSecond: 0 },
    cpuMilli: cpu ?? cpuReq,
    disk: parseUsage(annotation(pod, 'disk-usage', name)) ?? { base: 0, perSecond: 0 }
  };
}
