/**
 * `nodeplane load services <N> --selector k=v`: the lab's load generator, what clusterloader2's
 * or kube-burner's Service phase does on a real cluster. It brings the generated ClusterIP
 * Services (`load-1` … `load-N`, label `nodeplane.dev/load: services`) to exactly N, each
 * selecting the given pods, by creating or deleting them through the API server as any client
 * would: admission allocates their ClusterIPs, the EndpointSlice controller writes their slices
 * and every kube-proxy syncs them.
 */
import type { KubeObject, RequestContext } from '../api/types';
import type { Cluster } from '../cluster';
import { errorText } from '../kubectl/context';

export const LOAD_LABEL = 'nodeplane.dev/load';
export const MAX_LOAD_SERVICES = 10_000;
const CTX: RequestContext = { component: 'nodeplane-load' };

export interface LoadServicesResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export const LOAD_USAGE =
  'usage: nodeplane load services <count> --selector <key>=<value>[,…] [--port <port>] [-n <namespace>]\n' +
  '  e.g. nodeplane load services 5000 --selector app=web --port 80\n';

const fail = (msg: string): LoadServicesResult => ({ stdout: '', stderr: msg, exitCode: 1 });

/** Parse `services <count> [flags]` and run it. */
export function loadServices(cluster: Cluster, args: string[]): LoadServicesResult {
  if (args[0] !== 'services') return fail(LOAD_USAGE);
  let count: string | undefined;
  let selector: string | undefined;
  let port = '80';
  let namespace = 'default';
  for (let i = 1; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf('=');
    const [flag, inline] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const value = () => inline ?? args[++i];
    if (flag === '--selector' || flag === '-l') selector = value();
    else if (flag === '--port') port = value() ?? '';
    else if (flag === '-n' || flag === '--namespace') namespace = value() ?? '';
    else if (a.startsWith('-')) return fail(`error: unknown flag: ${flag}\n${LOAD_USAGE}`);
    else if (count === undefined) count = a;
    else return fail(`error: unexpected argument "${a}"\n${LOAD_USAGE}`);
  }
  if (count === undefined) return fail(`error: the number of Services is missing\n${LOAD_USAGE}`);
  if (!/^\d+$/.test(count) || Number(count) > MAX_LOAD_SERVICES)
    return fail(`error: invalid count "${count}": expected a whole number from 0 to ${MAX_LOAD_SERVICES}\n`);
  if (!selector)
    return fail(
      `error: --selector is required: the pods the Services send traffic to, e.g. --selector app=web\n`
    );
  const sel: Record<string, string> = {};
  for (const part of selector.split(',')) {
    const m = /^([A-Za-z0-9][-A-Za-z0-9_./]*)=([-A-Za-z0-9_.]*)$/.exec(part);
    if (!m) return fail(`error: invalid selector "${selector}": expected key=value[,key=value]\n`);
    sel[m[1]] = m[2];
  }
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535)
    return fail(`error: invalid port "${port}": expected a number from 1 to 65535\n`);
  return scaleLoadServices(cluster, {
    count: Number(count),
    selector: sel,
    port: Number(port),
    namespace
  });
}

/** Bring the generated Services in `namespace` to `count`: create the missing ones, delete the extra. */
export function scaleLoadServices(
  cluster: Cluster,
  opts: { count: number; selector: Record<string, string>; port: number; namespace: string }
): LoadServicesResult {
  const api = cluster.api;
  const existing = api
    .list<KubeObject>('Service', { namespace: opts.namespace, labelSelector: `${LOAD_LABEL}=services` })
    .map((s) => s.metadata.name);
  const have = new Set(existing);
  let created = 0;
  let deleted = 0;
  try {
    for (let i = 1; i <= opts.count; i++) {
      const name = `load-${i}`;
      if (have.has(name)) continue;
      api.create(
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name, namespace: opts.namespace, labels: { [LOAD_LABEL]: 'services' } },
          spec: {
            selector: { ...opts.selector },
            ports: [{ name: 'http', port: opts.port, targetPort: opts.port, protocol: 'TCP' }]
          }
        } as KubeObject,
        CTX
      );
      created++;
    }
    for (const name of existing) {
      const n = Number(name.slice('load-'.length));
      if (!(n >= 1 && n <= opts.count)) {
        api.delete('Service', opts.namespace, name, {}, CTX);
        deleted++;
      }
    }
  } catch (e) {
    return {
      stdout: summary(created, deleted, opts),
      stderr: errorText(e) + '\n',
      exitCode: 1
    };
  }
  return { stdout: summary(created, deleted, opts), stderr: '', exitCode: 0 };
}

function summary(
  created: number,
  deleted: number,
  opts: { count: number; selector: Record<string, string>; port: number; namespace: string }
): string {
  const sel = Object.entries(opts.selector)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const range = opts.count ? (opts.count === 1 ? 'load-1' : `load-1 … load-${opts.count}`) : 'none';
  return (
    `${created} Services created, ${deleted} deleted: ${opts.count} load Services in namespace ` +
    `${opts.namespace} (${range}), selector ${sel}, port ${opts.port}/TCP\n`
  );
}
