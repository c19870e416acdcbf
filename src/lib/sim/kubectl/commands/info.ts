/** `version`, `cluster-info`, `api-resources`, `auth can-i`, `kubectl events`. */
import { apiVersionOf } from '../../api/resources';
import { discovery } from '../../api/aggregator';
import type { KubeObject } from '../../api/types';
import { parseFlags, str, bool } from '../args';
import type { ConsoleResult } from '../console';
import {
  apiList,
  apiTryGet,
  CommandError,
  KUBECTL,
  lastSeen,
  nowEpoch,
  resolveResource,
  type KubectlContext
} from '../context';
import { GET_TABLE, tabbed } from '../tabwriter';
import { since } from '../timefmt';
import { apiServerURL, serverGitVersion } from '../../controlplane/managed';

/** The API server address kubeadm clusters advertise (also in the cluster's connection errors). */
export const API_SERVER_URL = 'https://10.0.0.10:6443';
/** Kustomize version vendored by kubectl v1.35. */
const KUSTOMIZE_VERSION = 'v5.7.1';

function fullVersion(v: string): string {
  return /^v?\d+\.\d+\.\d+/.test(v)
    ? v.startsWith('v')
      ? v
      : `v${v}`
    : `${v.startsWith('v') ? v : `v${v}`}.0`;
}

export function version(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const p = parseFlags(argv, [{ name: 'client' }]);
  const v = fullVersion(ctx.cluster.config.kubernetesVersion);
  let out = `Client Version: ${v}\nKustomize Version: ${KUSTOMIZE_VERSION}\n`;
  // A managed control plane answers /version with the provider's build (v1.35.0-eks-…).
  if (!bool(p, 'client')) out += `Server Version: ${serverGitVersion(ctx.cluster.config.managed, v)}\n`;
  return { stdout: out, stderr: '', exitCode: 0 };
}

export function clusterInfo(ctx: KubectlContext): ConsoleResult {
  // A managed cluster's kubeconfig points at the provider's endpoint, not a kubeadm address.
  const managed = ctx.cluster.config.managed;
  const url = managed ? apiServerURL(managed, ctx.cluster.config.seed) : API_SERVER_URL;
  let out = `Kubernetes control plane is running at ${url}\n`;
  const dns = apiTryGet<KubeObject>(ctx, 'Service', 'kube-system', 'kube-dns');
  if (dns) out += `CoreDNS is running at ${url}/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy\n`;
  out += "\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n";
  return { stdout: out, stderr: '', exitCode: 0 };
}

/**
 * `kubectl api-resources` (pkg/cmd/apiresources): what discovery lists, so metrics.k8s.io appears
 * only while its APIService is Available. A stale group version is reported after the table
 * (`unable to retrieve the complete list of server APIs`, client-go ErrGroupDiscoveryFailed).
 */
export function apiResources(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const p = parseFlags(argv, [
    { name: 'namespaced', value: true },
    { name: 'api-group', value: true }
  ]);
  ctx.cluster.api.reachable(KUBECTL);
  const found = discovery(ctx.cluster.api);
  const failed = found.stale.length
    ? `error: unable to retrieve the complete list of server APIs: ${found.stale
        .map((gv) => `${gv}: stale GroupVersion discovery: ${gv}`)
        .join(', ')}\n`
    : '';
  const sorted = [...found.resources].sort((a, b) =>
    a.group !== b.group ? (a.group < b.group ? -1 : 1) : a.plural < b.plural ? -1 : 1
  );
  const rows = sorted
    .filter((r) => str(p, 'namespaced') === undefined || String(r.namespaced) === str(p, 'namespaced'))
    .filter((r) => str(p, 'api-group') === undefined || r.group === str(p, 'api-group'));
  if (str(p, 'output') === 'name') {
    return {
      stdout: rows.map((r) => (r.group ? `${r.plural}.${r.group}` : r.plural) + '\n').join(''),
      stderr: failed,
      exitCode: failed ? 1 : 0
    };
  }
  let text = 'NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND\n';
  for (const r of rows)
    text += `${r.plural}\t${r.shortNames.join(',')}\t${apiVersionOf(r)}\t${r.namespaced}\t${r.kind}\n`;
  return { stdout: tabbed(text, GET_TABLE), stderr: failed, exitCode: failed ? 1 : 0 };
}

/** Nodeplane simulates no RBAC: every request is allowed. */
export function auth(_ctx: KubectlContext, argv: string[]): ConsoleResult {
  if (argv[0] !== 'can-i')
    throw new CommandError(`error: unknown command "${argv[0] ?? ''}" for "kubectl auth"`);
  const p = parseFlags(argv.slice(1), [
    { name: 'list' },
    { name: 'as', value: true },
    { name: 'quiet', short: 'q' }
  ]);
  if (bool(p, 'list')) {
    const text = 'Resources\tNon-Resource URLs\tResource Names\tVerbs\n*.*\t[]\t[]\t[*]\n\t[*]\t[]\t[*]\n';
    return { stdout: tabbed(text, { minwidth: 0, padding: 2 }), stderr: '', exitCode: 0 };
  }
  if (p.positional.length < 2 && !p.positional[0]?.startsWith('/')) {
    throw new CommandError(
      'error: you must specify two arguments: verb resource or verb resource/resourceName.'
    );
  }
  return { stdout: bool(p, 'quiet') ? '' : 'yes\n', stderr: '', exitCode: 0 };
}

/** `kubectl events` (pkg/cmd/events): oldest first, `Kind/name`, `<last> (xN over <first>)`. */
export function events(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const p = parseFlags(argv, [
    { name: 'for', value: true },
    { name: 'types', value: true },
    { name: 'watch', short: 'w' }
  ]);
  const allNs = bool(p, 'all-namespaces');
  const ns = str(p, 'namespace') ?? 'default';
  let fs: string | undefined;
  if (str(p, 'for')) {
    const [t, name] = str(p, 'for')!.split('/');
    const r = resolveResource(t);
    fs = `involvedObject.kind=${r.kind},involvedObject.name=${name}`;
  }
  const types = str(p, 'types')?.split(',');
  const items = apiList(ctx, 'Event', { namespace: allNs ? undefined : ns, fieldSelector: fs })
    .filter((e) => !types || types.includes(String(e.type)))
    .sort((a, b) => lastSeen(a) - lastSeen(b));
  if (!items.length) {
    return {
      stdout: '',
      stderr: allNs ? 'No events found.\n' : `No events found in ${ns} namespace.\n`,
      exitCode: 0
    };
  }
  const now = nowEpoch(ctx);
  let text = (allNs ? 'NAMESPACE\t' : '') + 'LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n';
  for (const e of items) {
    const inv = (e.involvedObject ?? {}) as { kind?: string; name?: string };
    const count = (e.count as number) ?? 1;
    const last = since(e.lastTimestamp as string, now);
    const seen = count > 1 ? `${last} (x${count} over ${since(e.firstTimestamp as string, now)})` : last;
    text += `${allNs ? `${e.metadata.namespace}\t` : ''}${seen}\t${e.type}\t${e.reason}\t${inv.kind}/${inv.name}\t${String(e.message ?? '').trim()}\n`;
  }
  return { stdout: tabbed(text, GET_TABLE), stderr: '', exitCode: 0 };
}
