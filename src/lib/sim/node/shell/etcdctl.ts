/**
 * etcdctl and etcdutl on a control-plane host, as etcd v3.6 (what kubeadm v1.35 deploys) prints
 * them. Printers follow etcdctl/ctlv3/command/printer.go, printer_simple.go and printer_table.go:
 * `member list` and `endpoint status` as comma-separated rows or olekukonko/tablewriter tables,
 * `endpoint health` lines on stderr, sizes through go-humanize (SI). Client TLS is checked against
 * kubeadm's PKI (/etc/kubernetes/pki/etcd); a member that is down or a cluster without quorum
 * gives grpc's retry warning and `Error: context deadline exceeded`.
 */
import type { Cluster } from '../../cluster';
import type { KubeObject } from '../../api/types';
import { resourceForKind } from '../../api/resources';
import { ETCD_VERSION } from '../../etcd/manifests';
import { MEMBERSHIP_ERRORS, MembershipError } from '../../etcd/etcd';
import { keyspaceSizeBytes, type StaticPods } from '../../etcd/staticpods';
import { resolvePath } from './cphost';
import type { ShellResult } from './shell';

const ok = (stdout: string, stderr = ''): ShellResult => ({ stdout, stderr, exitCode: 0 });
const fail = (stderr: string, stdout = ''): ShellResult => ({ stdout, stderr, exitCode: 1 });

const ETCD_CA = '/etc/kubernetes/pki/etcd/ca.crt';
/** Client certificate pairs signed by the etcd CA that kubeadm writes. */
const CLIENT_PAIRS: Record<string, string> = {
  '/etc/kubernetes/pki/etcd/server.crt': '/etc/kubernetes/pki/etcd/server.key',
  '/etc/kubernetes/pki/etcd/peer.crt': '/etc/kubernetes/pki/etcd/peer.key',
  '/etc/kubernetes/pki/etcd/healthcheck-client.crt': '/etc/kubernetes/pki/etcd/healthcheck-client.key',
  '/etc/kubernetes/pki/apiserver-etcd-client.crt': '/etc/kubernetes/pki/apiserver-etcd-client.key'
};

function fnv32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A member's ID (hex, as etcdctl prints `%x`): stable per member name and peer URL. */
export function memberId(name: string, peerURL: string): string {
  return (
    fnv32(`${name}|${peerURL}`).toString(16) + fnv32(`${peerURL}|${name}`).toString(16).padStart(8, '0')
  ).replace(/^0+/, '');
}

/** go-humanize Bytes: SI units, one decimal under 10. */
export function humanizeBytes(n: number): string {
  if (n < 10) return `${n} B`;
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  const e = Math.floor(Math.log(n) / Math.log(1000));
  const v = Math.floor((n / 1000 ** e) * 10 + 0.5) / 10;
  return `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ${units[e]}`;
}

/** olekukonko/tablewriter with etcdctl's defaults; `right` marks the right-aligned columns. */
export function table(header: string[], rows: string[][], right: boolean[]): string {
  const w = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = '+' + w.map((n) => '-'.repeat(n + 2)).join('+') + '+\n';
  const head =
    '|' +
    header
      .map((h, i) => {
        const pad = w[i] - h.length;
        const l = Math.floor(pad / 2);
        return ' ' + ' '.repeat(l) + h + ' '.repeat(pad - l) + ' ';
      })
      .join('|') +
    '|\n';
  const body = rows
    .map(
      (r) =>
        '|' + r.map((c, i) => ' ' + (right[i] ? c.padStart(w[i]) : c.padEnd(w[i])) + ' ').join('|') + '|\n'
    )
    .join('');
  return line + head + line + body + line;
}

interface MemberView {
  /** The member's name in the simulation (etcd-0 …). */
  member: string;
  host: string;
  /** The name etcd reports: empty until the member has started once. */
  name: string;
  id: string;
  peerURL: string;
  clientURL: string;
  running: boolean;
  leader: boolean;
  learner: boolean;
  unstarted: boolean;
}

