/**
 * GNU sed's `s` command, as the node shells run it: `sed [-i[SUFFIX]] [-E|-r] [-n] [-e] SCRIPT
 * FILE…` where SCRIPT is one or more `s/regex/replacement/flags` commands separated by `;` or
 * given as several `-e`. Any delimiter; flags `g`, `I`/`i`, a number N (the Nth match; with `g`,
 * the Nth and every later one) and `p`. Basic regular expressions by default (`\(…\)`, `\{m,n\}`,
 * `\+`, `\?`, `\|` as GNU extends them), extended ones with -E/-r; `&` and `\1`…`\9` in the
 * replacement. Errors are GNU sed's own (sed/compile.c, sed/execute.c).
 */

export interface SedCommand {
  re: RegExp;
  replacement: string;
  global: boolean;
  nth: number;
  print: boolean;
}

export interface SedProgram {
  commands: SedCommand[];
  inPlace: boolean;
  /** -i's backup suffix (`-i.bak`), '' for none. */
  suffix: string;
  quiet: boolean;
  files: string[];
}

export const SED_USAGE =
  'Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\n' +
  '  -n, --quiet, --silent\n                 suppress automatic printing of pattern space\n' +
  '  -e script, --expression=script\n                 add the script to the commands to be executed\n' +
  '  -i[SUFFIX], --in-place[=SUFFIX]\n                 edit files in place (makes backup if SUFFIX supplied)\n' +
  '  -E, -r, --regexp-extended\n                 use extended regular expressions in the script\n';

/** Parse sed's command line; a string is the error sed prints (exit 1). */
export function parseSed(args: string[]): SedProgram | string {
  const scripts: string[] = [];
  const operands: string[] = [];
  let inPlace = false;
  let suffix = '';
  let quiet = false;
  let extended = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a === '-e' || a === '--expression') {
      if (i + 1 >= args.length) return `sed: option requires an argument -- 'e'\n${SED_USAGE}`;
      scripts.push(args[++i]);
    } else if (a.startsWith('--expression=')) scripts.push(a.slice('--expression='.length));
    else if (a === '--in-place' || a.startsWith('--in-place=')) {
      inPlace = true;
      suffix = a.includes('=') ? a.slice(a.indexOf('=') + 1) : '';
    } else if (a === '--quiet' || a === '--silent') quiet = true;
    else if (a === '--regexp-extended') extended = true;
    else if (a.startsWith('--')) return `sed: unrecognized option '${a}'\n${SED_USAGE}`;
    else if (a.startsWith('-') && a.length > 1) {
      // Clustered short options: -ni, -Ei, -i.bak (the suffix takes the rest), -e SCRIPT.
      for (let j = 1; j < a.length; j++) {
        const c = a[j];
        if (c === 'i') {
          inPlace = true;
          suffix = a.slice(j + 1);
          break;
        }
        if (c === 'n') quiet = true;
        else if (c === 'E' || c === 'r') extended = true;
        else if (c === 's') continue;
        else if (c === 'e') {
          const rest = a.slice(j + 1);
          if (rest) scripts.push(rest);
          else if (i + 1 < args.length) scripts.push(args[++i]);
          else return `sed: option requires an argument -- 'e'\n${SED_USAGE}`;
          break;
        } else return `sed: invalid option -- '${c}'\n${SED_USAGE}`;
      }
    } else operands.push(a);
  }
  if (!scripts.length) {
    if (!operands.length) return SED_USAGE;
    scripts.push(operands.shift()!);
  }
  const commands: SedCommand[] = [];
  for (let n = 0; n < scripts.length; n++) {
    const parsed = compileScript(scripts[n], n + 1, extended);
    if (typeof parsed === 'string') return parsed;
    commands.push(...parsed);
  }
  if (inPlace && !operands.length) return 'sed: no input files\n';
  return { commands, inPlace, suffix, quiet, files: operands };
}

