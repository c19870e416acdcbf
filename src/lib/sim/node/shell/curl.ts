/**
 * `curl` against the cluster's metrics endpoints from a node's shell: etcd's plain-HTTP metrics
 * listener (:2381) and the TLS ports of kube-apiserver (:6443), kube-controller-manager (:10257),
 * kube-scheduler (:10259) and the kubelet (:10250).
 *
 * What a kubeadm cluster answers (see docs/operations.md, "Reading /metrics"):
 * - without `-k` curl refuses the certificate: kube-apiserver's is signed by the cluster CA
 *   (and has no 127.0.0.1 SAN), the others serve self-signed certificates;
 * - with `-k` but no credentials the request is anonymous: kube-apiserver, kube-controller-manager
 *   and kube-scheduler authorize system:anonymous and answer 403 (only /healthz, /livez, /readyz
 *   are always allowed); the kubelet has anonymous authentication off (kubeadm's
 *   KubeletConfiguration) and answers 401;
 * - kubeadm's apiserver-kubelet-client certificate names the user kube-apiserver-kubelet-client
 *   and, since kubeadm v1.35.5 (kubernetes/kubernetes#138957, "use a dedicated ClusterRole for
 *   apiserver kubelet client"), no group: the ClusterRoleBinding kubeadm:apiserver-kubelet-client
 *   gives it system:kubelet-api-admin, which covers the kubelet's API (nodes/metrics, nodes/proxy…)
 *   and no non-resource path. So the kubelet serves it /metrics; kube-apiserver,
 *   kube-controller-manager and kube-scheduler answer 403. Read the API server's own metrics with
 *   `kubectl get --raw /metrics` (admin.conf, in kubeadm:cluster-admins).
 */
import type { Cluster } from '../../cluster';
import type { ShellResult } from './shell';
import { render } from '../../metrics/exposition';
import { targetAt } from '../../metrics/registry';
import { staticPods } from '../../etcd/staticpods';
import { resolvePath } from './cphost';

export const CLIENT_CERT = '/etc/kubernetes/pki/apiserver-kubelet-client.crt';
export const CLIENT_KEY = '/etc/kubernetes/pki/apiserver-kubelet-client.key';

interface CurlArgs {
  url?: string;
  silent: boolean;
  showError: boolean;
  insecure: boolean;
  cacert?: string;
  cert?: string;
  key?: string;
  unknown?: string;
}

const VALUE_FLAGS = new Set([
  '--cacert',
  '--cert',
  '--key',
  '-H',
  '--header',
  '-o',
  '--output',
  '-E',
  '-X',
  '--request',
  '-m',
  '--max-time'
]);

function parse(args: string[]): CurlArgs {
  const out: CurlArgs = { silent: false, showError: false, insecure: false };
  for (let i = 0; i < args.length; i++) {
    let a = args[i];
    let value: string | undefined;
    if (a.startsWith('--') && a.includes('='))
      [a, value] = [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)];
    if (VALUE_FLAGS.has(a)) {
      value ??= args[++i];
      if (a === '--cacert') out.cacert = value;
      else if (a === '--cert' || a === '-E') out.cert = value;
      else if (a === '--key') out.key = value;
      continue;
    }
    if (a === '--insecure') out.insecure = true;
    else if (a === '--silent') out.silent = true;
    else if (a === '--show-error') out.showError = true;
    else if (/^-[a-zA-Z]+$/.test(a)) {
      for (const ch of a.slice(1)) {
        if (ch === 's') out.silent = true;
        else if (ch === 'S') out.showError = true;
        else if (ch === 'k') out.insecure = true;
        else if (!'fLv'.includes(ch)) out.unknown ??= `-${ch}`;
      }
    } else if (a.startsWith('-')) out.unknown ??= a;
    else out.url ??= a;
  }
  return out;
}

/** The user kubeadm's apiserver-kubelet-client certificate names (its CN). */
export const CLIENT_CERT_USER = 'kube-apiserver-kubelet-client';

const forbidden = (path: string, user = 'system:anonymous') =>
  `{
  "kind": "Status",
  "apiVersion": "v1",
  "metadata": {},
  "status": "Failure",
  "message": "forbidden: User \\"${user}\\" cannot get path \\"${path}\\"",
  "reason": "Forbidden",
  "details": {},
  "code": 403
}
`;