/** The peer URL a member added by hand names a machine that is not a control-plane host: its address. */
const FOREIGN = /^\d+\.\d+\.\d+\.\d+$/;

function members(cluster: Cluster, sp: StaticPods): MemberView[] {
  return cluster.etcd.members.map((m) => {
    const ip = FOREIGN.test(m.host) ? m.host : sp.ipOf(m.host);
    const f = sp.files(m.host)[sp.state.etcdDir[m.host] ?? '/var/lib/etcd'];
    const dd = f?.type === 'datadir' ? sp.state.dataDirs[f.data] : undefined;
    const name = dd?.name ?? m.host;
    const peerURL = dd?.peerURL ?? `https://${ip}:2380`;
    const id = memberId(name, peerURL);
    const unstarted = !!m.unstarted;
    return {
      member: m.name,
      host: m.host,
      name: unstarted ? '' : name,
      id,
      peerURL,
      clientURL: unstarted ? '' : `https://${ip}:2379`,
      running: m.running,
      leader: cluster.etcd.leader === m.name,
      learner: !!m.learner,
      unstarted
    };
  });
}

/** The cluster ID etcdctl prints: stable for the live membership's generation. */
function clusterId(sp: StaticPods): string {
  return memberId('cluster', sp.state.live);
}

function ts(cluster: Cluster, plusMs = 0): string {
  const iso = new Date(cluster.api.epochMs + cluster.now + plusMs).toISOString();
  return iso.replace(/\.(\d{3})Z$/, '.$1000Z');
}

interface Flags {
  endpoints: string[];
  cacert?: string;
  cert?: string;
  key?: string;
  write: string;
  cluster: boolean;
  prefix: boolean;
  keysOnly: boolean;
  serializable: boolean;
  limit?: number;
  /** member add: --peer-urls and --learner. */
  peerURLs?: string;
  learner?: boolean;
  positional: string[];
  unknown?: string;
}

const VALUE_FLAGS = [
  '--endpoints',
  '--cacert',
  '--cert',
  '--key',
  '-w',
  '--write-out',
  '--dial-timeout',
  '--command-timeout',
  '--consistency',
  '--limit',
  '--user',
  '--password',
  '--peer-urls'
];

function parseFlags(args: string[], env: Record<string, string>): Flags {
  const f: Flags = {
    endpoints: (env.ETCDCTL_ENDPOINTS ?? '127.0.0.1:2379').split(','),
    cacert: env.ETCDCTL_CACERT,
    cert: env.ETCDCTL_CERT,
    key: env.ETCDCTL_KEY,
    write: env.ETCDCTL_WRITE_OUT ?? 'simple',
    cluster: false,
    prefix: false,
    keysOnly: false,
    serializable: false,
    positional: []
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) {
      f.positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    let value = eq > 0 ? a.slice(eq + 1) : undefined;
    if (VALUE_FLAGS.includes(name) && value === undefined) value = args[++i] ?? '';
    switch (name) {
      case '--endpoints':
        f.endpoints = (value ?? '').split(',').filter(Boolean);
        break;
      case '--cacert':
        f.cacert = value;
        break;
      case '--cert':
        f.cert = value;
        break;
      case '--key':
        f.key = value;
        break;
      case '-w':
      case '--write-out':
        f.write = value ?? 'simple';
        break;
      case '--cluster':
        f.cluster = true;
        break;
      case '--prefix':
        f.prefix = true;
        break;
      case '--keys-only':
        f.keysOnly = true;
        break;
      case '--consistency':
        f.serializable = value === 's';
        break;
      case '--peer-urls':
        f.peerURLs = value;
        break;
      case '--learner':
        f.learner = value === undefined || value === 'true';
        break;
      case '--limit':
        f.limit = Number(value);
        break;
      case '--dial-timeout':
      case '--command-timeout':
      case '--user':
      case '--password':
      case '--insecure-skip-tls-verify':
      case '--debug':
        break;
      default:
        f.unknown ??= name;
    }
  }
  return f;
}

