/** `kubectl rollout status|restart|undo|history` for deployments and daemonsets. */
import { clone, type KubeObject } from '../../api/types';
import { parseFlags, str } from '../args';
import type { ConsoleResult } from '../console';
import { apiGet, apiList, CommandError, KUBECTL, nowEpoch, qualified, type KubectlContext } from '../context';
import { resolveTargets } from './get';
import { rfc3339 } from '../timefmt';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

const REVISION = 'deployment.kubernetes.io/revision';

/** rollout_status.go: the message for the current state and whether the rollout is done. */
export function rolloutStatus(o: KubeObject): { msg: string; done: boolean; error?: string } {
  const st: Any = o.status ?? {};
  const observed = (o.metadata.generation ?? 0) <= (st.observedGeneration ?? 0);
  const name = o.metadata.name;
  if (o.kind === 'Deployment') {
    if (!observed) return { msg: 'Waiting for deployment spec update to be observed...\n', done: false };
    const progressing = (st.conditions ?? []).find((c: Any) => c.type === 'Progressing');
    if (progressing?.reason === 'ProgressDeadlineExceeded') {
      return { msg: '', done: true, error: `error: deployment "${name}" exceeded its progress deadline\n` };
    }
    const replicas = o.spec?.replicas ?? 1;
    const updated = st.updatedReplicas ?? 0;
    if (updated < replicas) {
      return {
        msg: `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${replicas} new replicas have been updated...\n`,
        done: false
      };
    }
    if ((st.replicas ?? 0) > updated) {
      return {
        msg: `Waiting for deployment "${name}" rollout to finish: ${st.replicas - updated} old replicas are pending termination...\n`,
        done: false
      };
    }
    if ((st.availableReplicas ?? 0) < updated) {
      return {
        msg: `Waiting for deployment "${name}" rollout to finish: ${st.availableReplicas ?? 0} of ${updated} updated replicas are available...\n`,
        done: false
      };
    }
    return { msg: `deployment "${name}" successfully rolled out\n`, done: true };
  }
  if (!observed) return { msg: 'Waiting for daemon set spec update to be observed...\n', done: false };
  const desired = st.desiredNumberScheduled ?? 0;
  if ((st.updatedNumberScheduled ?? 0) < desired) {
    return {
      msg: `Waiting for daemon set "${name}" rollout to finish: ${st.updatedNumberScheduled ?? 0} out of ${desired} new pods have been updated...\n`,
      done: false
    };
  }
  if ((st.numberAvailable ?? 0) < desired) {
    return {
      msg: `Waiting for daemon set "${name}" rollout to finish: ${st.numberAvailable ?? 0} of ${desired} updated pods are available...\n`,
      done: false
    };
  }
  return { msg: `daemon set "${name}" successfully rolled out\n`, done: true };
}

/** Root flags that take their value as the next word (`kubectl -n kube-system rollout restart …`). */
const VALUE_FLAGS = new Set([
  '-n',
  '--namespace',
  '--context',
  '--kubeconfig',
  '--request-timeout',
  '-s',
  '--server'
]);

