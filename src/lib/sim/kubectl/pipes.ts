/**
 * The filters a console line can pipe into, as GNU coreutils, GNU grep and awk print: grep, head,
 * tail, wc, sort, uniq, awk '{print $N}', and cat/less passing the text through.
 */
import type { ConsoleResult } from './console';

/** Split on `|` outside quotes. */
export function splitPipes(line: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quote = '';
  let prev = ' ';
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '#' && /\s/.test(prev)) break;
    else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '|') {
      parts.push(cur);
      cur = '';
      prev = ' ';
      continue;
    }
    cur += ch;
    prev = ch;
  }
  parts.push(cur);
  return parts;
}

function lines(s: string): string[] {
  const l = s.split('\n');
  if (l[l.length - 1] === '') l.pop();
  return l;
}

const join = (l: string[]) => l.map((x) => x + '\n').join('');

type Result = ConsoleResult;
const fail = (input: Result, stderr: string, exitCode: number): Result => ({
  ...input,
  stdout: '',
  stderr: input.stderr + stderr,
  exitCode
});

const GREP_USAGE = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";

/** POSIX bracket classes inside [...] as JavaScript ranges. */
const CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f'
};

/** A GNU grep pattern (BRE, or ERE with -E) as a JavaScript regular expression source. */
export function grepRegex(pattern: string, extended: boolean): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '[') {
      // Bracket expression: copied, with POSIX classes translated.
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') {
        if (pattern.startsWith('[:', j)) {
          const end = pattern.indexOf(':]', j + 2);
          j = end < 0 ? j + 1 : end + 2;
        } else j++;
      }
      const body = pattern.slice(i + 1, j).replace(/\[:(\w+):\]/g, (m, c: string) => CLASSES[c] ?? m);
      out += '[' + body.replace(/\\/g, '\\\\') + ']';
      i = j;
      continue;
    }
    if (ch === '\\' && i + 1 < pattern.length) {
      const next = pattern[++i];
      if (!extended && '()|+?{}'.includes(next)) out += next;
      else if ('wWsSbB'.includes(next) || /[.*[\]^$\\/()|+?{}]/.test(next)) out += '\\' + next;
      else if (next === '<') out += '\\b(?=\\w)';
      else if (next === '>') out += '\\b(?<=\\w)';
      else out += next.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      continue;
    }
    if (!extended && '()|+?{}'.includes(ch)) out += '\\' + ch;
    else out += ch;
  }
  return out;
}

interface GrepArgs {
  f: Record<'i' | 'v' | 'c' | 'n' | 'o' | 'q' | 'x' | 'w' | 'E' | 'F' | 'h' | 'H' | 'l' | 'L', boolean>;
  after: number;
  before: number;
  context: boolean;
  re: RegExp;
  /** The FILE operands after the pattern. */
  operands: string[];
}

