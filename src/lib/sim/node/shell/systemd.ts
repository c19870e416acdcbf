/**
 * `systemctl` and `journalctl` for the node's services. Stopping or starting a unit applies the
 * same fault the UI injects (StopKubelet, StartRuntime, ...). Journal lines are the kubelet's and
 * runtime's own entries in klog format under the journald prefix (S1, S2), plus systemd's lines
 * for each stop and start in the fault log.
 */
import type { Cluster } from '../../cluster';
import { FaultError } from '../../cluster';
import type { JournalEntry } from '../cri';
import { klogTime, syslogTime, systemdAgo, systemdTime, systemdTimespan } from '../../kubectl/timefmt';
import type { ShellHost } from './host';
import type { ShellResult } from './shell';
import { kubeProxyOf, type KubeProxy } from '../../network/kubeproxy';
import { KUBE_PROXY_CONFIG_PATH } from '../../network/kubeproxy-config';
import {
  KUBE_PROXY_UNIT,
  KUBE_PROXY_UNIT_DESCRIPTION,
  KUBE_PROXY_UNIT_PATH,
  kubeProxyExecStart
} from '../../network/kubeproxy-host';

type Unit = 'kubelet' | 'containerd' | 'crio';

interface UnitInfo {
  description: string;
  docs: string;
  exec: string;
  dropIn?: string;
  start: string;
  stop: string;
}

const UNITS: Record<Unit, UnitInfo> = {
  kubelet: {
    description: 'kubelet: The Kubernetes Node Agent',
    docs: 'https://kubernetes.io/docs/',
    dropIn: '10-kubeadm.conf',
    exec: '/usr/bin/kubelet --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf --config=/var/lib/kubelet/config.yaml',
    start: 'StartKubelet',
    stop: 'StopKubelet'
  },
  containerd: {
    description: 'containerd container runtime',
    docs: 'https://containerd.io',
    exec: '/usr/bin/containerd',
    start: 'StartRuntime',
    stop: 'StopRuntime'
  },
  crio: {
    description: 'Container Runtime Interface for OCI (CRI-O)',
    docs: 'https://github.com/cri-o/cri-o',
    exec: '/usr/bin/crio',
    start: 'StartRuntime',
    stop: 'StopRuntime'
  }
};

function unitName(arg: string | undefined): Unit | undefined {
  const n = (arg ?? '').replace(/\.service$/, '');
  return n === 'kubelet' || n === 'containerd' || n === 'crio' ? n : undefined;
}

function installed(host: ShellHost, unit: Unit): boolean {
  if (unit === 'kubelet') return true;
  return (host.view.runtimeName === 'cri-o' ? 'crio' : 'containerd') === unit;
}

function running(host: ShellHost, unit: Unit): boolean {
  return unit === 'kubelet' ? host.view.kubeletRunning : host.view.runtimeRunning;
}

const out = (stdout: string, exitCode = 0, stderr = ''): ShellResult => ({ stdout, stderr, exitCode });

/** Virtual times the unit was started on this node (fault log), oldest first. */
function starts(cluster: Cluster, node: string, unit: Unit): number[] {
  return cluster.faultLog.filter((f) => f.target === node && f.action === UNITS[unit].start).map((f) => f.t);
}

/**
 * The PID of the unit's process at time `t`: each start gets a new process. The running process
 * has the host's PID; earlier (and stopped) ones get a stable PID derived from the node and run.
 */
export function pidAt(cluster: Cluster, host: ShellHost, unit: Unit, t: number, previousRun = false): number {
  const runs = starts(cluster, host.view.nodeName, unit);
  const run = runs.filter((s) => (previousRun ? s < t : s <= t)).length;
  const current = host.view.pid(unit);
  if (run === runs.length && current) return current;
  let h = 0;
  for (const ch of `${host.view.nodeName}/${unit}/${run}`) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return 1000 + (h % 60000);
}

