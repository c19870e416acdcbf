/** Command-line splitting (as a POSIX shell quotes) and kubectl-style flag parsing. */

export class ParseError extends Error {}

/**
 * Split a line into words: whitespace separates, '…' is literal, "…" allows \" and \\, \x escapes x,
 * and a word starting with # begins a comment.
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new ParseError("unexpected EOF while looking for matching `''");
      cur += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && (line[j + 1] === '"' || line[j + 1] === '\\')) j++;
        cur += line[j];
      }
      if (j >= line.length) throw new ParseError('unexpected EOF while looking for matching `"\'');
      i = j;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (ch === '#' && !inWord) {
      // A comment runs to the end of the line (`sudo mv … /root/  # on etcd-0's host`).
      break;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

export interface FlagSpec {
  /** Long name without dashes. */
  name: string;
  short?: string;
  /** Takes a value (`--name value`, `--name=value`, `-xvalue`). */
  value?: boolean;
  /** May be given several times; values accumulate. */
  repeat?: boolean;
}

export interface ParsedArgs {
  positional: string[];
  flags: Record<string, string | boolean | string[]>;
}

/**
 * kubectl's persistent (root) flags, accepted before the verb and by every verb
 * (k8s.io/cli-runtime genericclioptions.ConfigFlags, plus klog's -v). They are accepted and have
 * no effect beyond `-n`: the lab has one cluster, one context and no authentication.
 */
export const ROOT_FLAGS: FlagSpec[] = [
  { name: 'namespace', short: 'n', value: true },
  { name: 'context', value: true },
  { name: 'kubeconfig', value: true },
  { name: 'cluster', value: true },
  { name: 'user', value: true },
  { name: 'server', short: 's', value: true },
  { name: 'token', value: true },
  { name: 'as', value: true },
  { name: 'as-group', value: true, repeat: true },
  { name: 'as-uid', value: true },
  { name: 'username', value: true },
  { name: 'password', value: true },
  { name: 'certificate-authority', value: true },
  { name: 'client-certificate', value: true },
  { name: 'client-key', value: true },
  { name: 'tls-server-name', value: true },
  { name: 'insecure-skip-tls-verify' },
  { name: 'cache-dir', value: true },
  { name: 'request-timeout', value: true },
  { name: 'match-server-version' },
  { name: 'disable-compression' },
  { name: 'warnings-as-errors' },
  { name: 'profile', value: true },
  { name: 'profile-output', value: true },
  { name: 'log-flush-frequency', value: true },
  { name: 'v', short: 'v', value: true },
  { name: 'vmodule', value: true }
];

/** Flags every kubectl verb accepts here: the root flags and the common listing flags. */
export const GLOBAL_FLAGS: FlagSpec[] = [
  ...ROOT_FLAGS,
  { name: 'all-namespaces', short: 'A' },
  { name: 'selector', short: 'l', value: true },
  { name: 'field-selector', value: true },
  { name: 'output', short: 'o', value: true }
];

/**
 * Where the verb is in `kubectl <args>`, as cobra finds the subcommand (command.go stripFlags):
 * words starting with `-` are flags; a flag without `=` that is not a boolean root flag takes the
 * next word as its value, so `kubectl -n kube-system get ds` finds `get`, and a flag the root does
 * not know (`kubectl -A get pods`) swallows the next word as well. Returns -1 if there is no verb.
 */
export function findVerb(argv: string[]): number {
  const byLong = new Map(ROOT_FLAGS.map((s) => [s.name, s]));
  const byShort = new Map(ROOT_FLAGS.filter((s) => s.short).map((s) => [s.short!, s]));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return i + 1 < argv.length ? i + 1 : -1;
    if (a.startsWith('--') && !a.includes('=')) {
      const spec = byLong.get(a.slice(2));
      if (!spec || spec.value) i++;
    } else if (a.startsWith('-') && !a.includes('=') && a.length === 2) {
      const spec = byShort.get(a[1]);
      if (!spec || spec.value) i++;
    } else if (a !== '' && !a.startsWith('-')) return i;
  }
  return -1;
}

/** Parse `argv` with the verb's `specs` and the global flags (`only`: with `specs` alone). */
export function parseFlags(argv: string[], specs: FlagSpec[], only = false): ParsedArgs {
  const all = only ? specs : [...GLOBAL_FLAGS, ...specs];
  const byLong = new Map(all.map((s) => [s.name, s]));
  const byShort = new Map(all.filter((s) => s.short).map((s) => [s.short!, s]));
  const out: ParsedArgs = { positional: [], flags: {} };
  const set = (spec: FlagSpec, v: string | boolean) => {
    if (spec.repeat) {
      const prev = out.flags[spec.name];
      out.flags[spec.name] = [...(Array.isArray(prev) ? prev : []), String(v)];
    } else out.flags[spec.name] = v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.positional.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      const spec = byLong.get(name);
      if (!spec) throw new ParseError(`unknown flag: --${name}`);
      if (spec.value) {
        if (eq > 0) set(spec, a.slice(eq + 1));
        else if (i + 1 < argv.length) set(spec, argv[++i]);
        else throw new ParseError(`flag needs an argument: --${name}`);
      } else set(spec, eq > 0 ? a.slice(eq + 1) !== 'false' : true);
    } else if (a.startsWith('-') && a.length > 1 && !/^-\d/.test(a)) {
      const spec = byShort.get(a[1]);
      if (!spec) throw new ParseError(`unknown shorthand flag: '${a[1]}' in ${a}`);
      if (spec.value) {
        let v = a.slice(2);
        if (v.startsWith('=')) v = v.slice(1);
        if (v) set(spec, v);
        else if (i + 1 < argv.length) set(spec, argv[++i]);
        else throw new ParseError(`flag needs an argument: '${a[1]}' in ${a}`);
      } else {
        set(spec, true);
        // Combined booleans: -aA
        for (const ch of a.slice(2)) {
          const s2 = byShort.get(ch);
          if (!s2 || s2.value) throw new ParseError(`unknown shorthand flag: '${ch}' in ${a}`);
          set(s2, true);
        }
      }
    } else out.positional.push(a);
  }
  return out;
}

export function str(p: ParsedArgs, name: string): string | undefined {
  const v = p.flags[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v[v.length - 1] : undefined;
}

export function bool(p: ParsedArgs, name: string): boolean {
  return p.flags[name] === true;
}

export function list(p: ParsedArgs, name: string): string[] {
  const v = p.flags[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}