/** Which member an endpoint reaches from `host`. */
function memberAt(all: MemberView[], host: string, endpoint: string): MemberView | undefined {
  const hp = endpoint.replace(/^https?:\/\//, '');
  if (hp === '127.0.0.1:2379' || hp === 'localhost:2379') return all.find((m) => m.host === host);
  return all.find((m) => m.clientURL.replace(/^https:\/\//, '') === hp);
}

type Dial = { member: MemberView } | { error: string };

/** Connect as etcdctl's grpc client does: scheme, then the server's and the client's certificates. */
function dial(
  cluster: Cluster,
  sp: StaticPods,
  host: string,
  f: Flags,
  endpoint: string,
  all: MemberView[]
): Dial {
  const m = memberAt(all, host, endpoint);
  const hp = endpoint.replace(/^https?:\/\//, '');
  if (!m || !m.running)
    return { error: `transport: Error while dialing: dial tcp ${hp}: connect: connection refused` };
  const tls = endpoint.startsWith('https://') || !!f.cacert || !!f.cert;
  if (!tls) return { error: 'error reading server preface: EOF' };
  if (f.cacert !== ETCD_CA)
    return {
      error:
        'transport: authentication handshake failed: tls: failed to verify certificate: x509: certificate signed by unknown authority'
    };
  if (!f.cert || CLIENT_PAIRS[f.cert] !== f.key) return { error: 'remote error: tls: certificate required' };
  void cluster;
  void sp;
  return { member: m };
}

/** Files named by --cacert/--cert/--key must exist and pair up before anything is dialled. */
function checkTlsFiles(sp: StaticPods, host: string, f: Flags): string | undefined {
  if (!!f.cert !== !!f.key)
    return `KeyFile and CertFile must both be present[key: ${f.key ?? ''}, cert: ${f.cert ?? ''}]`;
  for (const p of [f.cacert, f.cert, f.key]) {
    if (p && !sp.files(host)[resolvePath(p)]) return `open ${p}: no such file or directory`;
  }
  return undefined;
}

function retryWarning(cluster: Cluster, endpoint: string, method: string, error: string): string {
  const hp = endpoint.replace(/^https?:\/\//, '');
  return (
    JSON.stringify({
      level: 'warn',
      ts: ts(cluster, 5000),
      logger: 'etcd-client',
      caller: `v3@v${ETCD_VERSION}/retry_interceptor.go:65`,
      msg: 'retrying of unary invoker failed',
      target: `etcd-endpoints://0xc0001f2000/${hp}`,
      method,
      attempt: 0,
      error: `rpc error: code = DeadlineExceeded desc = latest balancer error: last connection error: connection error: desc = "${error}"`
    }) + '\n'
  );
}

function tookMs(cluster: Cluster, seed: string): string {
  const us = 4000 + (fnv32(`${seed}/${cluster.now}`) % 9000);
  return `${(us / 1000).toFixed(3).replace(/0+$/, '').replace(/\.$/, '')}ms`;
}

/** etcd's key for an object (k8s.io/apiserver storage: /registry/<resource>/<namespace>/<name>). */
export function registryKey(o: KubeObject): string {
  const special: Record<string, string> = {
    Node: 'minions',
    Service: 'services/specs',
    Endpoints: 'services/endpoints'
  };
  let res = special[o.kind];
  if (!res) {
    try {
      res = resourceForKind(o.kind).plural;
    } catch {
      res = o.kind.toLowerCase() + 's';
    }
  }
  return `/registry/${res}/${o.metadata.namespace ? o.metadata.namespace + '/' : ''}${o.metadata.name}`;
}

const SNAPSHOT_HELP = `NAME:
	snapshot - Manages etcd node snapshots

USAGE:
	etcdctl snapshot <subcommand> [flags]

API VERSION:
	3.6


COMMANDS:
	save	Stores an etcd node backend snapshot to a given file

OPTIONS:
  -h, --help[=false]	help for snapshot

`;

export function etcdctl(
  cluster: Cluster,
  sp: StaticPods,
  host: string,
  args: string[],
  env: Record<string, string>
): ShellResult {
  const f = parseFlags(args, env);
  const [cmd, sub, ...rest] = f.positional;
  if (cmd === 'version') return ok(`etcdctl version: ${ETCD_VERSION}\nAPI version: 3.6\n`);
  if (cmd === 'snapshot' && sub !== 'save') {
    if (f.unknown) return fail(`Error: unknown flag: ${f.unknown}\n` + SNAPSHOT_HELP.replace(/^/, ''));
    return ok(SNAPSHOT_HELP);
  }
  if (f.unknown) return fail(`Error: unknown flag: ${f.unknown}\n`);
  if (!cmd)
    return ok(
      'NAME:\n\tetcdctl - A simple command line client for etcd3.\n\nUSAGE:\n\tetcdctl [flags]\n\nVERSION:\n\t' +
        ETCD_VERSION +
        '\n\nAPI VERSION:\n\t3.6\n'
    );
  const known: Record<string, string[]> = {
    member: ['list', 'add', 'remove', 'promote'],
    endpoint: ['health', 'status'],
    get: [],
    snapshot: ['save']
  };
  if (!(cmd in known))
    return fail(`Error: unknown command "${cmd}" for "etcdctl"\nRun 'etcdctl --help' for usage.\n`);
  if (!['simple', 'table', 'json', 'fields', 'protobuf'].includes(f.write))
    return fail(`Error: unknown output format ${f.write}\n`);
  const tlsError = checkTlsFiles(sp, host, f);
  if (tlsError) return fail(`Error: ${tlsError}\n`);
  const all = members(cluster, sp);
  const quorum = cluster.etcd.hasQuorum();

  if (cmd === 'member') {
    if (!['list', 'add', 'remove', 'promote'].includes(sub ?? ''))
      return ok(`NAME:\n\tmember - Membership related commands\n`);
    if (sub !== 'list')
      return memberChange(cluster, sp, host, f, all, sub as 'add' | 'remove' | 'promote', rest);
    const r = firstReachable(cluster, sp, host, f, all, '/etcdserverpb.Cluster/MemberList');
    if ('error' in r) return r.error;
    if (!quorum)
      return fail(
        retryWarning(
          cluster,
          f.endpoints[0],
          '/etcdserverpb.Cluster/MemberList',
          'context deadline exceeded'
        ).replace(
          /latest balancer error.*?desc = \\"context deadline exceeded\\"/,
          'context deadline exceeded'
        ) + 'Error: context deadline exceeded\n'
      );
    // printer.go makeMemberListTable: "unstarted" while the member has no name yet.
    const rows = all.map((m) => [
      m.id,
      m.unstarted ? 'unstarted' : 'started',
      m.name,
      m.peerURL,
      m.clientURL,
      String(m.learner)
    ]);
    if (f.write === 'table')
      return ok(
        table(['ID', 'STATUS', 'NAME', 'PEER ADDRS', 'CLIENT ADDRS', 'IS LEARNER'], rows, [
          false,
          false,
          false,
          false,
          false,
          true
        ])
      );
    return ok(rows.map((r) => r.join(', ') + '\n').join(''));
  }

  if (cmd === 'endpoint') {
    if (sub !== 'health' && sub !== 'status') return ok(`NAME:\n\tendpoint - Endpoint related commands\n`);
    let endpoints = f.endpoints;
    if (f.cluster) {
      const r = firstReachable(cluster, sp, host, f, all, '/etcdserverpb.Cluster/MemberList');
      if ('error' in r) return r.error;
      endpoints = all.map((m) => m.clientURL);
    }
    if (sub === 'health') {
      const rows: string[][] = [];
      let stderr = '';
      let unhealthy = false;
      for (const ep of endpoints) {
        const d = dial(cluster, sp, host, f, ep, all);
        const err = 'error' in d ? 'context deadline exceeded' : quorum ? '' : 'context deadline exceeded';
        if ('error' in d) stderr += retryWarning(cluster, ep, '/etcdserverpb.KV/Range', d.error);
        const took = tookMs(cluster, ep);
        rows.push([ep, String(!err), err ? '' : took, err ? `failed to commit proposal: ${err}` : '']);
        if (err) unhealthy = true;
      }
      const tail = unhealthy ? 'Error: unhealthy cluster\n' : '';
      if (f.write === 'table')
        return {
          stdout: table(['ENDPOINT', 'HEALTH', 'TOOK', 'ERROR'], rows, [false, true, true, false]),
          stderr: stderr + tail,
          exitCode: unhealthy ? 1 : 0
        };
      for (const [ep, h, took, err] of rows)
        stderr +=
          h === 'true'
            ? `${ep} is healthy: successfully committed proposal: took = ${took}\n`
            : `${ep} is unhealthy: ${err}\n`;
      return { stdout: '', stderr: stderr + tail, exitCode: unhealthy ? 1 : 0 };
    }
    const rows: string[][] = [];
    let stderr = '';
    const db = keyspaceSizeBytes(cluster.api.snapshot().objects);
    for (const ep of endpoints) {
      const d = dial(cluster, sp, host, f, ep, all);
      if ('error' in d) {
        stderr += retryWarning(cluster, ep, '/etcdserverpb.Maintenance/Status', d.error);
        stderr +=
          JSON.stringify({
            level: 'warn',
            ts: ts(cluster, 5000),
            caller: 'command/ep_command.go:232',
            msg: 'failed to get the status of endpoint',
            endpoint: ep,
            error: 'context deadline exceeded'
          }) + '\n';
        continue;
      }
      const index = cluster.api.resourceVersion + cluster.etcd.term * 3 + 5;
      rows.push([
        ep,
        d.member.id,
        ETCD_VERSION,
        humanizeBytes(db),
        String(d.member.leader),
        String(d.member.learner),
        String(cluster.etcd.term),
        String(index),
        String(index),
        quorum ? '' : 'etcdserver: no leader'
      ]);
    }
    const code = rows.length ? 0 : 1;
    if (f.write === 'table')
      return {
        stdout: table(
          [
            'ENDPOINT',
            'ID',
            'VERSION',
            'DB SIZE',
            'IS LEADER',
            'IS LEARNER',
            'RAFT TERM',
            'RAFT INDEX',
            'RAFT APPLIED INDEX',
            'ERRORS'
          ],
          rows,
          [false, false, true, true, true, true, true, true, true, false]
        ),
        stderr,
        exitCode: code
      };
    return { stdout: rows.map((r) => r.join(', ') + '\n').join(''), stderr, exitCode: code };
  }

  if (cmd === 'get') {
    const key = sub;
    if (!key)
      return fail('Error: get command needs one argument as key and an optional argument as range_end\n');
    if (f.write === 'table') return fail('Error: table is not supported as output format\n');
    const r = firstReachable(cluster, sp, host, f, all, '/etcdserverpb.KV/Range');
    if ('error' in r) return r.error;
    if (!quorum && !f.serializable)
      return fail(
        retryWarning(cluster, f.endpoints[0], '/etcdserverpb.KV/Range', 'etcdserver: request timed out') +
          'Error: context deadline exceeded\n'
      );
    const end = rest[0];
    const objs = cluster.api.snapshot().objects.map((o) => [registryKey(o), o] as const);
    objs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    let hits = objs.filter(([k]) => (f.prefix ? k.startsWith(key) : end ? k >= key && k < end : k === key));
    if (f.limit && f.limit > 0) hits = hits.slice(0, f.limit);
    let out = '';
    for (const [k, o] of hits) {
      out += k + '\n';
      // Values are protobuf behind the `k8s\0` magic; shown here as the object's JSON.
      out += f.keysOnly ? '\n' : 'k8s\u0000' + JSON.stringify(o) + '\n';
    }
    return ok(out);
  }

  // snapshot save <file>
  const file = rest[0];
  if (!file) return fail('Error: snapshot save expects one argument\n');
  if (f.endpoints.length !== 1 || f.cluster)
    return fail(
      `Error: snapshot must be requested to one selected node, not multiple [${f.endpoints.join(' ')}]\n`
    );
  const d = dial(cluster, sp, host, f, f.endpoints[0], all);
  if ('error' in d)
    return fail(
      retryWarning(cluster, f.endpoints[0], '/etcdserverpb.Maintenance/Status', d.error) +
        'Error: context deadline exceeded\n'
    );
  const path = resolvePath(file);
  const dir = path.slice(0, path.lastIndexOf('/')) || '/';
  if (!sp.isDir(host, dir))
    return fail(`Error: could not open ${file}.part (open ${file}.part: no such file or directory)\n`);
  const id = sp.takeSnapshot();
  sp.files(host)[path] = { type: 'snapshot', snapshot: id, mtime: cluster.now };
  const size = sp.state.snapshots[id].sizeBytes;
  const log = (caller: string, msg: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ level: 'info', ts: ts(cluster), caller, msg, ...extra }) + '\n';
  const stderr =
    log('snapshot/v3_snapshot.go:65', 'created temporary db file', { path: `${file}.part` }) +
    log(`v3@v${ETCD_VERSION}/maintenance.go:237`, 'opened snapshot stream; downloading') +
    log('snapshot/v3_snapshot.go:73', 'fetching snapshot', { endpoint: f.endpoints[0] }) +
    log(`v3@v${ETCD_VERSION}/maintenance.go:302`, 'completed snapshot read; closing') +
    log('snapshot/v3_snapshot.go:88', 'fetched snapshot', {
      endpoint: f.endpoints[0],
      size: humanizeBytes(size),
      took: 'now'
    }) +
    log('snapshot/v3_snapshot.go:97', 'saved', { path: file });
  return ok(`Snapshot saved at ${file}\n`, stderr);
}

/** Printed as etcdctl's `%16x`: the hex ID right-aligned in 16 columns. */
const hex16 = (id: string) => id.padStart(16, ' ');

/**
 * `member add <name> --peer-urls=<url> [--learner]`, `member remove <id>`, `member promote <id>`
 * (etcdctl/ctlv3/command/member_command.go; printer_simple.go MemberAdd/MemberRemove/MemberPromote).
 * After an add, the simple printer prints the ETCD_* settings the new member must start with.
 */
function memberChange(
  cluster: Cluster,
  sp: StaticPods,
  host: string,
  f: Flags,
  all: MemberView[],
  sub: 'add' | 'remove' | 'promote',
  args: string[]
): ShellResult {
  if (sub === 'add') {
    if (args.length !== 1) return fail('Error: member name not provided\n');
    if (!f.peerURLs) return fail('Error: member peer urls not provided\n');
  } else if (args.length !== 1) return fail('Error: member ID is not provided\n');
  let target: MemberView | undefined;
  if (sub !== 'add') {
    if (!/^[0-9a-fA-F]{1,16}$/.test(args[0]))
      return fail(
        `Error: bad member ID arg (strconv.ParseUint: parsing "${args[0]}": invalid syntax), expecting ID in Hex\n`
      );
    target = all.find((m) => m.id === args[0].toLowerCase().replace(/^0+/, ''));
  }
  const method = `/etcdserverpb.Cluster/Member${sub[0].toUpperCase()}${sub.slice(1)}`;
  const r = firstReachable(cluster, sp, host, f, all, method);
  if ('error' in r) return r.error;
  const cid = hex16(clusterId(sp));
  const apply = (change: () => void): string | undefined => {
    try {
      change();
      sp.membershipChanged();
      return undefined;
    } catch (e) {
      if (e instanceof MembershipError) return e.message;
      throw e;
    }
  };
  if (sub === 'add') {
    const urls = f.peerURLs!.split(',');
    const m = /^https?:\/\/(\d+\.\d+\.\d+\.\d+):2380$/.exec(urls[0]);
    if (!m) return fail(`Error: URL address does not have the form "host:port": ${urls[0]}\n`);
    const ip = m[1];
    if (all.some((x) => x.peerURL === urls[0])) return fail(`Error: ${MEMBERSHIP_ERRORS.peerURLExists}\n`);
    const onHost = sp.hosts.find((h) => sp.ipOf(h) === ip) ?? ip;
    const taken = new Set(cluster.etcd.members.map((x) => x.name));
    let n = 0;
    while (taken.has(`etcd-${n}`)) n++;
    const err = apply(() => cluster.etcd.add(`etcd-${n}`, onHost, !!f.learner));
    if (err) return fail(`Error: ${err}\n`);
    const id = memberId(onHost, urls[0]);
    const conf = [...all.map((x) => `${x.name}=${x.peerURL}`), `${args[0]}=${urls[0]}`];
    return ok(
      `Member ${hex16(id)} added${f.learner ? ' as learner ' : ' '}to cluster ${cid}\n` +
        (f.write === 'simple'
          ? `\nETCD_NAME="${args[0]}"\nETCD_INITIAL_CLUSTER="${conf.join(',')}"\nETCD_INITIAL_ADVERTISE_PEER_URLS="${f.peerURLs}"\nETCD_INITIAL_CLUSTER_STATE="existing"\n`
          : '')
    );
  }
  if (!target) return fail(`Error: ${MEMBERSHIP_ERRORS.notFound}\n`);
  const err = apply(() =>
    sub === 'remove' ? cluster.etcd.remove(target.member) : cluster.etcd.promote(target.member)
  );
  if (err) return fail(`Error: ${err}\n`);
  const shown = hex16(target.id);
  return ok(
    sub === 'remove'
      ? `Member ${shown} removed from cluster ${cid}\n`
      : `Member ${shown} promoted in cluster ${cid}\n`
  );
}

function firstReachable(
  cluster: Cluster,
  sp: StaticPods,
  host: string,
  f: Flags,
  all: MemberView[],
  method: string
): { member: MemberView } | { error: ShellResult } {
  let warn = '';
  for (const ep of f.endpoints) {
    const d = dial(cluster, sp, host, f, ep, all);
    if ('member' in d) return d;
    warn += retryWarning(cluster, ep, method, d.error);
  }
  return { error: fail(warn + 'Error: context deadline exceeded\n') };
}

/** etcdutl snapshot status | restore. */
export function etcdutl(cluster: Cluster, sp: StaticPods, host: string, args: string[]): ShellResult {
  const opts: Record<string, string> = {};
  const positional: string[] = [];
  const valueFlags = [
    '--data-dir',
    '--name',
    '--initial-cluster',
    '--initial-cluster-token',
    '--initial-advertise-peer-urls',
    '--bump-revision',
    '-w',
    '--write-out',
    '--wal-dir'
  ];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (valueFlags.includes(name)) opts[name] = eq > 0 ? a.slice(eq + 1) : (args[++i] ?? '');
    else if (name === '--mark-compacted' || name === '--skip-hash-check') opts[name] = 'true';
    else return fail(`Error: unknown flag: ${name}\n`);
  }
  const [cmd, sub, file] = positional;
  if (cmd === 'version') return ok(`etcdutl version: ${ETCD_VERSION}\nAPI version: 3.6\n`);
  if (cmd !== 'snapshot' || (sub !== 'status' && sub !== 'restore')) {
    if (cmd && cmd !== 'snapshot')
      return fail(`Error: unknown command "${cmd}" for "etcdutl"\nRun 'etcdutl --help' for usage.\n`);
    return ok(
      'Usage:\n  etcdutl snapshot [command]\n\nAvailable Commands:\n  restore     Restores an etcd member snapshot to an etcd directory\n  status      Gets backend snapshot status of a given file\n'
    );
  }
  if (!file) return fail(`Error: snapshot ${sub} requires exactly one argument\n`);
  const path = resolvePath(file);
  const entry = sp.files(host)[path];
  if (!entry) return fail(`Error: stat ${file}: no such file or directory\n`);
  if (entry.type !== 'snapshot')
    return fail(
      entry.type === 'file' ? `Error: invalid database\n` : `Error: read ${file}: is a directory\n`
    );
  const snap = sp.state.snapshots[entry.snapshot];
  const write = opts['-w'] ?? opts['--write-out'] ?? 'simple';
  if (sub === 'status') {
    const row = [
      snap.hash.toString(16),
      String(snap.revision),
      String(snap.totalKeys),
      humanizeBytes(snap.sizeBytes),
      '3.6.0'
    ];
    if (write === 'table')
      return ok(
        table(
          ['HASH', 'REVISION', 'TOTAL KEYS', 'TOTAL SIZE', 'VERSION'],
          [row],
          [false, true, true, true, true]
        )
      );
    if (write === 'json')
      return ok(
        JSON.stringify({
          hash: snap.hash,
          revision: snap.revision,
          totalKey: snap.totalKeys,
          totalSize: snap.sizeBytes,
          version: '3.6.0'
        }) + '\n'
      );
    return ok(row.join(', ') + '\n');
  }
  const name = opts['--name'] ?? 'default';
  const dataDir = resolvePath(opts['--data-dir'] ?? `${name}.etcd`);
  const shownDir = opts['--data-dir'] ?? `${name}.etcd`;
  const bump = Number(opts['--bump-revision'] ?? 0);
  if (!Number.isInteger(bump) || bump < 0)
    return fail(
      `Error: invalid argument "${opts['--bump-revision']}" for "--bump-revision" flag: strconv.ParseUint: parsing "${opts['--bump-revision']}": invalid syntax\n`
    );
  if (bump > 0 && !opts['--mark-compacted'])
    return fail('Error: --mark-compacted required if --bump-revision > 0\n');
  const peerURL = opts['--initial-advertise-peer-urls'] ?? 'http://localhost:2380';
  const initialCluster = opts['--initial-cluster'] ?? `${name}=${peerURL}`;
  const clusterMembers = initialCluster.split(',').filter(Boolean);
  if (!clusterMembers.some((m) => m.startsWith(`${name}=`)))
    return fail(`Error: couldn't find local name "${name}" in the initial cluster configuration\n`);
  const files = sp.files(host);
  const existing = files[dataDir];
  if (existing || Object.keys(files).some((p) => p.startsWith(dataDir + '/')))
    return fail(`Error: data-dir "${shownDir}" not empty or could not be read\n`);
  const parentDir = dataDir.slice(0, dataDir.lastIndexOf('/')) || '/';
  if (!sp.isDir(host, parentDir)) return fail(`Error: mkdir ${shownDir}: no such file or directory\n`);
  const token = opts['--initial-cluster-token'] ?? 'etcd-cluster';
  const id = sp.nextId('data');
  sp.state.dataDirs[id] = {
    generation: `${entry.snapshot}|${token}|${initialCluster}|${bump}`,
    snapshot: entry.snapshot,
    name,
    peerURL,
    clusterSize: clusterMembers.length,
    bumpRevision: bump
  };
  files[dataDir] = { type: 'datadir', data: id, mtime: cluster.now };
  const paths = {
    path: file,
    'wal-dir': `${shownDir}/member/wal`,
    'data-dir': shownDir,
    'snap-dir': `${shownDir}/member/snap`,
    'initial-memory-map-size': 10737418240
  };
  const log = (caller: string, msg: string, extra: Record<string, unknown>) =>
    JSON.stringify({ level: 'info', ts: ts(cluster), caller, msg, ...extra }) + '\n';
  return ok(
    '',
    log('snapshot/v3_snapshot.go:305', 'restoring snapshot', paths) +
      log('membership/store.go:141', 'Trimming membership information from the backend...', {}) +
      clusterMembers
        .map((m) => {
          const [n, url] = m.split('=');
          return log('membership/cluster.go:421', 'added member', {
            'cluster-id': memberId(token, initialCluster),
            'local-member-id': '0',
            'added-peer-id': memberId(n, url),
            'added-peer-peer-urls': [url]
          });
        })
        .join('') +
      log('snapshot/v3_snapshot.go:333', 'restored snapshot', paths)
  );
}