/** Lines for `systemctl status` and `journalctl`: journald prefix + klog header (S2). */
export function journalLines(cluster: Cluster, host: ShellHost, unit: Unit): { t: number; line: string }[] {
  const epoch = cluster.api.epochMs;
  const node = host.view.nodeName;
  // Within one instant: systemd's "Stopping", the old process's last lines, "Deactivated" and
  // "Stopped", then "Started" and the new process's first lines (a restart does all of it at once).
  const startTimes = new Set(starts(cluster, node, unit));
  const lines: { t: number; rank: number; line: string }[] = host.view
    .journal(unit)
    .map((e: JournalEntry) => {
      const oldRun = startTimes.has(e.t) && e.message.includes('Shutting down');
      const pid = pidAt(cluster, host, unit, e.t, oldRun);
      const header = `${e.level}${klogTime(epoch + e.t)} ${String(pid).padStart(7)} ${e.source}]`;
      return {
        t: e.t,
        rank: startTimes.has(e.t) && !oldRun ? 2 : 0,
        line: `${syslogTime(epoch + e.t)} ${node} ${unit}[${pid}]: ${header} ${e.message}`
      };
    });
  const info = UNITS[unit];
  const unitLabel = `${unit}.service - ${info.description}`;
  for (const f of cluster.faultLog) {
    if (f.target !== node) continue;
    const prefix = `${syslogTime(epoch + f.t)} ${node} systemd[1]: `;
    if (f.action === info.stop) {
      lines.push({ t: f.t, rank: -1, line: `${prefix}Stopping ${unitLabel}...` });
      lines.push({ t: f.t, rank: 1, line: `${prefix}${unit}.service: Deactivated successfully.` });
      lines.push({ t: f.t, rank: 1, line: `${prefix}Stopped ${unitLabel}.` });
    } else if (f.action === info.start) {
      lines.push({ t: f.t, rank: 1.5, line: `${prefix}Started ${unitLabel}.` });
    }
  }
  return lines.sort((a, b) => a.t - b.t || a.rank - b.rank).map(({ t, line }) => ({ t, line }));
}

function status(cluster: Cluster, host: ShellHost, unit: Unit): ShellResult {
  const info = UNITS[unit];
  const now = cluster.engine.now;
  const epoch = cluster.api.epochMs;
  const up = running(host, unit);
  const since = host.view.unitSince(unit);
  const pid = up ? host.view.pid(unit) : pidAt(cluster, host, unit, since);
  const name = unit;
  let s = `${up ? '●' : '○'} ${unit}.service - ${info.description}\n`;
  s += `     Loaded: loaded (/usr/lib/systemd/system/${unit}.service; enabled; preset: enabled)\n`;
  if (info.dropIn)
    s += `    Drop-In: /usr/lib/systemd/system/${unit}.service.d\n             └─${info.dropIn}\n`;
  const when = `${systemdTime(epoch + since)}; ${systemdAgo(now - since)}`;
  if (up) {
    s += `     Active: active (running) since ${when}\n`;
    s += `       Docs: ${info.docs}\n`;
    if (pid !== undefined) s += `   Main PID: ${pid} (${name})\n`;
    s += `      Tasks: ${unit === 'kubelet' ? 14 : 11}\n`;
    s += `     CGroup: /system.slice/${unit}.service\n`;
    if (pid !== undefined) s += `             └─${pid} ${info.exec}\n`;
  } else {
    s += `     Active: inactive (dead) since ${when}\n`;
    const started = lastStart(cluster, host.view.nodeName, info.start, since);
    s += `   Duration: ${systemdTimespan(Math.max(0, since - started))}\n`;
    s += `       Docs: ${info.docs}\n`;
    if (pid !== undefined) {
      s += `    Process: ${pid} ExecStart=${info.exec} (code=exited, status=0/SUCCESS)\n`;
      s += `   Main PID: ${pid} (code=exited, status=0/SUCCESS)\n`;
    }
  }
  const tail = journalLines(cluster, host, unit).slice(-10);
  if (tail.length) s += '\n' + tail.map((l) => l.line + '\n').join('');
  // systemctl status exits 3 for an inactive unit.
  return out(s, up ? 0 : 3);
}

