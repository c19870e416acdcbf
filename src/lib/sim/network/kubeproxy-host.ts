/**
 * kube-proxy as a host service (`spec.network.kubeProxy.deployment: systemd`): clusters built by
 * hand run kube-proxy as `kube-proxy.service` on every node, started with
 * `--config=/var/lib/kube-proxy/config.conf`, instead of kubeadm's DaemonSet. The file lives on
 * the node (no ConfigMap): editing `mode:` there and `systemctl restart kube-proxy` switches that
 * node's mode. The unit restarts on failure after 5 s (`Restart=on-failure`, `RestartSec=5`), so
 * a config kube-proxy refuses shows as "activating (auto-restart)" until the file is fixed.
 *
 * This module keeps what the host knows about the unit: the file, the process id and when it
 * last changed state, and the journal (systemd's lines and kube-proxy's own klog lines as
 * cmd/kube-proxy/app/server.go and server_linux.go log them).
 */
import type { Cluster } from '../cluster';

export const KUBE_PROXY_UNIT = 'kube-proxy.service';
export const KUBE_PROXY_UNIT_DESCRIPTION = 'Kubernetes Kube Proxy';
export const KUBE_PROXY_UNIT_PATH = '/etc/systemd/system/kube-proxy.service';
export const KUBE_PROXY_BINARY = '/usr/local/bin/kube-proxy';
/** RestartSec of the unit: systemd starts a failed kube-proxy again after this long. */
export const KUBE_PROXY_RESTART_MS = 5_000;

export function kubeProxyExecStart(configPath: string): string {
  return `${KUBE_PROXY_BINARY} --config=${configPath}`;
}

/** The unit file on the node (`cat /etc/systemd/system/kube-proxy.service`). */
export function kubeProxyUnitFile(configPath: string): string {
  return `[Unit]
Description=${KUBE_PROXY_UNIT_DESCRIPTION}
Documentation=https://github.com/kubernetes/kubernetes

[Service]
ExecStart=${kubeProxyExecStart(configPath)}
Restart=on-failure
RestartSec=${KUBE_PROXY_RESTART_MS / 1000}

[Install]
WantedBy=multi-user.target
`;
}

/** One journal line of the unit: systemd's own (`systemd[1]`) or the kube-proxy process's klog. */
export interface KubeProxyJournalEntry {
  t: number;
  /** 'systemd' for systemd's lines; otherwise the kube-proxy process with this PID. */
  pid: number | 'systemd';
  level?: 'I' | 'W' | 'E';
  /** klog's file:line. */
  source?: string;
  message: string;
}

export interface KubeProxyHostState {
  /** /var/lib/kube-proxy/config.conf on this node. */
  config: string;
  /** PID of the current (or last) kube-proxy process. */
  pid: number;
  /** Processes started so far (each start is a new PID). */
  runs: number;
  /** Virtual ms of the last state change (started, stopped, failed). */
  since: number;
  /** Virtual ms the current (or last) process started. */
  startedAt: number;
  /** The last start exited with an error; systemd restarts it after RestartSec. */
  failed?: boolean;
  /** systemd's restart counter since the last successful start. */
  restarts: number;
  /** When systemd starts the failed unit again. */
  restartAt?: number;
  journal: KubeProxyJournalEntry[];
}

const MAX_JOURNAL = 300;

/** Does this cluster run kube-proxy as a systemd unit on the nodes? */
export function kubeProxyIsHostService(cluster: Cluster): boolean {
  return cluster.config.network.kubeProxy?.deployment === 'systemd';
}

function pidFor(node: string, run: number): number {
  let h = 0;
  for (const ch of `${node}/kube-proxy/${run}`) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return 1000 + (h % 60000);
}

function push(host: KubeProxyHostState, e: KubeProxyJournalEntry): void {
  host.journal.push(e);
  if (host.journal.length > MAX_JOURNAL) host.journal.splice(0, host.journal.length - MAX_JOURNAL);
}

export function newHostState(config: string): KubeProxyHostState {
  return { config, pid: 0, runs: 0, since: 0, startedAt: 0, restarts: 0, journal: [] };
}

/**
 * systemd starts a new kube-proxy process at `t`; it logs its version and the proxier it uses,
 * or, for a config it refuses, `"command failed"` and exits 1 (component-base/cli/run.go).
 */
export function logStart(
  host: KubeProxyHostState,
  node: string,
  t: number,
  version: string,
  result: { mode?: string; error?: string }
): void {
  host.runs++;
  host.pid = pidFor(node, host.runs);
  host.startedAt = t;
  host.since = t;
  const label = `${KUBE_PROXY_UNIT} - ${KUBE_PROXY_UNIT_DESCRIPTION}`;
  if (host.failed) {
    host.restarts++;
    push(host, {
      t,
      pid: 'systemd',
      message: `${KUBE_PROXY_UNIT}: Scheduled restart job, restart counter is at ${host.restarts}.`
    });
  }
  push(host, { t, pid: 'systemd', message: `Started ${label}.` });
  const pid = host.pid;
  push(host, { t, pid, level: 'I', source: 'server.go:256', message: `"Version info" version="${version}"` });
  if (result.error) {
    push(host, {
      t,
      pid,
      level: 'E',
      source: 'run.go:72',
      message: `"command failed" err=${JSON.stringify(result.error)}`
    });
    push(host, {
      t,
      pid: 'systemd',
      message: `${KUBE_PROXY_UNIT}: Main process exited, code=exited, status=1/FAILURE`
    });
    push(host, { t, pid: 'systemd', message: `${KUBE_PROXY_UNIT}: Failed with result 'exit-code'.` });
    host.failed = true;
    return;
  }
  host.failed = false;
  host.restarts = 0;
  push(host, {
    t,
    pid,
    level: 'I',
    source: 'server_linux.go:231',
    message: `"Using ${result.mode} Proxier"`
  });
  push(host, {
    t,
    pid,
    level: 'I',
    source: 'config.go:199',
    message: '"Starting service config controller"'
  });
  push(host, {
    t,
    pid,
    level: 'I',
    source: 'config.go:105',
    message: '"Starting endpoint slice config controller"'
  });
}

/** systemd stops the unit at `t` (systemctl stop or the first half of a restart). */
export function logStop(host: KubeProxyHostState, t: number): void {
  const label = `${KUBE_PROXY_UNIT} - ${KUBE_PROXY_UNIT_DESCRIPTION}`;
  host.since = t;
  if (host.failed) {
    // Stopping a unit waiting to restart only cancels the restart.
    host.failed = false;
    host.restarts = 0;
    push(host, { t, pid: 'systemd', message: `Stopped ${label}.` });
    return;
  }
  push(host, { t, pid: 'systemd', message: `Stopping ${label}...` });
  push(host, { t, pid: 'systemd', message: `${KUBE_PROXY_UNIT}: Deactivated successfully.` });
  push(host, { t, pid: 'systemd', message: `Stopped ${label}.` });
}

/** Replace `mode:` in a KubeProxyConfiguration's text, keeping the rest of the file. */
export function withMode(text: string, mode: string): string {
  const value = `"${mode}"`;
  return /^mode:.*$/m.test(text) ? text.replace(/^mode:.*$/m, `mode: ${value}`) : `${text}mode: ${value}\n`;
}