/** GNU grep's command line: options, the pattern(s) and the FILE operands; or its error (exit 2). */
function parseGrep(args: string[]): GrepArgs | { error: string; code: number } {
  const err = (error: string, code: number) => ({ error, code });
  const f = {
    i: false,
    v: false,
    c: false,
    n: false,
    o: false,
    q: false,
    x: false,
    w: false,
    E: false,
    F: false,
    h: false,
    H: false,
    l: false,
    L: false
  };
  let after = 0;
  let before = 0;
  let context = false;
  const patterns: string[] = [];
  const operands: string[] = [];
  const contextArg = (v: string, which: 'A' | 'B' | 'C'): string | undefined => {
    if (!/^\d+$/.test(v)) return `grep: ${v}: invalid context length argument\n`;
    const n = parseInt(v, 10);
    context = true;
    if (which !== 'B') after = n;
    if (which !== 'A') before = n;
  };
  const longs: Record<string, string> = {
    'ignore-case': 'i',
    'invert-match': 'v',
    count: 'c',
    'line-number': 'n',
    'only-matching': 'o',
    quiet: 'q',
    silent: 'q',
    'line-regexp': 'x',
    'word-regexp': 'w',
    'extended-regexp': 'E',
    'fixed-strings': 'F',
    'basic-regexp': 'G',
    'no-filename': 'h',
    'with-filename': 'H',
    'files-with-matches': 'l',
    'files-without-match': 'L'
  };
  for (let a = 0; a < args.length; a++) {
    const arg = args[a];
    if (arg === '--') {
      operands.push(...args.slice(a + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      const val = eq > 0 ? arg.slice(eq + 1) : undefined;
      if (name === 'color' || name === 'colour') continue;
      if (name in longs) {
        const k = longs[name];
        if (k in f) f[k as keyof typeof f] = true;
        if (k === 'G') f.E = false;
        continue;
      }
      const ctx = { 'after-context': 'A', 'before-context': 'B', context: 'C' }[name] as 'A' | 'B' | 'C';
      if (ctx || name === 'regexp') {
        const v = val ?? args[++a];
        if (v === undefined) return err(`grep: option '--${name}' requires an argument\n${GREP_USAGE}`, 2);
        if (name === 'regexp') patterns.push(v);
        else {
          const e = contextArg(v, ctx);
          if (e) return err(e, 2);
        }
        continue;
      }
      return err(`grep: unrecognized option '${arg}'\n${GREP_USAGE}`, 2);
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const ch = arg[j];
        if (/\d/.test(ch)) {
          // -2 is -C 2
          const num = /^\d+/.exec(arg.slice(j))![0];
          contextArg(num, 'C');
          j += num.length - 1;
          continue;
        }
        if ('ABCe'.includes(ch)) {
          const v = arg.slice(j + 1) || args[++a];
          if (v === undefined) return err(`grep: option requires an argument -- '${ch}'\n${GREP_USAGE}`, 2);
          if (ch === 'e') patterns.push(v);
          else {
            const e = contextArg(v, ch as 'A' | 'B' | 'C');
            if (e) return err(e, 2);
          }
          break;
        }
        if (ch in f) f[ch as keyof typeof f] = true;
        else if (ch === 'G') f.E = false;
        else if (ch === 'P') f.E = true;
        else if (!'hHsI'.includes(ch)) return err(`grep: invalid option -- '${ch}'\n${GREP_USAGE}`, 2);
      }
      continue;
    }
    operands.push(arg);
  }
  if (!patterns.length) {
    const p = operands.shift();
    if (p === undefined) return err(GREP_USAGE, 2);
    patterns.push(p);
  }
  // A pattern with newlines is several patterns.
  const all = patterns.flatMap((p) => p.split('\n'));
  let src = all
    .map((p) => (f.F ? p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : grepRegex(p, f.E)))
    .map((p) => `(?:${p})`)
    .join('|');
  if (f.w) src = `(?<![\\w])(?:${src})(?![\\w])`;
  if (f.x) src = `^(?:${src})$`;
  let re: RegExp;
  try {
    re = new RegExp(src, f.i ? 'gi' : 'g');
  } catch {
    return err(`grep: Unmatched ( or \\(\n`, 2);
  }
  return { f, after, before, context, re, operands };
}

/**
 * The selected lines of `content` as grep prints them (with `name` before each line when several
 * files are searched), and how many lines were selected.
 */
function grepText(
  g: GrepArgs,
  content: string,
  name?: string,
  file = '(standard input)'
): { out: string[]; count: number } {
  const { f, after, before, context, re } = g;
  const text = lines(content);
  const test = (l: string) => {
    re.lastIndex = 0;
    return re.test(l) !== f.v;
  };
  const selected = text.map(test);
  const count = selected.filter(Boolean).length;
  const out: string[] = [];
  if (f.q) return { out, count };
  // -l / -L: the file's name once (a single file is named too), instead of its lines.
  if (f.l || f.L) return { out: (f.l ? count > 0 : count === 0) ? [file] : [], count };
  if (f.c) return { out: [`${name !== undefined ? `${name}:` : ''}${count}`], count };
  const prefix = (i: number, sep: string) =>
    (name !== undefined ? `${name}${sep}` : '') + (f.n ? `${i + 1}${sep}` : '');
  if (f.o) {
    text.forEach((l, i) => {
      if (!selected[i] || f.v) return;
      for (const m of l.matchAll(re)) if (m[0]) out.push(prefix(i, ':') + m[0]);
    });
    return { out, count };
  }
  let last = -1;
  text.forEach((l, i) => {
    if (!selected[i]) return;
    const from = Math.max(0, i - before, last + 1);
    if (context && last >= 0 && from > last + 1) out.push('--');
    for (let k = from; k < i; k++) out.push(prefix(k, selected[k] ? ':' : '-') + text[k]);
    out.push(prefix(i, ':') + l);
    last = i;
    // Trailing context is printed as the following lines are reached (or below, at the end).
    let k = i + 1;
    for (; k <= Math.min(text.length - 1, i + after); k++) {
      if (selected[k]) break;
      out.push(prefix(k, '-') + text[k]);
      last = k;
    }
  });
  return { out, count };
}

/** GNU grep over the piped text: -i -v -c -n -o -q -x -w -E -F -e, context -A/-B/-C N. */
function grep(input: Result, args: string[]): Result {
  const g = parseGrep(args);
  if ('error' in g) return fail(input, g.error, g.code);
  // A FILE operand after a pipe names a file the console does not have.
  if (g.operands.length)
    return fail(input, g.operands.map((o) => `grep: ${o}: No such file or directory\n`).join(''), 2);
  const { out, count } = grepText(g, input.stdout);
  return { ...input, stdout: join(out), exitCode: count ? 0 : 1 };
}

/** What a FILE operand names for grep: its text, or that it is missing or a directory. */
export type GrepSource = { text: string } | { missing: true } | { dir: true };

/**
 * `grep PATTERN FILE...` as GNU grep runs it on files: each file's selected lines, prefixed with
 * its name when there are several (-h never, -H always); `grep: FILE: No such file or directory`
 * (or `Is a directory`) on stderr for a file it cannot read. Exit 0 when a line was selected, 1
 * when none, 2 on an error (unless -q selected a line).
 */
export function grepFiles(
  args: string[],
  read: (operand: string) => GrepSource,
  expand: (operand: string) => string[] = (o) => [o]
): ConsoleResult {
  const g = parseGrep(args);
  if ('error' in g) return { stdout: '', stderr: g.error, exitCode: g.code };
  // The shell expands globs in the FILE operands before grep runs (the pattern is not a path).
  const operands = g.operands.flatMap(expand);
  if (!operands.length) return { stdout: '', stderr: 'grep: (standard input): no input\n', exitCode: 2 };
  const named = g.f.H || (!g.f.h && operands.length > 1);
  const out: string[] = [];
  let stderr = '';
  let selected = 0;
  for (const o of operands) {
    const src = read(o);
    if ('missing' in src) stderr += `grep: ${o}: No such file or directory\n`;
    else if ('dir' in src) stderr += `grep: ${o}: Is a directory\n`;
    else {
      const r = grepText(g, src.text, named ? o : undefined, o);
      out.push(...r.out);
      selected += r.count;
    }
  }
  const exitCode = g.f.q && selected ? 0 : stderr ? 2 : selected ? 0 : 1;
  return { stdout: join(out), stderr, exitCode };
}

/** head/tail over the piped text: -n N, -N, -nN, --lines=N; tail also -n +N (from line N). */
function headTail(input: Result, tool: 'head' | 'tail', args: string[]): Result {
  let n = 10;
  let fromStart = false;
  let allBut = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    let v: string | undefined;
    if (a === '-n' || a === '--lines') v = args[++i];
    else if (/^-n.+/.test(a)) v = a.slice(2);
    else if (a.startsWith('--lines=')) v = a.slice(8);
    else if (/^-\d+$/.test(a)) v = a.slice(1);
    else if (tool === 'tail' && /^\+\d+$/.test(a)) v = a;
    else if (tool === 'tail' && (a === '-f' || a === '-F' || a === '--follow')) continue;
    else if (a.startsWith('-') && a !== '-') {
      const bad = a.startsWith('--') ? `unrecognized option '${a}'` : `invalid option -- '${a[1]}'`;
      return fail(input, `${tool}: ${bad}\nTry '${tool} --help' for more information.\n`, 1);
    } else return fail(input, `${tool}: cannot open '${a}' for reading: No such file or directory\n`, 1);
    if (v === undefined)
      return fail(
        input,
        `${tool}: option requires an argument -- 'n'\nTry '${tool} --help' for more information.\n`,
        1
      );
    const m = /^([+-]?)(\d+)$/.exec(v);
    if (!m) return fail(input, `${tool}: invalid number of lines: ‘${v}’\n`, 1);
    n = parseInt(m[2], 10);
    fromStart = tool === 'tail' && m[1] === '+';
    allBut = tool === 'head' && m[1] === '-';
  }
  const l = lines(input.stdout);
  let kept: string[];
  if (tool === 'head') kept = allBut ? l.slice(0, Math.max(0, l.length - n)) : l.slice(0, n);
  else kept = fromStart ? l.slice(Math.max(0, n - 1)) : l.slice(Math.max(0, l.length - n));
  return { ...input, stdout: join(kept), exitCode: 0 };
}

