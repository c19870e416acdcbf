/**
 * The files of a control-plane host as its shell sees them: kubeadm's static-pod manifests, the
 * PKI, etcd's data directories and snapshot files. `sudo`, `VAR=value` prefixes, `ls`, `cat`,
 * `mv`, `cp`, `mkdir`, `rm` and `sed -i` work on them; etcdctl and etcdutl live in etcdctl.ts.
 * Any change tells the host's kubelet (etcd/staticpods.ts), which starts or stops static pods.
 */
import type { Cluster } from '../../cluster';
import { staticPods, type HostFile, type StaticPods } from '../../etcd/staticpods';
import { grepFiles } from '../../kubectl/pipes';
import { etcdctl, etcdutl } from './etcdctl';
import { curl } from './curl';
import { runOnNode, type ShellResult } from './shell';
import { nodeShellHelp } from './help';
import { parseSed, runSed } from './sed';
import type { Language } from '../../../lessons/format';

const ok = (stdout: string): ShellResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string, exitCode = 1): ShellResult => ({ stdout: '', stderr, exitCode });

export function resolvePath(p: string): string {
  const abs = p.startsWith('/')
    ? p
    : p === '~'
      ? '/root'
      : p.startsWith('~/')
        ? '/root' + p.slice(1)
        : `/root/${p}`;
  const parts: string[] = [];
  for (const seg of abs.split('/')) {
    if (!seg || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return '/' + parts.join('/');
}

const parent = (p: string) => p.slice(0, p.lastIndexOf('/')) || '/';
const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** Bytes `ls -l` shows for a file. */
export function fileSize(sp: StaticPods, f: HostFile): number {
  if (f.type === 'file')
    return f.mode === undefined || f.content ? new TextEncoder().encode(f.content).length : 1_000;
  if (f.type === 'snapshot') return sp.state.snapshots[f.snapshot]?.sizeBytes ?? 0;
  return 4096;
}

/** `ls -l` time: "Jan  1 00:05" (coreutils, files from the last six months). */
function lsTime(cluster: Cluster, t: number): string {
  const d = new Date(cluster.api.epochMs + t);
  const mon = d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${mon} ${String(d.getUTCDate()).padStart(2, ' ')} ${hh}:${mm}`;
}

/** Entries directly under `dir`: name → file (implicit directories as `dir`). */
function entries(sp: StaticPods, host: string, dir: string): Map<string, HostFile> {
  const out = new Map<string, HostFile>();
  const prefix = dir === '/' ? '/' : dir + '/';
  const files = sp.files(host);
  for (const [p, f] of Object.entries(files)) {
    if (!p.startsWith(prefix)) continue;
    const rest = p.slice(prefix.length);
    if (!rest) continue;
    const name = rest.split('/')[0];
    if (rest.includes('/')) {
      if (!out.has(name)) out.set(name, files[prefix + name] ?? { type: 'dir', mtime: 0 });
    } else out.set(name, f);
  }
  if (dir === '/etc/kubernetes' && !out.has('manifests')) out.set('manifests', { type: 'dir', mtime: 0 });
  return out;
}

/**
 * bash's pathname expansion of one word (`*` and `?` in its last segment) against the host's
 * files: the matches sorted, in the form the word was written; no match leaves the word as it is.
 */
function expandWord(sp: StaticPods, host: string, word: string): string[] {
  if (!/[*?]/.test(word) || word.startsWith('-')) return [word];
  const abs = resolvePath(word);
  const dir = parent(abs);
  const re = new RegExp(
    '^' +
      base(abs)
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.') +
      '$'
  );
  const names = [...entries(sp, host, dir).keys()].filter((n) => re.test(n) && !n.startsWith('.')).sort();
  if (!names.length || /[*?]/.test(dir)) return [word];
  const prefix = word.includes('/') ? word.slice(0, word.lastIndexOf('/') + 1) : '';
  return names.map((n) => prefix + n);
}

const expandArgs = (sp: StaticPods, host: string, args: string[]) =>
  args.flatMap((a) => expandWord(sp, host, a));

/** `grep PATTERN FILE...` on the host's files (the pattern is not expanded; FILE operands are). */
function grep(sp: StaticPods, host: string, args: string[]): ShellResult {
  return grepFiles(
    args,
    (word) => {
      const p = resolvePath(word);
      const f = sp.files(host)[p];
      if (f?.type === 'file') return { text: f.content };
      if (f?.type === 'snapshot') return { text: '\u0000'.repeat(16) + '\n' };
      if (f || sp.isDir(host, p)) return { dir: true };
      return { missing: true };
    },
    (word) => expandWord(sp, host, word)
  );
}

function lsLine(cluster: Cluster, sp: StaticPods, name: string, f: HostFile, human: boolean): string {
  const dir = f.type === 'dir' || f.type === 'datadir';
  const mode = dir
    ? f.type === 'datadir'
      ? 'drwx------'
      : 'drwxr-xr-x'
    : f.type === 'snapshot'
      ? '-rw-------'
      : (f.mode ?? '-rw-r--r--');
  const size = fileSize(sp, f);
  const shown = human ? humanLs(size) : String(size);
  return `${mode} ${dir ? 3 : 1} root root ${shown.padStart(human ? 4 : 5)} ${lsTime(cluster, f.mtime)} ${name}\n`;
}

function humanLs(n: number): string {
  if (n < 1024) return String(n);
  const units = ['K', 'M', 'G', 'T'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return v < 10 ? `${(Math.ceil(v * 10) / 10).toFixed(1)}${units[i]}` : `${Math.ceil(v)}${units[i]}`;
}

function ls(cluster: Cluster, sp: StaticPods, host: string, args: string[]): ShellResult {
  const flags = args.filter((a) => a.startsWith('-')).join('');
  const long = flags.includes('l');
  const human = flags.includes('h');
  const paths = args.filter((a) => !a.startsWith('-'));
  let stdout = '';
  let stderr = '';
  for (const raw of paths.length ? paths : ['.']) {
    const p = resolvePath(raw === '.' ? '/root' : raw);
    const f = sp.files(host)[p];
    if (f && f.type !== 'dir' && f.type !== 'datadir') {
      stdout += long ? lsLine(cluster, sp, raw, f, human) : raw + '\n';
      continue;
    }
    if (!sp.isDir(host, p)) {
      stderr += `ls: cannot access '${raw}': No such file or directory\n`;
      continue;
    }
    if (paths.length > 1) stdout += `${raw}:\n`;
    const es = [...entries(sp, host, p).entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    if (long) {
      const blocks = es.reduce((n, [, e]) => n + Math.ceil(fileSize(sp, e) / 4096) * 4, 0);
      stdout += `total ${blocks}\n` + es.map(([n, e]) => lsLine(cluster, sp, n, e, human)).join('');
    } else if (es.length) stdout += es.map(([n]) => n).join('  ') + '\n';
  }
  return { stdout, stderr, exitCode: stderr ? 2 : 0 };
}

function cat(sp: StaticPods, host: string, args: string[]): ShellResult {
  let stdout = '';
  let stderr = '';
  for (const raw of args.filter((a) => !a.startsWith('-'))) {
    const p = resolvePath(raw);
    const f = sp.files(host)[p];
    if (!f) {
      if (sp.isDir(host, p)) stderr += `cat: ${raw}: Is a directory\n`;
      else stderr += `cat: ${raw}: No such file or directory\n`;
    } else if (f.type === 'file') stdout += f.content;
    else if (f.type === 'snapshot') stdout += '\u0000'.repeat(16) + '\n';
    else stderr += `cat: ${raw}: Is a directory\n`;
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

/** Move (or copy) a file or a directory tree. */
function transfer(
  cluster: Cluster,
  sp: StaticPods,
  host: string,
  cmd: 'mv' | 'cp',
  args: string[]
): ShellResult {
  const recursive = args.some((a) => /^-\w*[rRa]/.test(a));
  const paths = args.filter((a) => !a.startsWith('-'));
  if (paths.length < 2)
    return fail(
      paths.length
        ? `${cmd}: missing destination file operand after '${paths[0]}'\nTry '${cmd} --help' for more information.\n`
        : `${cmd}: missing file operand\nTry '${cmd} --help' for more information.\n`
    );
  const files = sp.files(host);
  const destRaw = paths[paths.length - 1];
  const dest = resolvePath(destRaw);
  const sources = paths.slice(0, -1);
  if (sources.length > 1 && !sp.isDir(host, dest))
    return fail(`${cmd}: target '${destRaw}' is not a directory\n`);
  let stderr = '';
  for (const raw of sources) {
    const src = resolvePath(raw);
    const f = files[src];
    const isDir = sp.isDir(host, src) && (!f || f.type === 'dir' || f.type === 'datadir');
    if (!f && !isDir) {
      stderr += `${cmd}: cannot stat '${raw}': No such file or directory\n`;
      continue;
    }
    if (cmd === 'cp' && isDir && !recursive) {
      stderr += `cp: -r not specified; omitting directory '${raw}'\n`;
      continue;
    }
    const target =
      sp.isDir(host, dest) && !(files[dest]?.type === 'file')
        ? (dest === '/' ? '' : dest) + '/' + base(src)
        : dest;
    if (!sp.isDir(host, parent(target))) {
      stderr += `${cmd}: cannot ${cmd === 'mv' ? 'move' : 'create regular file'} '${raw}' to '${destRaw}': No such file or directory\n`;
      continue;
    }
    const moved: [string, HostFile][] = Object.entries(files).filter(
      ([p]) => p === src || p.startsWith(src + '/')
    );
    for (const [p, file] of moved) {
      const np = target + p.slice(src.length);
      if (cmd === 'mv') delete files[p];
      files[np] = cmd === 'cp' ? { ...file, mtime: cluster.now } : file;
    }
  }
  sp.changed();
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

function mkdir(cluster: Cluster, sp: StaticPods, host: string, args: string[]): ShellResult {
  const p = args.includes('-p');
  let stderr = '';
  for (const raw of args.filter((a) => !a.startsWith('-'))) {
    const path = resolvePath(raw);
    if (sp.isDir(host, path) || sp.files(host)[path]) {
      if (!p) stderr += `mkdir: cannot create directory '${raw}': File exists\n`;
      continue;
    }
    if (!p && !sp.isDir(host, parent(path))) {
      stderr += `mkdir: cannot create directory '${raw}': No such file or directory\n`;
      continue;
    }
    sp.files(host)[path] = { type: 'dir', mtime: cluster.now };
  }
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

function rm(sp: StaticPods, host: string, args: string[]): ShellResult | undefined {
  const recursive = args.some((a) => /^-\w*[rR]/.test(a));
  const force = args.some((a) => /^-\w*f/.test(a));
  const files = sp.files(host);
  const paths = args.filter((a) => !a.startsWith('-')).map((raw) => [raw, resolvePath(raw)]);
  // The worker nodes' disk filler is the node shell's own rm.
  if (paths.length && paths.every(([, p]) => p === '/var/lib/fill.img')) return undefined;
  if (!paths.length) return fail(`rm: missing operand\nTry 'rm --help' for more information.\n`);
  let stderr = '';
  for (const [raw, p] of paths) {
    const f = files[p];
    const dir = sp.isDir(host, p) && (!f || f.type !== 'file');
    if (!f && !dir) {
      if (!force) stderr += `rm: cannot remove '${raw}': No such file or directory\n`;
      continue;
    }
    if (dir && !recursive) {
      stderr += `rm: cannot remove '${raw}': Is a directory\n`;
      continue;
    }
    for (const k of Object.keys(files)) if (k === p || k.startsWith(p + '/')) delete files[k];
  }
  sp.changed();
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

/** GNU sed (sed.ts) on the host's files; -i writes them back. */
function sed(cluster: Cluster, sp: StaticPods, host: string, args: string[]): ShellResult {
  const prog = parseSed(args);
  if (typeof prog === 'string') return fail(prog);
  let stdout = '';
  let stderr = '';
  for (const raw of prog.files) {
    const p = resolvePath(raw);
    const f = sp.files(host)[p];
    if (!f || f.type !== 'file') {
      stderr += f
        ? `sed: couldn't edit ${raw}: not a regular file\n`
        : `sed: can't read ${raw}: No such file or directory\n`;
      continue;
    }
    const out = runSed(prog, f.content);
    if (prog.inPlace) sp.files(host)[p] = { ...f, content: out, mtime: cluster.now };
    else stdout += out;
  }
  if (prog.inPlace) sp.changed();
  return { stdout, stderr, exitCode: stderr ? 2 : 0 };
}

