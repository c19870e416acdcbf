/** The shell on a node (`ssh <node>`): dispatches the tools a node engineer reaches for. */
import { curl } from './curl';
import type { Cluster } from '../../cluster';
import type { ConsoleResult } from '../../kubectl/console';
import { controlPlaneShell } from './cphost';
import { crictl } from './crictl';
import { shellHost, type ShellHost } from './host';
import { ip, iptables, iptablesSave, ipvsadm, nft } from './net';
import { journalctl, systemctl } from './systemd';
import { cat, df, free, grep, headTail, ls } from './system';
import { absPath, FILL_FILE, isDir, nodeFiles } from './files';
import { parseSed, runSed } from './sed';
import { KUBE_PROXY_CONFIG_PATH } from '../../network/kubeproxy-config';
import { kubeProxyOf } from '../../network/kubeproxy';
import { nodeShellHelp } from './help';
import type { Language } from '../../../lessons/format';

export type ShellResult = ConsoleResult;

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
  'less',
  'head',
  'tail',
  'grep',
  'mv',
  'sed',
  'fallocate',
  'stress-ng',
  'free',
  'df',
  'hostname',
  'rm',
  'sudo',
  'whoami',
  'pwd',
  'clear',
  'history',
  'help',
  'exit'
];

const err = (stderr: string, exitCode = 1): ShellResult => ({ stdout: '', stderr, exitCode });