function lastStart(cluster: Cluster, node: string, action: string, before: number): number {
  let t = 0;
  for (const f of cluster.faultLog) if (f.target === node && f.action === action && f.t <= before) t = f.t;
  return t;
}

function fault(cluster: Cluster, action: string, node: string, verb: string, unit: Unit): string {
  try {
    cluster.applyFault(action, { target: node });
    return '';
  } catch (e) {
    if (e instanceof FaultError) return `Failed to ${verb} ${unit}.service: ${e.message}\n`;
    throw e;
  }
}

export function systemctl(cluster: Cluster, host: ShellHost, argv: string[]): ShellResult {
  const args = argv.filter((a) => !a.startsWith('-'));
  const [verb, unitArg] = args;
  if (!verb) return out('', 1, 'Too few arguments.\n');
  const known = ['status', 'stop', 'start', 'restart', 'is-active', 'enable', 'disable', 'daemon-reload'];
  if (!known.includes(verb)) return out('', 1, `Unknown command verb '${verb}'.\n`);
  if (verb === 'daemon-reload') return out('');
  if (!unitArg) return out('', 1, `Too few arguments.\n`);
  // kube-proxy is a unit only where it runs as a host service; on a kubeadm node it runs in the
  // kube-proxy DaemonSet's pod and `kube-proxy.service` is not found.
  const proxy = unitArg.replace(/\.service$/, '') === 'kube-proxy' ? kubeProxyUnit(cluster, host) : undefined;
  if (proxy) return kubeProxySystemctl(cluster, host, proxy, verb);
  const unit = unitName(unitArg);
  const svc = unitArg.endsWith('.service') ? unitArg : `${unitArg}.service`;
  if (!unit || !installed(host, unit)) {
    if (verb === 'status') return out('', 4, `Unit ${svc} could not be found.\n`);
    if (verb === 'is-active') return out('inactive\n', 3);
    return out('', 5, `Failed to ${verb} ${svc}: Unit ${svc} not loaded.\n`);
  }
  const node = host.view.nodeName;
  const info = UNITS[unit];
  switch (verb) {
    case 'status':
      return status(cluster, host, unit);
    case 'is-active':
      return running(host, unit) ? out('active\n') : out('inactive\n', 3);
    case 'enable':
    case 'disable':
      return out('');
    case 'stop': {
      const err = running(host, unit) ? fault(cluster, info.stop, node, 'stop', unit) : '';
      return out('', err ? 1 : 0, err);
    }
    case 'start': {
      const err = running(host, unit) ? '' : fault(cluster, info.start, node, 'start', unit);
      return out('', err ? 1 : 0, err);
    }
    default: {
      let err = running(host, unit) ? fault(cluster, info.stop, node, 'restart', unit) : '';
      if (!err) err = fault(cluster, info.start, node, 'restart', unit);
      return out('', err ? 1 : 0, err);
    }
  }
}

