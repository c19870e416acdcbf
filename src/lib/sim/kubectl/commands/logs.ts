/** `kubectl logs`: container output the runtime kept, fetched through the node's kubelet. */
import { ApiError } from '../../api/errors';
import type { KubeObject } from '../../api/types';
import type { CriContainer } from '../../node/cri';
import { parseFlags, str, bool } from '../args';
import type { ConsoleResult } from '../console';
import { apiGet, CommandError, resolveResource, type KubectlContext } from '../context';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

export function logs(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const p = parseFlags(argv, [
    { name: 'container', short: 'c', value: true },
    { name: 'follow', short: 'f' },
    { name: 'previous', short: 'p' },
    { name: 'tail', value: true },
    { name: 'timestamps' },
    { name: 'since', value: true },
    { name: 'all-containers' }
  ]);
  let [podName] = p.positional;
  if (!podName)
    throw new CommandError(
      "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples"
    );
  if (podName.includes('/')) {
    const [t, n] = podName.split('/');
    if (resolveResource(t).kind !== 'Pod')
      throw new CommandError(`error: logs are only simulated for pods; use pod/<name>`);
    podName = n;
  }
  const ns = str(p, 'namespace') ?? 'default';
  const pod = apiGet<KubeObject>(ctx, resolveResource('pod'), ns, podName);
  const containers: Any[] = pod.spec?.containers ?? [];
  let stderr = '';
  let cname = str(p, 'container') ?? p.positional[1];
  if (!cname) {
    cname = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'] ?? containers[0]?.name;
    if (containers.length > 1) {
      stderr += `Defaulted container "${cname}" out of: ${containers.map((c) => c.name).join(', ')}\n`;
    }
  }
  if (
    !containers.some((c) => c.name === cname) &&
    !(pod.spec?.initContainers ?? []).some((c: Any) => c.name === cname)
  ) {
    throw new ApiError(400, 'BadRequest', `container ${cname} is not valid for pod ${podName}`);
  }
  const nodeName: string | undefined = pod.spec?.nodeName;
  if (!nodeName) return { stdout: '', stderr, exitCode: 0 };
  const status: Any = [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? [])
  ].find((s: Any) => s.name === cname);
  const waiting = status?.state?.waiting?.reason ?? (!status ? 'ContainerCreating' : undefined);
  const host = ctx.cluster.nodeHost(nodeName);
  const ip = (ctx.cluster.api.tryGet<KubeObject>('Node', undefined, nodeName)?.status?.addresses ?? []).find(
    (a: Any) => a.type === 'InternalIP'
  )?.address;
  if (host && !host.kubeletRunning) {
    throw new ApiError(
      0 as number,
      '',
      `Get "https://${ip}:10250/containerLogs/${ns}/${podName}/${cname}": dial tcp ${ip}:10250: connect: connection refused`
    );
  }
  const attempts = (host?.containers() ?? [])
    .filter((c) => c.podName === podName && c.podNamespace === ns && c.name === cname)
    .sort((a, b) => a.attempt - b.attempt);
  let target: CriContainer | undefined;
  if (bool(p, 'previous')) {
    target = attempts.length > 1 ? attempts[attempts.length - 2] : undefined;
    if (!target)
      throw new ApiError(
        400,
        'BadRequest',
        `previous terminated container "${cname}" in pod "${podName}" not found`
      );
  } else {
    target = attempts[attempts.length - 1];
    if (!target && waiting) {
      throw new ApiError(
        400,
        'BadRequest',
        `container "${cname}" in pod "${podName}" is waiting to start: ${waiting}`
      );
    }
  }
  const epoch = ctx.cluster.api.epochMs;
  const fmt = (l: [number, string]) =>
    (bool(p, 'timestamps') ? new Date(epoch + l[0]).toISOString().replace('Z', '000000Z') + ' ' : '') +
    l[1] +
    '\n';
  let lines = target?.logs ?? [];
  const tail = str(p, 'tail');
  if (tail !== undefined && parseInt(tail, 10) >= 0)
    lines = lines.slice(Math.max(0, lines.length - parseInt(tail, 10)));
  const result: ConsoleResult = { stdout: lines.map(fmt).join(''), stderr, exitCode: 0 };
  if (bool(p, 'follow') && target) {
    const id = target.id;
    let seen = target.logs.length;
    let stopped = false;
    result.watch = {
      poll() {
        if (stopped) return '';
        const c = ctx.cluster
          .nodeHost(nodeName)
          ?.containers()
          .find((x) => x.id === id);
        if (!c) return '';
        const fresh = c.logs.slice(seen);
        seen = c.logs.length;
        return fresh.map(fmt).join('');
      },
      stop() {
        stopped = true;
      }
    };
  }
  return result;
}