/** wc over the piped text: -l, -w, -c (-m); several counts are right-aligned in width 7. */
function wc(input: Result, args: string[]): Result {
  const which = new Set<string>();
  for (const a of args) {
    if (a === '--lines') which.add('l');
    else if (a === '--words') which.add('w');
    else if (a === '--bytes') which.add('c');
    else if (a === '--chars') which.add('m');
    else if (/^-[lwcm]+$/.test(a)) for (const ch of a.slice(1)) which.add(ch);
    else if (a.startsWith('-')) {
      const bad = a.startsWith('--')
        ? `unrecognized option '${a}'`
        : `invalid option -- '${a.replace(/^-[lwcm]*/, '')[0]}'`;
      return fail(input, `wc: ${bad}\nTry 'wc --help' for more information.\n`, 1);
    } else return fail(input, `wc: ${a}: No such file or directory\n`, 1);
  }
  if (!which.size) ['l', 'w', 'c'].forEach((x) => which.add(x));
  const t = input.stdout;
  const counts: Record<string, number> = {
    l: (t.match(/\n/g) ?? []).length,
    w: t.split(/\s+/).filter(Boolean).length,
    m: [...t].length,
    c: new TextEncoder().encode(t).length
  };
  const order = ['l', 'w', 'm', 'c'].filter((k) => which.has(k));
  const text =
    order.length === 1 ? String(counts[order[0]]) : order.map((k) => String(counts[k]).padStart(7)).join(' ');
  return { ...input, stdout: text + '\n', exitCode: 0 };
}