const CERT_HELP = `More details here: https://curl.se/docs/sslcerts.html

curl failed to verify the legitimacy of the server and therefore could not
establish a secure connection to it. To learn more about this situation and
how to fix it, please visit the web page mentioned above.
`;

/**
 * Run curl on `host`. Returns undefined for a URL that is not one of the cluster's endpoints on
 * this host (the caller answers "Couldn't connect").
 */
export function curl(cluster: Cluster, host: string, args: string[]): ShellResult {
  const a = parse(args);
  const quiet = a.silent && !a.showError;
  const err = (code: number, msg: string): ShellResult => ({
    stdout: '',
    stderr: quiet ? '' : `curl: (${code}) ${msg}\n`,
    exitCode: code
  });
  const ok = (stdout: string): ShellResult => ({ stdout, stderr: '', exitCode: 0 });
  if (a.unknown)
    return {
      stdout: '',
      stderr: `curl: option ${a.unknown}: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n`,
      exitCode: 2
    };
  if (!a.url)
    return {
      stdout: '',
      stderr: "curl: try 'curl --help' or 'curl --manual' for more information\n",
      exitCode: 2
    };
  const m = /^(?:(https?):\/\/)?([^/:]+)(?::(\d+))?(\/[^?#]*)?/.exec(a.url);
  if (!m) return err(3, 'URL rejected: Malformed input to a URL function');
  const scheme = m[1] ?? 'http';
  const name = m[2];
  const port = Number(m[3] ?? (scheme === 'https' ? 443 : 80));
  const path = m[4] ?? '/';
  const local = name === '127.0.0.1' || name === 'localhost';
  const refused = () =>
    err(7, `Failed to connect to ${name} port ${port} after 0 ms: Couldn't connect to server`);
  // etcd's metrics listener is bound to 127.0.0.1 only (kubeadm); the rest listen on the host's address.
  const target = local ? targetAt(cluster, host, port) : targetAt(cluster, name, port, true);
  if (!target || !target.up || (!local && target.job === 'etcd')) return refused();

  if (target.job === 'etcd') {
    if (scheme === 'https')
      return err(35, 'OpenSSL/3.0.13: error:0A00010B:SSL routines::wrong version number');
    if (path === '/metrics') return ok(render(target.families()));
    if (path === '/health')
      return ok(
        cluster.etcd.hasQuorum()
          ? '{"health":"true","reason":""}'
          : '{"health":"false","reason":"RAFT NO LEADER"}'
      );
    return ok('404 page not found\n');
  }
  // The other components serve only TLS.
  if (scheme === 'http') return ok('Client sent an HTTP request to an HTTPS server.\n');
  const sp = staticPods(cluster);
  const files = sp?.hosts.includes(host) ? sp.files(host) : {};
  for (const f of [a.cacert, a.cert, a.key]) {
    if (f && !files[resolvePath(f)]) {
      if (f === a.cacert) return err(77, `error setting certificate file: ${f}`);
      return err(
        58,
        `could not load PEM client certificate from ${a.cert}, OpenSSL error error:80000002:system library::No such file or directory, (no key found, wrong pass phrase, or wrong file format?)`
      );
    }
  }
  if (!a.insecure) {
    if (target.job !== 'apiserver')
      return err(
        60,
        `SSL certificate problem: self-signed certificate in certificate chain\n${CERT_HELP}`.trimEnd()
      );
    return a.cacert
      ? err(
          60,
          `SSL: no alternative certificate subject name matches target host name '${name}'\n${CERT_HELP}`.trimEnd()
        )
      : err(60, `SSL certificate problem: unable to get local issuer certificate\n${CERT_HELP}`.trimEnd());
  }
  const admin =
    a.cert !== undefined &&
    resolvePath(a.cert) === CLIENT_CERT &&
    a.key !== undefined &&
    resolvePath(a.key) === CLIENT_KEY;
  const alwaysAllowed = ['/healthz', '/livez', '/readyz'].includes(path);
  if (alwaysAllowed) return ok('ok');
  if (!admin) {
    if (target.job === 'kubelet') return ok('Unauthorized');
    return ok(forbidden(path));
  }
  // system:kubelet-api-admin: the kubelet's API only.
  if (target.job !== 'kubelet') return ok(forbidden(path, CLIENT_CERT_USER));
  if (path === '/metrics') return ok(render(target.families()));
  return ok('404 page not found\n');
}
