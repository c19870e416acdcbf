/** Plain Linux tools on the node: free, df, hostname, cat and ls over the few files we model. */
import { grepFiles } from '../../kubectl/pipes';
import type { Cluster } from '../../cluster';
import type { ShellHost } from './host';
import { absPath, glob, isDir, listDir, nodeFiles } from './files';
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

const bytes = (s: string) => new TextEncoder().encode(s).length;

/** Words that are operands, not options (`--` ends options). */
function operands(argv: string[]): string[] {
  const i = argv.indexOf('--');
  const before = (i >= 0 ? argv.slice(0, i) : argv).filter((a) => !a.startsWith('-') || a === '-');
  return i >= 0 ? [...before, ...argv.slice(i + 1)] : before;
}

/** coreutils quotes names that need quoting in its diagnostics. */
const quoteName = (p: string) => (/[*?\s'"]/.test(p) ? `'${p}'` : p);

function expand(
  files: Record<string, string>,
  words: string[],
  home: string
): { word: string; path: string }[] {
  return words.flatMap((w) => {
    const abs = absPath(w, home);
    const matches = glob(files, abs);
    return matches.length === 1 && matches[0] === abs
      ? [{ word: /[*?]/.test(w) ? w : w, path: abs }]
      : matches.map((m) => ({ word: m, path: m }));
  });
}

export function ls(cluster: Cluster, host: ShellHost, argv: string[], home = '/root'): ShellResult {
  const files = nodeFiles(cluster, host);
  const long = argv.some((a) => /^-[a-zA-Z]*l/.test(a));
  const words = operands(argv);
  const targets = expand(files, words.length ? words : ['.'], home);
  let stdout = '';
  let stderr = '';
  const size = (path: string) => (isDir(files, path) || path === home ? 4096 : bytes(files[path]));
  // GNU ls -l right-aligns the size column to the widest entry of the listing.
  const entries = (items: { path: string; name: string }[]) => {
    const w = Math.max(0, ...items.map((x) => String(size(x.path)).length));
    return items
      .map(({ path, name }) => {
        const mode = isDir(files, path) ? 'drwxr-xr-x 2' : '-rw-r--r-- 1';
        return `${mode} root root ${String(size(path)).padStart(w)} Jan  1 00:00 ${name}\n`;
      })
      .join('');
  };
  const dir = (p: string) => p === home || isDir(files, p);
  const fileTargets = targets.filter((t) => t.path in files && !dir(t.path));
  const dirTargets = targets.filter((t) => dir(t.path));
  for (const t of targets)
    if (!(t.path in files) && !dir(t.path))
      stderr += `ls: cannot access '${t.word}': No such file or directory\n`;
  if (fileTargets.length)
    stdout += long
      ? entries(fileTargets.map((t) => ({ path: t.path, name: t.word })))
      : fileTargets.map((t) => t.word).join('  ') + '\n';
  const heading = targets.length > 1;
  dirTargets.forEach((t) => {
    if (heading) stdout += `${stdout ? '\n' : ''}${t.word}:\n`;
    const names = listDir(files, t.path) ?? [];
    const child = (n: string) => (t.path === '/' ? `/${n}` : `${t.path}/${n}`);
    if (long) {
      const blocks = names.reduce(
        (sum, n) => sum + (isDir(files, child(n)) ? 4 : Math.ceil(bytes(files[child(n)]) / 4096) * 4),
        0
      );
      stdout += `total ${blocks}\n` + entries(names.map((n) => ({ path: child(n), name: n })));
    } else if (names.length) stdout += names.join('  ') + '\n';
  });
  return { stdout, stderr, exitCode: stderr ? 2 : 0 };
}

/** `cat` (and `less`, which prints like cat when its output is not read page by page). */
export function cat(
  cluster: Cluster,
  host: ShellHost,
  argv: string[],
  home = '/root',
  tool = 'cat'
): ShellResult {
  const files = nodeFiles(cluster, host);
  let stdout = '';
  let stderr = '';
  const words = operands(argv);
  if (tool === 'less' && !words.length)
    return { stdout: '', stderr: 'Missing filename ("less --help" for help)\n', exitCode: 1 };
  for (const t of expand(files, words, home)) {
    if (t.path in files) stdout += files[t.path];
    else if (isDir(files, t.path))
      stderr +=
        tool === 'less' ? `${t.word} is a directory\n` : `cat: ${quoteName(t.word)}: Is a directory\n`;
    else
      stderr +=
        tool === 'less'
          ? `${t.word}: No such file or directory\n`
          : `cat: ${quoteName(t.word)}: No such file or directory\n`;
  }
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

/** `grep PATTERN FILE...` on the node's files: GNU grep's output, errors and exit status. */
export function grep(cluster: Cluster, host: ShellHost, argv: string[], home = '/root'): ShellResult {
  const files = nodeFiles(cluster, host);
  return grepFiles(
    argv,
    (word) => {
      const p = absPath(word, home);
      if (p in files) return { text: files[p] };
      if (p === home || isDir(files, p)) return { dir: true };
      return { missing: true };
    },
    // bash's pathname expansion: matches in the form the word was written (relative stays
    // relative), sorted; no match leaves the word as it is, and grep then reports it missing.
    (word) => {
      if (!/[*?]/.test(word)) return [word];
      const abs = absPath(word, home);
      const matches = glob(files, abs);
      if (matches.length === 1 && matches[0] === abs) return [word];
      if (word.startsWith('/')) return matches;
      const base = abs.slice(0, abs.lastIndexOf('/') + 1);
      const prefix = word.slice(0, word.lastIndexOf('/') + 1);
      return matches.map((m) => prefix + m.slice(base.length));
    }
  );
}

/** `head` / `tail` on files: `-n N`, `-nN`, `-N`, `--lines=N`; `==> name <==` above each of several. */
export function headTail(
  cluster: Cluster,
  host: ShellHost,
  tool: 'head' | 'tail',
  argv: string[],
  home = '/root'
): ShellResult {
  const files = nodeFiles(cluster, host);
  let n = 10;
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    let v: string | undefined;
    if (a === '-n' || a === '--lines') v = argv[++i];
    else if (/^-n.+/.test(a)) v = a.slice(2);
    else if (a.startsWith('--lines=')) v = a.slice(8);
    else if (/^-\d+$/.test(a)) v = a.slice(1);
    else if (a.startsWith('-') && a !== '-') {
      const bad = a.startsWith('--') ? `unrecognized option '${a}'` : `invalid option -- '${a[1]}'`;
      return {
        stdout: '',
        stderr: `${tool}: ${bad}\nTry '${tool} --help' for more information.\n`,
        exitCode: 1
      };
    } else {
      words.push(a);
      continue;
    }
    if (v === undefined || !/^\d+$/.test(v))
      return { stdout: '', stderr: `${tool}: invalid number of lines: ‘${v ?? ''}’\n`, exitCode: 1 };
    n = parseInt(v, 10);
  }
  let stdout = '';
  let stderr = '';
  const targets = expand(files, words, home);
  targets.forEach((t) => {
    if (!(t.path in files)) {
      stderr += isDir(files, t.path)
        ? `${tool}: error reading '${t.word}': Is a directory\n`
        : `${tool}: cannot open '${t.word}' for reading: No such file or directory\n`;
      return;
    }
    const lines = files[t.path].split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const kept = tool === 'head' ? lines.slice(0, n) : lines.slice(Math.max(0, lines.length - n));
    if (targets.length > 1) stdout += `${stdout ? '\n' : ''}==> ${t.word} <==\n`;
    stdout += kept.map((l) => l + '\n').join('');
  });
  return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}