/** `rm` knows one file: the disk filler. Removing it frees the space (FillDisk amount 0). */
function rm(cluster: Cluster, node: string, args: string[], root: boolean): ShellResult {
  const paths = args.filter((a) => !a.startsWith('-'));
  if (!paths.length) return err("rm: missing operand\nTry 'rm --help' for more information.\n");
  const machine = cluster.nodeHost(node);
  let stderr = '';
  for (const p of paths) {
    if (p === FILL_FILE && machine && machine.state.system.fillDisk > 0) {
      if (!root) stderr += `rm: cannot remove '${p}': Permission denied\n`;
      else cluster.applyFault('FillDisk', { target: node, amount: 0 });
    } else if (!args.includes('-f')) stderr += `rm: cannot remove '${p}': No such file or directory\n`;
  }
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

/** The CNI config moved out of /etc/cni/net.d by `mv` (the fault panel's Remove CNI). */
const CNI_DIR = '/etc/cni/net.d';

/** `mv`: moving the CNI config out of /etc/cni/net.d removes it (RemoveCNI); moving it back installs it. */
function mv(cluster: Cluster, host: ShellHost, args: string[], root: boolean, home: string): ShellResult {
  const ops = args.filter((a) => !a.startsWith('-'));
  if (ops.length < 2) {
    const msg = ops.length
      ? `mv: missing destination file operand after '${ops[0]}'`
      : 'mv: missing file operand';
    return err(`${msg}\nTry 'mv --help' for more information.\n`);
  }
  const node = host.view.nodeName;
  const [srcWord, dstWord] = ops;
  const src = absPath(srcWord, home);
  const dst = absPath(dstWord, home);
  const files = nodeFiles(cluster, host);
  const inCni = (p: string) => p.startsWith(CNI_DIR + '/');
  if (src in files && inCni(src) && !inCni(dst) && dst !== CNI_DIR) {
    if (!root) return err(`mv: cannot move '${srcWord}' to '${dstWord}': Permission denied\n`);
    cluster.applyFault('RemoveCNI', { target: node });
    return { stdout: '', stderr: '', exitCode: 0 };
  }
  const base = src.slice(src.lastIndexOf('/') + 1);
  if (
    !inCni(src) &&
    (dst === CNI_DIR || inCni(dst)) &&
    /\.conf(list)?$/.test(base) &&
    !Object.keys(files).some(inCni)
  ) {
    if (!root) return err(`mv: cannot move '${srcWord}' to '${dstWord}': Permission denied\n`);
    cluster.applyFault('InstallCNI', { target: node });
    return { stdout: '', stderr: '', exitCode: 0 };
  }
  return err(`mv: cannot stat '${srcWord}': No such file or directory\n`);
}

/**
 * `sed`: prints any node file edited. `-i` changes nothing on a worker: its files are rendered
 * from the components that own them, and kube-proxy's config.conf is the kube-proxy ConfigMap
 * as its pod mounts it (kubeadm), so the edit goes into the ConfigMap. Where kube-proxy is a host
 * service the file is the node's own: `-i` writes it, and kube-proxy reads it when it restarts.
 */
function sed(cluster: Cluster, host: ShellHost, args: string[], root: boolean, home: string): ShellResult {
  const prog = parseSed(args);
  if (typeof prog === 'string') return err(prog);
  const files = nodeFiles(cluster, host);
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  for (const word of prog.files) {
    const path = absPath(word, home);
    if (!(path in files)) {
      stderr += isDir(files, path)
        ? prog.inPlace
          ? `sed: couldn't edit ${word}: not a regular file\n`
          : `sed: read error on ${word}: Is a directory\n`
        : `sed: can't read ${word}: No such file or directory\n`;
      exitCode = Math.max(exitCode, 2);
      continue;
    }
    const out = runSed(prog, files[path]);
    if (!prog.inPlace) {
      stdout += out;
      continue;
    }
    if (!root) {
      // GNU sed writes a temporary file next to the original and renames it over.
      const dir = path.slice(0, path.lastIndexOf('/')) || '/';
      return {
        stdout,
        stderr: stderr + `sed: couldn't open temporary file ${dir}/sedz4Qk1R: Permission denied\n`,
        exitCode: 4
      };
    }
    const proxy = path === KUBE_PROXY_CONFIG_PATH ? kubeProxyOf(cluster, host.view.nodeName) : undefined;
    if (proxy?.state.host) {
      proxy.writeHostConfig(out);
      files[path] = out;
      continue;
    }
    stderr +=
      path === KUBE_PROXY_CONFIG_PATH
        ? `sed: ${word}: kube-proxy runs in the kube-proxy DaemonSet's pod and reads this file from the kube-system/kube-proxy ConfigMap; edit it with kubectl -n kube-system edit configmap kube-proxy\n`
        : `sed: ${word}: editing this file is not modelled in the lab\n`;
    exitCode = Math.max(exitCode, 4);
  }
  return { stdout, stderr, exitCode };
}

/** `fallocate -l SIZE /var/lib/fill.img`: the lab's Fill disk (just past nodefs.available). */
function fallocate(cluster: Cluster, node: string, args: string[], root: boolean): ShellResult {
  const li = args.findIndex((a) => a === '-l' || a === '--length');
  const file = args.filter((a, i) => !a.startsWith('-') && i !== li + 1).pop();
  if (li < 0 || !args[li + 1]) return err('fallocate: no length argument specified\n');
  if (!file) return err("fallocate: no filename specified\nTry 'fallocate --help' for more information.\n");
  if (!root) return err(`fallocate: cannot open ${file}: Permission denied\n`);
  cluster.applyFault('FillDisk', { target: node });
  return { stdout: '', stderr: '', exitCode: 0 };
}

/** `stress-ng --vm 1 --vm-bytes 95% --vm-keep`: a process that holds memory (the lab's Fill memory). */
function stressNg(cluster: Cluster, node: string, args: string[]): ShellResult {
  if (!args.includes('--vm'))
    return err('stress-ng: error: [1] no stress workers invoked (only --vm is simulated)\n');
  cluster.applyFault('FillMemory', { target: node });
  const pid = 4242;
  return {
    stdout: '',
    stderr:
      `stress-ng: info:  [${pid}] defaulting to a 1 day run per stressor\n` +
      `stress-ng: info:  [${pid}] dispatching hogs: 1 vm\n`,
    exitCode: 0
  };
}

/** `sudo [-u root] [-E] [-n] [-H] command …`: run as root. `sudo -i` is the console's (a new shell). */
function sudo(cluster: Cluster, node: string, args: string[], lang: Language): ShellResult {
  let i = 0;
  while (i < args.length && args[i].startsWith('-')) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (a === '-u' || a === '-g') i += 2;
    else if (/^-[EnHkSAP]+$/.test(a)) i++;
    else return err(`sudo: invalid option -- '${a.replace(/^-+/, '')[0]}'\n${SUDO_USAGE}`);
  }
  const rest = args.slice(i);
  if (!rest.length) return err(SUDO_USAGE);
  return runOnNode(cluster, node, rest, 'root', lang);
}

export const SUDO_USAGE = `usage: sudo -h | -K | -k | -V
usage: sudo -v [-ABkNnS] [-g group] [-h host] [-p prompt] [-u user]
usage: sudo -l [-ABkNnS] [-g group] [-h host] [-p prompt] [-U user] [-u user] [command [arg ...]]
usage: sudo [-ABbEHkNnPS] [-C num] [-D directory] [-g group] [-h host] [-p prompt] [-R directory] [-T timeout] [-u user] [VAR=value] [-i | -s] [command [arg ...]]
usage: sudo -e [-ABkNnS] [-C num] [-D directory] [-g group] [-h host] [-p prompt] [-R directory] [-T timeout] [-u user] file ...
`;