/** `scp <file> <host>:<path>` between control-plane hosts (root's keys are shared, as kubeadm operators set up). */
function scp(cluster: Cluster, sp: StaticPods, host: string, args: string[]): ShellResult {
  const paths = args.filter((a) => !a.startsWith('-'));
  if (paths.length !== 2)
    return fail(
      'usage: scp [-346ABCOpqRrsTv] [-c cipher] [-D sftp_server_path] [-F ssh_config]\n           source ... target\n'
    );
  const split = (p: string): [string, string] => {
    const m = /^(?:[^@/]*@)?([^:/]+):(.*)$/.exec(p);
    return m ? [m[1], m[2] || '/root'] : [host, p];
  };
  const [srcHost, srcPath] = split(paths[0]);
  const [dstHost, dstPath] = split(paths[1]);
  for (const h of [srcHost, dstHost]) {
    if (!sp.hosts.includes(h))
      return fail(
        `ssh: Could not resolve hostname ${h}: Name or service not known\r\nscp: Connection closed\n`,
        255
      );
  }
  const src = resolvePath(srcPath);
  const f = sp.files(srcHost)[src];
  if (!f || f.type === 'dir' || f.type === 'datadir')
    return fail(f ? `scp: ${srcPath}: not a regular file\n` : `scp: ${srcPath}: No such file or directory\n`);
  let dst = resolvePath(dstPath);
  if (sp.isDir(dstHost, dst) && sp.files(dstHost)[dst]?.type !== 'file')
    dst = (dst === '/' ? '' : dst) + '/' + base(src);
  if (!sp.isDir(dstHost, parent(dst)))
    return fail(
      `scp: dest open "${dstPath}": No such file or directory\nscp: failed to upload file ${srcPath} to ${dstPath}\n`
    );
  sp.files(dstHost)[dst] = { ...f, mtime: cluster.now };
  return ok('');
}