/** journalctl --since: `5 min ago`, `-10m`, `HH:MM[:SS]`, `YYYY-MM-DD HH:MM[:SS]`, `today`. Virtual ms. */
export function parseSince(spec: string, nowMs: number, epoch: number): number | undefined {
  const s = spec.trim();
  let m =
    /^(\d+)\s*(s|sec|second|seconds|m|min|minute|minutes|h|hour|hours)\s+ago$/.exec(s) ??
    /^-(\d+)\s*(s|m|min|h)$/.exec(s);
  if (m) {
    const n = parseInt(m[1], 10);
    const unit = m[2].startsWith('h') ? 3_600_000 : m[2] === 's' || m[2].startsWith('sec') ? 1000 : 60_000;
    return nowMs - n * unit;
  }
  if (s === 'today')
    return (
      Date.UTC(
        new Date(epoch + nowMs).getUTCFullYear(),
        new Date(epoch + nowMs).getUTCMonth(),
        new Date(epoch + nowMs).getUTCDate()
      ) - epoch
    );
  m = /^(?:(\d{4})-(\d{2})-(\d{2})\s+)?(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(s);
  if (m) {
    const d = new Date(epoch + nowMs);
    const t = Date.UTC(
      m[1] ? parseInt(m[1], 10) : d.getUTCFullYear(),
      m[2] ? parseInt(m[2], 10) - 1 : d.getUTCMonth(),
      m[3] ? parseInt(m[3], 10) : d.getUTCDate(),
      parseInt(m[4], 10),
      parseInt(m[5], 10),
      m[6] ? parseInt(m[6], 10) : 0
    );
    return t - epoch;
  }
  return undefined;
}

export function journalctl(cluster: Cluster, host: ShellHost, argv: string[]): ShellResult {
  let unitArg: string | undefined;
  let since: string | undefined;
  let lines: number | undefined;
  let follow = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-u' || a === '--unit') unitArg = argv[++i];
    else if (a.startsWith('--unit=')) unitArg = a.slice(7);
    else if (a.startsWith('-u') && a.length > 2) unitArg = a.slice(2);
    else if (a === '--since' || a === '-S') since = argv[++i];
    else if (a.startsWith('--since=')) since = a.slice(8);
    else if (a === '-n' || a === '--lines') lines = parseInt(argv[++i], 10);
    else if (a.startsWith('--lines=')) lines = parseInt(a.slice(8), 10);
    else if (a === '-f' || a === '--follow') follow = true;
    else if (a === '-e' || a === '--pager-end') lines = lines ?? 1000;
    else if (/^-[xef]+$/.test(a)) {
      if (a.includes('f')) follow = true;
      if (a.includes('e')) lines = lines ?? 1000;
    }
  }
  const units: Unit[] = unitArg
    ? [unitName(unitArg)].filter((u): u is Unit => !!u && installed(host, u))
    : (['kubelet', host.view.runtimeName === 'cri-o' ? 'crio' : 'containerd'] as Unit[]);
  const proxy =
    !unitArg || unitArg.replace(/\.service$/, '') === 'kube-proxy' ? kubeProxyUnit(cluster, host) : undefined;
  let from = -Infinity;
  if (since !== undefined) {
    const t = parseSince(since, cluster.engine.now, cluster.api.epochMs);
    if (t === undefined) return out('', 1, `Failed to parse timestamp: ${since}\n`);
    from = t;
  }
  const collect = () =>
    units
      .flatMap((u) => journalLines(cluster, host, u))
      .concat(proxy ? kubeProxyJournalLines(cluster, host, proxy) : [])
      .filter((l) => l.t >= from)
      .sort((a, b) => a.t - b.t);
  let all = collect();
  if (follow && lines === undefined) lines = 10;
  if (lines !== undefined) all = all.slice(Math.max(0, all.length - lines));
  const text = all.length ? all.map((l) => l.line + '\n').join('') : '-- No entries --\n';
  const result: ShellResult = { stdout: text, stderr: '', exitCode: 0 };
  if (follow) {
    let seen = collect().length;
    let stopped = false;
    result.watch = {
      poll() {
        if (stopped) return '';
        const cur = collect();
        const fresh = cur.slice(seen);
        seen = cur.length;
        return fresh.map((l) => l.line + '\n').join('');
      },
      stop() {
        stopped = true;
      }
    };
  }
  return result;
}

/** kube-proxy on this node when it runs as a systemd unit (kubeproxy-host.ts), else undefined. */
function kubeProxyUnit(cluster: Cluster, host: ShellHost): KubeProxy | undefined {
  const kp = kubeProxyOf(cluster, host.view.nodeName);
  return kp?.state.host ? kp : undefined;
}

/** kube-proxy.service's journal: systemd's lines and kube-proxy's klog lines (S1, S2). */
export function kubeProxyJournalLines(
  cluster: Cluster,
  host: ShellHost,
  kp: KubeProxy
): { t: number; line: string }[] {
  const epoch = cluster.api.epochMs;
  const node = host.view.nodeName;
  return (kp.state.host?.journal ?? []).map((e) => {
    const at = syslogTime(epoch + e.t);
    if (e.pid === 'systemd') return { t: e.t, line: `${at} ${node} systemd[1]: ${e.message}` };
    const header = `${e.level ?? 'I'}${klogTime(epoch + e.t)} ${String(e.pid).padStart(7)} ${e.source}]`;
    return { t: e.t, line: `${at} ${node} kube-proxy[${e.pid}]: ${header} ${e.message}` };
  });
}