/** sort over the piped text (byte order, as LC_ALL=C): -r, -n, -u, -k N[,M], -t SEP. */
function sort(input: Result, args: string[]): Result {
  let reverse = false;
  let numeric = false;
  let unique = false;
  let key: number | undefined;
  let sep: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-k' || a === '-t') {
      const v = args[++i];
      if (v === undefined)
        return fail(
          input,
          `sort: option requires an argument -- '${a[1]}'\nTry 'sort --help' for more information.\n`,
          2
        );
      if (a === '-k') key = parseInt(v, 10);
      else sep = v;
    } else if (/^-k\d/.test(a)) key = parseInt(a.slice(2), 10);
    else if (/^-t./.test(a)) sep = a.slice(2);
    else if (/^-[rnuhbf]+$/.test(a)) {
      if (a.includes('r')) reverse = true;
      if (a.includes('n') || a.includes('h')) numeric = true;
      if (a.includes('u')) unique = true;
    } else if (a.startsWith('-'))
      return fail(input, `sort: invalid option -- '${a[1]}'\nTry 'sort --help' for more information.\n`, 2);
    else return fail(input, `sort: cannot read: ${a}: No such file or directory\n`, 2);
  }
  const field = (l: string) => {
    if (key === undefined) return l;
    if (sep !== undefined)
      return l
        .split(sep)
        .slice(key - 1)
        .join(sep);
    // Without -t a field keeps the blanks before it (GNU sort without -b).
    return (l.match(/\s*\S+/g) ?? []).slice(key - 1).join('');
  };
  const cmp = (a: string, b: string) => {
    const fa = field(a);
    const fb = field(b);
    if (numeric) {
      const d = (parseFloat(fa) || 0) - (parseFloat(fb) || 0);
      if (d) return d;
    } else if (fa !== fb) return fa < fb ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  };
  let l = lines(input.stdout).sort(cmp);
  if (reverse) l.reverse();
  if (unique) l = l.filter((x, i) => i === 0 || cmp(l[i - 1], x) !== 0);
  return { ...input, stdout: join(l), exitCode: 0 };
}