function compileScript(script: string, expr: number, extended: boolean): SedCommand[] | string {
  const error = (char: number, msg: string) => `sed: -e expression #${expr}, char ${char}: ${msg}\n`;
  const out: SedCommand[] = [];
  let i = 0;
  const skipBlanks = () => {
    while (i < script.length && /[\s;]/.test(script[i])) i++;
  };
  skipBlanks();
  while (i < script.length) {
    const cmd = script[i];
    if (cmd !== 's') return error(i + 1, `unknown command: \`${cmd}'`);
    const delim = script[i + 1];
    if (delim === undefined || delim === '\n' || delim === '\\')
      return error(i + 2, "unterminated `s' command");
    i += 2;
    const part = (): string | undefined => {
      let s = '';
      while (i < script.length) {
        const c = script[i];
        if (c === '\\' && i + 1 < script.length) {
          // An escaped delimiter is the delimiter itself; other escapes stay for the regex.
          s += script[i + 1] === delim ? delim : c + script[i + 1];
          i += 2;
          continue;
        }
        if (c === delim) {
          i++;
          return s;
        }
        s += c;
        i++;
      }
      return undefined;
    };
    const pattern = part();
    const replacement = pattern === undefined ? undefined : part();
    if (pattern === undefined || replacement === undefined)
      return error(script.length, "unterminated `s' command");
    let global = false;
    let icase = false;
    let print = false;
    let nth = 0;
    while (i < script.length && !/[\s;]/.test(script[i])) {
      const f = script[i];
      if (f === 'g') {
        if (global) return error(i + 1, "multiple `g' options to `s' command");
        global = true;
      } else if (f === 'I' || f === 'i') icase = true;
      else if (f === 'p') {
        if (print) return error(i + 1, "multiple `p' options to `s' command");
        print = true;
      } else if (/\d/.test(f)) {
        if (nth) return error(i + 1, "multiple number options to `s' command");
        let num = '';
        while (i < script.length && /\d/.test(script[i])) num += script[i++];
        if (Number(num) === 0) return error(i, "number option to `s' command may not be zero");
        nth = Number(num);
        continue;
      } else return error(i + 1, "unknown option to `s'");
      i++;
    }
    if (pattern === '') return error(i, 'no previous regular expression');
    let re: RegExp;
    try {
      re = new RegExp(extended ? pattern : basicToJs(pattern), icase ? 'gi' : 'g');
    } catch {
      return error(i, 'Invalid preceding regular expression');
    }
    out.push({ re, replacement, global, nth: nth || 1, print });
    skipBlanks();
  }
  return out;
}

/** A POSIX basic regular expression (with GNU's `\+ \? \|`) as a JavaScript one. */
function basicToJs(bre: string): string {
  let s = '';
  for (let i = 0; i < bre.length; i++) {
    const c = bre[i];
    if (c === '\\' && i + 1 < bre.length) {
      const n = bre[++i];
      s += '(){}+?|'.includes(n) ? n : `\\${n}`;
    } else if ('(){}+?|'.includes(c)) s += `\\${c}`;
    else s += c;
  }
  return s;
}

/** The replacement for one match: `&` the match, `\1`…`\9` its groups, `\n` a newline. */
function expand(replacement: string, m: RegExpExecArray): string {
  let s = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i];
    if (c === '&') s += m[0];
    else if (c === '\\' && i + 1 < replacement.length) {
      const n = replacement[++i];
      if (/\d/.test(n)) s += m[Number(n)] ?? '';
      else if (n === 'n') s += '\n';
      else if (n === 't') s += '\t';
      else s += n;
    } else s += c;
  }
  return s;
}

/**
 * Run the program over `text` line by line, returning what sed writes: to stdout, or with -i into
 * the file (a `p` flag's line too, before the automatic print that -n suppresses).
 */
export function runSed(program: SedProgram, text: string): string {
  const trailing = text.endsWith('\n');
  const lines = text === '' ? [] : (trailing ? text.slice(0, -1) : text).split('\n');
  let out = '';
  lines.forEach((line, n) => {
    let cur = line;
    for (const c of program.commands) {
      let count = 0;
      let done = false;
      let result = '';
      let last = 0;
      c.re.lastIndex = 0;
      for (let m = c.re.exec(cur); m; m = c.re.exec(cur)) {
        count++;
        if (count >= c.nth && (c.global || count === c.nth)) {
          result += cur.slice(last, m.index) + expand(c.replacement, m);
          last = m.index + m[0].length;
          done = true;
          if (!c.global) break;
        }
        if (m[0] === '') c.re.lastIndex++;
      }
      if (done) {
        cur = result + cur.slice(last);
        if (c.print) out += cur + '\n';
      }
    }
    // The last line keeps its missing newline, as GNU sed does.
    if (!program.quiet) out += cur + (n < lines.length - 1 || trailing ? '\n' : '');
  });
  return out;
}
