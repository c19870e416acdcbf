/** Plain Linux tools on the node: free, df, hostname, cat and ls over the few files we model. */
import type { Cluster } from '../../cluster';
import type { ShellHost } from './host';
import { cniFiles } from './net';
import type { ShellResult } from './shell';

const ok = (stdout: string): ShellResult => ({ stdout, stderr: '', exitCode: 0 });
const KI = 1024;

/** procps `free -h`: 7.8Gi, 812Mi, 0B. */
function humanBinary(bytes: number): string {
  const units = ['B', 'Ki', 'Mi', 'Gi', 'Ti'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  if (i === 0) return `${Math.round(v)}B`;
  return v < 10 ? `${v.toFixed(1)}${units[i]}` : `${Math.round(v)}${units[i]}`;
}

export function free(host: ShellHost, argv: string[]): ShellResult {
  const m = host.view.memory();
  const shared = 2 * KI * KI;
  const cache = Math.min(m.available, Math.round(m.total * 0.1));
  const freeBytes = Math.max(0, m.total - m.used - cache);
  const scale = argv.includes('-h')
    ? humanBinary
    : argv.includes('-g')
      ? (b: number) => String(Math.floor(b / KI ** 3))
      : argv.includes('-m')
        ? (b: number) => String(Math.floor(b / KI ** 2))
        : (b: number) => String(Math.floor(b / KI));
  const row = (label: string, vals: number[]) =>
    label.padEnd(8) + vals.map((v) => scale(v).padStart(12)).join('') + '\n';
  return ok(
    '               total        used        free      shared  buff/cache   available\n' +
      row('Mem:', [m.total, m.used, freeBytes, shared, cache, m.available]) +
      row('Swap:', [0, 0, 0])
  );
}

/** coreutils df -h: powers of 1024, one decimal under 10, rounded up. */
function humanDf(bytes: number): string {
  if (bytes === 0) return '0';
  const units = ['K', 'M', 'G', 'T'];
  let v = bytes / KI;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return v < 10 ? `${(Math.ceil(v * 10) / 10).toFixed(1)}${units[i]}` : `${Math.ceil(v)}${units[i]}`;
}

export function df(host: ShellHost, argv: string[]): ShellResult {
  const d = host.view.disk();
  const mem = host.view.memory();
  const rows: [string, number, number, string][] = [
    ['tmpfs', Math.round(mem.total / 10), 1_200_000, '/run'],
    ['/dev/root', d.total, d.used, '/'],
    ['tmpfs', Math.round(mem.total / 2), 0, '/dev/shm'],
    ['tmpfs', 5 * KI * KI, 0, '/run/lock']
  ];
  const human = argv.some((a) => /^-\w*h/.test(a));
  const fsWidth = Math.max(14, ...rows.map((r) => r[0].length));
  let out = human
    ? `${'Filesystem'.padEnd(fsWidth)} ${'Size'.padStart(5)} ${'Used'.padStart(5)} ${'Avail'.padStart(5)} Use% Mounted on\n`
    : `${'Filesystem'.padEnd(fsWidth)} 1K-blocks     Used Available Use% Mounted on\n`;
  for (const [fs, size, used, mount] of rows) {
    const avail = Math.max(0, size - used);
    const pct = size ? `${Math.ceil((used / size) * 100)}%` : '-';
    out += human
      ? `${fs.padEnd(fsWidth)} ${humanDf(size).padStart(5)} ${humanDf(used).padStart(5)} ${humanDf(avail).padStart(5)} ${pct.padStart(4)} ${mount}\n`
      : `${fs.padEnd(fsWidth)} ${String(Math.ceil(size / KI)).padStart(9)} ${String(Math.ceil(used / KI)).padStart(8)} ${String(Math.floor(avail / KI)).padStart(9)} ${pct.padStart(4)} ${mount}\n`;
  }
  return ok(out);
}

const CNI_DIR = '/etc/cni/net.d';

function norm(p: string): string {
  return p.replace(/\/+$/, '') || '/';
}

export function ls(cluster: Cluster, host: ShellHost, argv: string[]): ShellResult {
  const paths = argv.filter((a) => !a.startsWith('-'));
  const target = norm(paths[0] ?? '/root');
  if (target === CNI_DIR) {
    const names = Object.keys(cniFiles(cluster, host)).sort();
    const long = argv.some((a) => /^-\w*l/.test(a));
    if (long) {
      return ok(
        `total ${names.length * 4}\n` +
          names
            .map((n) => `-rw-r--r-- 1 root root  ${cniFiles(cluster, host)[n].length} Jan  1 00:00 ${n}\n`)
            .join('')
      );
    }
    return ok(names.length ? names.join('  ') + '\n' : '');
  }
  if (target === '/root' || target === '~') return ok('');
  if (target === '/etc/cni') return ok('net.d\n');
  return { stdout: '', stderr: `ls: cannot access '${paths[0]}': No such file or directory\n`, exitCode: 2 };
}

export function cat(cluster: Cluster, host: ShellHost, argv: string[]): ShellResult {
  let stdout = '';
  let stderr = '';
  const files = cniFiles(cluster, host);
  for (const arg of argv.filter((a) => !a.startsWith('-'))) {
    if (arg === '/etc/hostname') {
      stdout += host.view.nodeName + '\n';
      continue;
    }
    const dir = arg.slice(0, arg.lastIndexOf('/'));
    const base = arg.slice(arg.lastIndexOf('/') + 1);
    if (norm(dir) === CNI_DIR) {
      const re = new RegExp(
        '^' +
          base
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '.*')
            .replace(/\?/g, '.') +
          '$'
      );
      const names = Object.keys(files)
        .sort()
        .filter((n) => re.test(n));
      if (names.length) {
        for (const n of names) stdout += files[n].endsWith('\n') ? files[n] : files[n] + '\n';
        continue;
      }
    }
    // coreutils quotes names that need quoting in its diagnostics.
    stderr += `cat: ${/[*?\s]/.test(arg) ? `'${arg}'` : arg}: No such file or directory\n`;
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}