/** uniq over the piped text: -c (counts as %7d), -d. */
function uniq(input: Result, args: string[]): Result {
  const counts = args.some((a) => /^-\w*c/.test(a));
  const dups = args.some((a) => /^-\w*d/.test(a));
  const bad = args.find((a) => a.startsWith('-') && !/^-[cd]+$/.test(a));
  if (bad)
    return fail(input, `uniq: invalid option -- '${bad[1]}'\nTry 'uniq --help' for more information.\n`, 1);
  const groups: [string, number][] = [];
  for (const l of lines(input.stdout)) {
    const g = groups[groups.length - 1];
    if (g && g[0] === l) g[1]++;
    else groups.push([l, 1]);
  }
  const kept = groups.filter(([, n]) => !dups || n > 1);
  return {
    ...input,
    stdout: join(kept.map(([l, n]) => (counts ? `${String(n).padStart(7)} ${l}` : l))),
    exitCode: 0
  };
}

/**
 * awk with the programs people pipe kubectl into: `[pattern] {print expr, …}` where a pattern is
 * /regex/, NR>N, NR==N or NR>=N and an expr is $N, $NF, $0, NR, NF or "text"; -F sets the separator.
 */
function awk(input: Result, args: string[]): Result {
  let sep: string | undefined;
  let program: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-F') sep = args[++i];
    else if (a.startsWith('-F')) sep = a.slice(2);
    else if (program === undefined) program = a;
    else return fail(input, `awk: cannot open "${a}" (No such file or directory)\n`, 2);
  }
  if (program === undefined)
    return fail(input, "usage: awk [-F value] [-v var=value] [--] 'program text' [file ...]\n", 2);
  const m =
    /^\s*(\/(?:[^/\\]|\\.)*\/|NR\s*(?:==|>=|<=|>|<|!=)\s*\d+)?\s*(?:\{\s*print\s*(.*?)\s*;?\s*\})?\s*$/.exec(
      program
    );
  if (!m || (m[1] === undefined && m[2] === undefined))
    return fail(input, `awk: line 1: syntax error at or near ${program.trim()[0] ?? 'end of file'}\n`, 2);
  const [, pattern, exprs] = m;
  const terms = exprs === undefined || exprs === '' ? ['$0'] : exprs.split(/\s*,\s*/);
  const out: string[] = [];
  lines(input.stdout).forEach((line, i) => {
    const nr = i + 1;
    if (pattern?.startsWith('/')) {
      if (!new RegExp(grepRegex(pattern.slice(1, -1), true)).test(line)) return;
    } else if (pattern) {
      const [, op, num] = /NR\s*(==|>=|<=|>|<|!=)\s*(\d+)/.exec(pattern)!;
      const n = parseInt(num, 10);
      const pass = { '==': nr === n, '>=': nr >= n, '<=': nr <= n, '>': nr > n, '<': nr < n, '!=': nr !== n }[
        op
      ];
      if (!pass) return;
    }
    const fields = sep !== undefined ? line.split(sep) : line.trim().split(/\s+/).filter(Boolean);
    const value = (t: string): string => {
      if (t === '$0') return line;
      if (t === 'NR') return String(nr);
      if (t === 'NF') return String(fields.length);
      if (t === '$NF') return fields[fields.length - 1] ?? '';
      const d = /^\$(\d+)$/.exec(t);
      if (d) return fields[parseInt(d[1], 10) - 1] ?? '';
      const s = /^"(.*)"$/.exec(t);
      if (s) return s[1];
      return '';
    };
    // Terms juxtaposed with spaces concatenate; commas join with a space.
    out.push(terms.map((t) => t.split(/\s+/).map(value).join('')).join(' '));
  });
  return { ...input, stdout: join(out), exitCode: 0 };
}

export function applyPipe(input: ConsoleResult, argv: string[]): ConsoleResult {
  const [cmd, ...args] = argv;
  switch (cmd) {
    case 'grep':
      return grep(input, args);
    case 'egrep':
      return grep(input, ['-E', ...args]);
    case 'head':
    case 'tail':
      return headTail(input, cmd, args);
    case 'wc':
      return wc(input, args);
    case 'sort':
      return sort(input, args);
    case 'uniq':
      return uniq(input, args);
    case 'awk':
      return awk(input, args);
    case 'cat':
    case 'less':
    case 'more':
      return { ...input, exitCode: 0 };
    default:
      return { stdout: '', stderr: `bash: ${cmd}: command not found\n`, exitCode: 127 };
  }
}
