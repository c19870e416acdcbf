/** The few pipe filters the console understands: grep, head, tail, wc -l. */
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

function count(argv: string[], def: number): number {
  const i = argv.findIndex((a) => a === '-n');
  if (i >= 0) return parseInt(argv[i + 1] ?? String(def), 10);
  const short = argv.find((a) => /^-\d+$/.test(a));
  return short ? parseInt(short.slice(1), 10) : def;
}

export function applyPipe(input: ConsoleResult, argv: string[]): ConsoleResult {
  const [cmd, ...args] = argv;
  const text = input.stdout;
  const out = (stdout: string, exitCode = 0): ConsoleResult => ({ ...input, stdout, exitCode });
  switch (cmd) {
    case 'grep': {
      const flags = args.filter((a) => a.startsWith('-')).join('');
      const pattern = args.find((a) => !a.startsWith('-')) ?? '';
      let re: RegExp;
      try {
        re = new RegExp(pattern, flags.includes('i') ? 'i' : '');
      } catch {
        re = new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags.includes('i') ? 'i' : '');
      }
      const kept = lines(text).filter((l) => re.test(l) !== flags.includes('v'));
      return out(join(kept), kept.length ? 0 : 1);
    }
    case 'head':
      return out(join(lines(text).slice(0, count(args, 10))));
    case 'tail': {
      const l = lines(text);
      return out(join(l.slice(Math.max(0, l.length - count(args, 10)))));
    }
    case 'wc':
      return out(`${lines(text).length}\n`);
    default:
      return { stdout: '', stderr: `bash: ${cmd}: command not found\n`, exitCode: 127 };
  }
}
