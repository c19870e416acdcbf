/**
 * The kubelet's image manager (pkg/kubelet/images): pull policy, serialized pulls with a duration
 * of size ÷ bandwidth, the per-(pod, image) pull back-off and the events and waiting reasons
 * upstream produces (ErrImagePull, ImagePullBackOff, ErrImageNeverPull).
 */
import type { KubeObject } from '../api/types';
import { formatGoDuration } from '../engine/duration';
import { backoffNext, inBackOffSinceUpdate } from './backoff';
import type { Kubelet } from './kubelet';
import { normalizeImage, resolveImage } from './registry';
import type { RuntimeImage } from './runtime';
import type { ContainerRec } from './state';

/** Default download speed: 50 MB/s. */
export const DEFAULT_PULL_BANDWIDTH = 50_000_000;
/** A pull that resolves to an error (registry answer) takes about this long. */
const FAILED_PULL_MS = 500;
/** Policy Always with the image cached: only the manifest is checked. */
const MANIFEST_CHECK_MS = 300;
/** After a failed sync the pod worker retries shortly; the retry reports ImagePullBackOff. */
export const POD_WORKER_RETRY_MS = 1_000;

export interface ContainerSpec {
  name: string;
  image: string;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
}

export type EnsureResult = { image: RuntimeImage } | { wakeAt?: number };

export function pullPolicy(spec: ContainerSpec): 'Always' | 'IfNotPresent' | 'Never' {
  if (spec.imagePullPolicy) return spec.imagePullPolicy;
  const ref = normalizeImage(spec.image);
  return ref.implicitTag || ref.tag === 'latest' ? 'Always' : 'IfNotPresent';
}

export function fieldPath(c: ContainerRec): string {
  return `spec.${c.init ? 'initContainers' : 'containers'}{${c.name}}`;
}

/** EnsureImageExists: returns the image to start from, or what to wait for. */
export function ensureImage(k: Kubelet, pod: KubeObject, spec: ContainerSpec, c: ContainerRec): EnsureResult {
  const rt = k.runtime;
  const now = k.now;
  const image = spec.image;
  const fp = fieldPath(c);
  const ev = (type: 'Normal' | 'Warning', reason: string, msg: string) =>
    k.cluster.recorder.event(pod, type, reason, msg, k.source, k.ctx, fp);
  const policy = pullPolicy(spec);
  const present = rt.findImage(image);
  const policyBackoff = { initial: k.cfg.imageBackOffInitial, max: k.cfg.imageBackOffMax };
  const key = `${pod.metadata.uid}_${image}`;

  if (c.pull) {
    const p = c.pull;
    if (now < p.doneAt) return { wakeAt: p.doneAt };
    c.pull = undefined;
    if (p.error) {
      ev('Warning', 'Failed', `Failed to pull image "${image}": ${p.error}`);
      ev('Warning', 'Failed', 'Error: ErrImagePull');
      c.waiting = { reason: 'ErrImagePull', message: p.error };
      backoffNext(k.state.backoff, key, now, now, policyBackoff);
      k.journal(
        'E',
        'pod_workers.go:1301',
        `"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"${c.name}\\" with ErrImagePull: \\"${p.error.replace(/"/g, '\\\\\\"')}\\"" pod="${pod.metadata.namespace}/${pod.metadata.name}" podUID="${pod.metadata.uid}"`
      );
      return { wakeAt: now + POD_WORKER_RETRY_MS };
    }
    const img = rt.addImage(image, p.sizeBytes);
    ev(
      'Normal',
      'Pulled',
      `Successfully pulled image "${image}" in ${formatGoDuration(p.doneAt - p.startAt)} (${formatGoDuration(p.doneAt - p.requestedAt)} including waiting). Image size: ${p.sizeBytes} bytes.`
    );
    return { image: img };
  }

  if (policy === 'Never') {
    if (present) return { image: present };
    const msg = `Container image "${image}" is not present with pull policy of Never`;
    ev('Warning', 'ErrImageNeverPull', msg);
    ev('Warning', 'Failed', 'Error: ErrImageNeverPull');
    c.waiting = { reason: 'ErrImageNeverPull', message: msg };
    return {};
  }
  if (policy === 'IfNotPresent' && present) {
    ev('Normal', 'Pulled', `Container image "${image}" already present on machine`);
    return { image: present };
  }

  const inBackoff = inBackOffSinceUpdate(k.state.backoff, key, now, policyBackoff);
  if (inBackoff) {
    const msg = `Back-off pulling image "${image}"`;
    ev('Normal', 'BackOff', msg);
    ev('Warning', 'Failed', 'Error: ImagePullBackOff');
    c.waiting = { reason: 'ImagePullBackOff', message: msg };
    return { wakeAt: inBackoff.last + inBackoff.backoff };
  }

  ev('Normal', 'Pulling', `Pulling image "${image}"`);
  const res = resolveImage(k.cluster, image);
  if (!res.ok) {
    c.pull = { requestedAt: now, startAt: now, doneAt: now + FAILED_PULL_MS, error: res.error, sizeBytes: 0 };
  } else {
    const bandwidth = k.args.pullBandwidth ?? DEFAULT_PULL_BANDWIDTH;
    const duration = present
      ? MANIFEST_CHECK_MS
      : Math.max(1, Math.round((res.image.sizeBytes * 1000) / bandwidth));
    // serializeImagePulls: one pull at a time per node.
    const startAt = Math.max(now, k.state.pullBusyUntil);
    const doneAt = startAt + duration;
    k.state.pullBusyUntil = doneAt;
    c.pull = { requestedAt: now, startAt, doneAt, sizeBytes: res.image.sizeBytes };
  }
  if (!c.waiting || (c.waiting.reason !== 'ImagePullBackOff' && c.waiting.reason !== 'ErrImagePull')) {
    c.waiting = { reason: 'ContainerCreating' };
  }
  return { wakeAt: c.pull.doneAt };
}