/**
 * Commands on a control-plane host. Returns undefined for anything it does not handle (the node
 * shell runs it), and for hosts without static pods.
 */
/** Paths the node shell keeps (node/shell/files.ts), not the control-plane host's files. */
const NODE_SHELL_PATH =
  /^\/(etc\/cni|var\/lib\/kubelet|var\/lib\/kube-proxy|etc\/containerd|etc\/crio)(\/|$)|^\/etc\/(hostname|kubernetes\/kubelet\.conf)$/;

function isNodeShellPath(arg: string): boolean {
  return !arg.startsWith('-') && NODE_SHELL_PATH.test(resolvePath(arg));
}

export function controlPlaneShell(
  cluster: Cluster,
  host: string,
  argv: string[],
  lang: Language = 'en'
): ShellResult | undefined {
  const sp = staticPods(cluster);
  if (!sp || !sp.hosts.includes(host)) return undefined;
  const env: Record<string, string> = {};
  let words = [...argv];
  for (;;) {
    if (words[0] === 'sudo') words = words.slice(1).filter((w, i) => i > 0 || !w.startsWith('-'));
    else if (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? '')) {
      const [k, ...v] = words[0].split('=');
      env[k] = v.join('=');
      words = words.slice(1);
    } else break;
  }
  const [cmd, ...args] = words;
  switch (cmd) {
    case undefined:
      return ok('');
    case 'etcdctl':
      return etcdctl(cluster, sp, host, args, env);
    case 'etcdutl':
      return etcdutl(cluster, sp, host, args);
    case 'ls':
    case 'cat':
      // The CNI config, the kubelet's and runtime's files and the hostname are the node shell's:
      // the host's kubelet is a node's kubelet like any other.
      if (args.some(isNodeShellPath)) return undefined;
      return cmd === 'ls'
        ? ls(cluster, sp, host, expandArgs(sp, host, args))
        : cat(sp, host, expandArgs(sp, host, args));
    case 'grep':
    case 'egrep':
      if (args.some(isNodeShellPath)) return undefined;
      return grep(sp, host, cmd === 'egrep' ? ['-E', ...args] : args);
    case 'mv':
    case 'cp':
      if (args.some(isNodeShellPath)) return undefined;
      return transfer(cluster, sp, host, cmd, args);
    case 'mkdir':
      return mkdir(cluster, sp, host, args);
    case 'rm':
      if (args.some(isNodeShellPath)) return undefined;
      return rm(sp, host, args);
    case 'sed':
      if (args.some(isNodeShellPath)) return undefined;
      return sed(cluster, sp, host, args);
    case 'scp':
      return scp(cluster, sp, host, args);
    case 'curl':
      return curl(cluster, host, args);
    case 'help':
      return ok(nodeShellHelp(lang, true));
    case 'vi':
    case 'vim':
    case 'nano':
      return fail(`${cmd}: no terminal editor in this console; edit with sed -i 's|old|new|' <file>\n`);
    default:
      // `sudo <tool>` for the node shell's own tools.
      return words.length !== argv.length ? runOnNode(cluster, host, words, 'root', lang) : undefined;
  }
}
