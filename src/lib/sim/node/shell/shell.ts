/** The shell on a node (`ssh <node>`): dispatches the tools a node engineer reaches for. */
import type { Cluster } from '../../cluster';
import type { ConsoleResult } from '../../kubectl/console';
import { controlPlaneShell } from './cphost';
import { crictl } from './crictl';
import { shellHost } from './host';
import { ip, iptables, iptablesSave, ipvsadm, nft } from './net';
import { journalctl, systemctl } from './systemd';
import { cat, df, free, ls } from './system';

export type ShellResult = ConsoleResult;

export const NODE_SHELL_HELP = `Commands on the node:
  systemctl status|stop|start|restart kubelet|containerd|crio|kube-proxy
  journalctl -u kubelet [-f] [--since "5 min ago"] [-n N]
  crictl ps [-a] | pods | images | inspect ID | logs ID
  ip addr | ip route
  iptables-save [-t nat] | iptables -t nat -L -n | ipvsadm -Ln | nft list ruleset
  ls /etc/cni/net.d | cat /etc/cni/net.d/*
  free -m | df -h | hostname | rm /var/lib/fill.img
  clear | history | exit
`;

export const NODE_COMMANDS = [
  'systemctl',
  'journalctl',
  'crictl',
  'ip',
  'iptables-save',
  'iptables',
  'ipvsadm',
  'nft',
  'ls',
  'cat',
  'free',
  'df',
  'hostname',
  'rm',
  'whoami',
  'pwd',
  'clear',
  'history',
  'help',
  'exit'
];

/** The file the lab's "Fill disk" writes (`fallocate -l 100G /var/lib/fill.img`). */
const FILL_FILE = '/var/lib/fill.img';

/** `rm` knows one file: the disk filler. Removing it frees the space (FillDisk amount 0). */
function rm(cluster: Cluster, node: string, args: string[]): ShellResult {
  const paths = args.filter((a) => !a.startsWith('-'));
  if (!paths.length) return { stdout: '', stderr: 'rm: missing operand\n', exitCode: 1 };
  const kubelet = cluster.component(`kubelet/${node}`) as unknown as
    { state: { system: { fillDisk: number } } } | undefined;
  let stderr = '';
  for (const p of paths) {
    if (p === FILL_FILE && kubelet && kubelet.state.system.fillDisk > 0)
      cluster.applyFault('FillDisk', { target: node, amount: 0 });
    else if (!args.includes('-f')) stderr += `rm: cannot remove '${p}': No such file or directory\n`;
  }
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

/** Run one command line (already split into words) on `node`. `exit`/`clear`/`history` are the console's. */
export function runOnNode(cluster: Cluster, node: string, argv: string[]): ShellResult {
  const onControlPlane = controlPlaneShell(cluster, node, argv);
  if (onControlPlane) return onControlPlane;
  const host = shellHost(cluster, node);
  const [cmd, ...args] = argv;
  const ok = (stdout: string): ShellResult => ({ stdout, stderr: '', exitCode: 0 });
  switch (cmd) {
    case 'systemctl':
      return systemctl(cluster, host, args);
    case 'journalctl':
      return journalctl(cluster, host, args);
    case 'crictl':
      return crictl(cluster, host, args);
    case 'ip':
      return ip(cluster, host, args);
    case 'iptables-save':
      return iptablesSave(cluster, host, args);
    case 'iptables':
      return iptables(cluster, host, args);
    case 'ipvsadm':
      return ipvsadm(cluster, host);
    case 'nft':
      return nft(cluster, host, args);
    case 'ls':
      return ls(cluster, host, args);
    case 'cat':
      return cat(cluster, host, args);
    case 'free':
      return free(host, args);
    case 'df':
      return df(host, args);
    case 'hostname':
      return ok(node + '\n');
    case 'rm':
      return rm(cluster, node, args);
    case 'whoami':
      return ok('root\n');
    case 'pwd':
      return ok('/root\n');
    case 'help':
      return ok(NODE_SHELL_HELP);
    case 'kubectl':
      return { stdout: '', stderr: 'bash: kubectl: command not found\n', exitCode: 127 };
    default:
      return { stdout: '', stderr: `bash: ${cmd}: command not found\n`, exitCode: 127 };
  }
}