function kubeProxyStatus(cluster: Cluster, host: ShellHost, kp: KubeProxy): ShellResult {
  const h = kp.state.host!;
  const now = cluster.engine.now;
  const epoch = cluster.api.epochMs;
  const up = !kp.state.stopped;
  const exec = kubeProxyExecStart(KUBE_PROXY_CONFIG_PATH);
  const when = `${systemdTime(epoch + h.since)}; ${systemdAgo(now - h.since)}`;
  let s = `${up ? '●' : h.failed ? '●' : '○'} ${KUBE_PROXY_UNIT} - ${KUBE_PROXY_UNIT_DESCRIPTION}\n`;
  s += `     Loaded: loaded (${KUBE_PROXY_UNIT_PATH}; enabled; preset: enabled)\n`;
  if (up) {
    s += `     Active: active (running) since ${when}\n`;
    s += `       Docs: https://github.com/kubernetes/kubernetes\n`;
    s += `   Main PID: ${h.pid} (kube-proxy)\n`;
    s += `      Tasks: 9\n`;
    s += `     CGroup: /system.slice/${KUBE_PROXY_UNIT}\n`;
    s += `             └─${h.pid} ${exec}\n`;
  } else if (h.failed) {
    s += `     Active: activating (auto-restart) (Result: exit-code) since ${when}\n`;
    s += `       Docs: https://github.com/kubernetes/kubernetes\n`;
    s += `    Process: ${h.pid} ExecStart=${exec} (code=exited, status=1/FAILURE)\n`;
    s += `   Main PID: ${h.pid} (code=exited, status=1/FAILURE)\n`;
  } else {
    s += `     Active: inactive (dead) since ${when}\n`;
    s += `   Duration: ${systemdTimespan(Math.max(0, h.since - h.startedAt))}\n`;
    s += `       Docs: https://github.com/kubernetes/kubernetes\n`;
    s += `    Process: ${h.pid} ExecStart=${exec} (code=exited, status=0/SUCCESS)\n`;
    s += `   Main PID: ${h.pid} (code=exited, status=0/SUCCESS)\n`;
  }
  const tail = kubeProxyJournalLines(cluster, host, kp).slice(-10);
  if (tail.length) s += '\n' + tail.map((l) => l.line + '\n').join('');
  return out(s, up ? 0 : 3);
}

/** systemctl on kube-proxy.service: stop and start are the StopKubeProxy and StartKubeProxy faults. */
function kubeProxySystemctl(cluster: Cluster, host: ShellHost, kp: KubeProxy, verb: string): ShellResult {
  const node = host.view.nodeName;
  const up = !kp.state.stopped;
  const apply = (action: string) => {
    try {
      cluster.applyFault(action, { target: node });
      return '';
    } catch (e) {
      if (e instanceof FaultError) return `Failed to ${verb} ${KUBE_PROXY_UNIT}: ${e.message}\n`;
      throw e;
    }
  };
  switch (verb) {
    case 'status':
      return kubeProxyStatus(cluster, host, kp);
    case 'is-active':
      return up ? out('active\n') : kp.state.host?.failed ? out('activating\n', 3) : out('inactive\n', 3);
    case 'enable':
    case 'disable':
      return out('');
    case 'stop': {
      const err = up || kp.state.host?.failed ? apply('StopKubeProxy') : '';
      return out('', err ? 1 : 0, err);
    }
    case 'start': {
      // A unit waiting to restart is started now; a running one is left as it is.
      let err = !up && kp.state.host?.failed ? apply('StopKubeProxy') : '';
      if (!up && !err) err = apply('StartKubeProxy');
      return out('', err ? 1 : 0, err);
    }
    default: {
      let err = up || kp.state.host?.failed ? apply('StopKubeProxy') : '';
      if (!err) err = apply('StartKubeProxy');
      return out('', err ? 1 : 0, err);
    }
  }
}