/** Home directory of a login on the node. */
export function homeOf(user: string): string {
  return user === 'root' ? '/root' : `/home/${user}`;
}

/** What a user who is not root gets from a command that changes the machine. */
function needsRoot(cmd: string, args: string[]): string | undefined {
  if (cmd === 'systemctl') {
    const verb = args.find((a) => !a.startsWith('-'));
    const unit = args.filter((a) => !a.startsWith('-'))[1] ?? '';
    if (verb && ['stop', 'start', 'restart'].includes(verb)) {
      const svc = unit.endsWith('.service') ? unit : `${unit}.service`;
      return `Failed to ${verb} ${svc}: Interactive authentication required.\nSee system logs and 'systemctl status ${svc}' for details.\n`;
    }
  }
  if (cmd === 'ip' && ['link', 'l'].includes(args[0] ?? '') && args[1] === 'set')
    return 'RTNETLINK answers: Operation not permitted\n';
  if (cmd === 'iptables' || cmd === 'iptables-save' || cmd === 'ipvsadm' || cmd === 'nft')
    return cmd === 'nft'
      ? 'Error: Could not process rule: Operation not permitted\n'
      : cmd === 'ipvsadm'
        ? "Can't initialize ipvs: Permission denied (you must be root)\nAre you sure that IP Virtual Server is built in the kernel or as module?\n"
        : `${cmd === 'iptables' ? 'iptables' : 'iptables-save'} v1.8.10 (nf_tables): Could not fetch rule set generation id: Permission denied (you must be root)\n`;
  return undefined;
}

/**
 * Run one command line (already split into words) on `node` as `user` (root unless an `ssh
 * user@node` login). `exit`/`clear`/`history`/`sudo -i` are the console's.
 */
export function runOnNode(
  cluster: Cluster,
  node: string,
  argv: string[],
  user = 'root',
  lang: Language = 'en'
): ShellResult {
  const onControlPlane = controlPlaneShell(cluster, node, argv, lang);
  if (onControlPlane) return onControlPlane;
  const host = shellHost(cluster, node);
  const [cmd, ...args] = argv;
  const root = user === 'root';
  const home = homeOf(user);
  const ok = (stdout: string): ShellResult => ({ stdout, stderr: '', exitCode: 0 });
  if (!root) {
    const denied = needsRoot(cmd, args);
    if (denied) return err(denied, cmd === 'ip' ? 2 : 1);
  }
  switch (cmd) {
    case 'sudo':
      return sudo(cluster, node, args, lang);
    case 'systemctl':
      return systemctl(cluster, host, args);
    case 'journalctl':
      return journalctl(cluster, host, args);
    case 'crictl':
      return crictl(cluster, host, args);
    case 'curl':
      return curl(cluster, node, args);
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
      return ls(cluster, host, args, home);
    case 'cat':
      return cat(cluster, host, args, home);
    case 'less':
      return cat(cluster, host, args, home, 'less');
    case 'head':
    case 'tail':
      return headTail(cluster, host, cmd, args, home);
    case 'grep':
      return grep(cluster, host, args, home);
    case 'egrep':
      return grep(cluster, host, ['-E', ...args], home);
    case 'mv':
      return mv(cluster, host, args, root, home);
    case 'sed':
      return sed(cluster, host, args, root, home);
    case 'vi':
    case 'vim':
    case 'nano':
      return err(
        `${cmd}: no terminal editor in this console; kubectl edit opens an object in the lab's editor\n`
      );
    case 'fallocate':
      return fallocate(cluster, node, args, root);
    case 'stress-ng':
      return stressNg(cluster, node, args);
    case 'free':
      return free(host, args);
    case 'df':
      return df(host, args);
    case 'hostname':
      return ok(node + '\n');
    case 'rm':
      return rm(cluster, node, args, root);
    case 'whoami':
      return ok(user + '\n');
    case 'pwd':
      return ok(home + '\n');
    case 'help':
      return ok(nodeShellHelp(lang, false, !!kubeProxyOf(cluster, node)?.state.host));
    case 'kubectl':
      return { stdout: '', stderr: 'bash: kubectl: command not found\n', exitCode: 127 };
    default:
      return { stdout: '', stderr: `bash: ${cmd}: command not found\n`, exitCode: 127 };
  }
}