export function rollout(ctx: KubectlContext, argv: string[]): ConsoleResult {
  // The subcommand is the first word that is neither a flag nor a flag's value.
  let at = 0;
  while (at < argv.length && argv[at].startsWith('-')) at += VALUE_FLAGS.has(argv[at]) ? 2 : 1;
  const sub = argv[at];
  const rest = [...argv.slice(0, at), ...argv.slice(at + 1)];
  const p = parseFlags(rest, [
    { name: 'watch', short: 'w', value: false },
    { name: 'to-revision', value: true },
    { name: 'timeout', value: true },
    { name: 'revision', value: true }
  ]);
  const ns = str(p, 'namespace') ?? 'default';
  const targets = resolveTargets(p.positional);
  const t = targets[0];
  if (!t.names.length) throw new CommandError('error: required resource not specified');
  if (!['Deployment', 'DaemonSet'].includes(t.r.kind)) {
    throw new CommandError(
      `error: no ${sub === 'status' ? 'status viewer' : sub === 'restart' ? 'restarter' : 'rollbacker'} has been implemented for ${t.r.kind.toLowerCase()}`
    );
  }
  const obj = apiGet<KubeObject>(ctx, t.r, ns, t.names[0]);
  const id = `${qualified(t.r)}/${obj.metadata.name}`;
  switch (sub) {
    case 'status':
      return status(ctx, t.r.kind, ns, obj, p.flags.watch !== 'false' && p.flags.watch !== false);
    case 'restart': {
      const tpl = {
        metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': rfc3339(nowEpoch(ctx)) } }
      };
      ctx.cluster.api.patch(t.r.kind, ns, obj.metadata.name, { spec: { template: tpl } }, KUBECTL);
      return { stdout: `${id} restarted\n`, stderr: '', exitCode: 0 };
    }
    case 'undo':
      return undo(ctx, obj, id, str(p, 'to-revision'));
    default:
      throw new CommandError(`error: unknown command "${sub ?? ''}" for "kubectl rollout"`);
  }
}

function status(
  ctx: KubectlContext,
  kind: string,
  ns: string,
  obj: KubeObject,
  watch: boolean
): ConsoleResult {
  const s = rolloutStatus(obj);
  if (s.error) return { stdout: '', stderr: s.error, exitCode: 1 };
  const result: ConsoleResult = { stdout: s.msg, stderr: '', exitCode: 0 };
  if (!s.done && watch) {
    let last = s.msg;
    let finished = false;
    result.watch = {
      poll() {
        if (finished) return '';
        const cur = ctx.cluster.api.tryGet<KubeObject>(kind, ns, obj.metadata.name);
        if (!cur) return '';
        const n = rolloutStatus(cur);
        if (n.done) finished = true;
        if (n.error) return n.error;
        if (n.msg === last) return '';
        last = n.msg;
        return n.msg;
      },
      stop() {
        finished = true;
      }
    };
  }
  return result;
}

function undo(ctx: KubectlContext, d: KubeObject, id: string, toRevision?: string): ConsoleResult {
  if (d.kind !== 'Deployment') throw new CommandError('error: rollback is only simulated for deployments');
  const rss = apiList<KubeObject>(ctx, 'ReplicaSet', { namespace: d.metadata.namespace })
    .filter((rs) => (rs.metadata.ownerReferences ?? []).some((r) => r.uid === d.metadata.uid))
    .map((rs) => ({ rs, rev: parseInt(rs.metadata.annotations?.[REVISION] ?? '0', 10) }))
    .sort((a, b) => b.rev - a.rev);
  const current = parseInt(d.metadata.annotations?.[REVISION] ?? String(rss[0]?.rev ?? 0), 10);
  const target = toRevision
    ? rss.find((x) => x.rev === parseInt(toRevision, 10))
    : rss.find((x) => x.rev < current);
  if (!target) {
    if (toRevision)
      throw new CommandError(`error: unable to find specified revision ${toRevision} in history`);
    throw new CommandError(`error: no rollout history found for deployment "${d.metadata.name}"`);
  }
  const tpl = clone(target.rs.spec?.template ?? {}) as Any;
  if (tpl.metadata?.labels) delete tpl.metadata.labels['pod-template-hash'];
  if (JSON.stringify(tpl) === JSON.stringify(d.spec?.template)) {
    return {
      stdout: `${id} skipped rollback (current template already matches revision ${target.rev})\n`,
      stderr: '',
      exitCode: 0
    };
  }
  const updated = clone(d) as KubeObject;
  updated.spec = { ...updated.spec, template: tpl };
  ctx.cluster.api.update(updated, KUBECTL);
  return { stdout: `${id} rolled back\n`, stderr: '', exitCode: 0 };
}
