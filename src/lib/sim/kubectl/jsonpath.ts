/**
 * The JSONPath subset kubectl supports in `-o jsonpath=`, `custom-columns` and `--sort-by`
 * (k8s.io/client-go/util/jsonpath): fields, [n], [*], [a:b], filters [?(@.x=="y")], `..field`,
 * `{range …}…{end}` and quoted literals. Several results of one expression are joined with a space.
 */
export class JsonPathError extends Error {}

type Step =
  | { t: 'field'; name: string }
  | { t: 'wild' }
  | { t: 'recursive'; name: string }
  | { t: 'index'; i: number }
  | { t: 'slice'; a?: number; b?: number }
  | { t: 'filter'; path: Step[]; op?: string; value?: string | number | boolean };

function parsePath(src: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  const s = src.trim();
  if (s.startsWith('$')) i = 1;
  if (s[i] === '@') i++;
  while (i < s.length) {
    if (s.startsWith('..', i)) {
      const m = /^[\w-]+/.exec(s.slice(i + 2));
      if (!m) throw new JsonPathError(`unrecognized identifier in ${src}`);
      steps.push({ t: 'recursive', name: m[0] });
      i += 2 + m[0].length;
    } else if (s[i] === '.') {
      if (s[i + 1] === '*') {
        steps.push({ t: 'wild' });
        i += 2;
        continue;
      }
      const m = /^[\w\-/]+/.exec(s.slice(i + 1));
      if (!m) {
        i++;
        continue;
      }
      steps.push({ t: 'field', name: m[0] });
      i += 1 + m[0].length;
    } else if (s[i] === '[') {
      const end = findClose(s, i);
      const inner = s.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') steps.push({ t: 'wild' });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ t: 'field', name: inner.slice(1, -1) });
      else if (/^-?\d+$/.test(inner)) steps.push({ t: 'index', i: parseInt(inner, 10) });
      else if (/^-?\d*:-?\d*$/.test(inner)) {
        const [a, b] = inner.split(':');
        steps.push({ t: 'slice', a: a ? parseInt(a, 10) : undefined, b: b ? parseInt(b, 10) : undefined });
      } else if (inner.startsWith('?(') && inner.endsWith(')')) {
        const body = inner.slice(2, -1).trim();
        const m = /^(@[^=!<>]*?)\s*(==|!=|<=|>=|<|>)\s*(.+)$/.exec(body);
        if (m) {
          const raw = m[3].trim();
          const value = /^'.*'$|^".*"$/.test(raw)
            ? raw.slice(1, -1)
            : raw === 'true' || raw === 'false'
              ? raw === 'true'
              : Number(raw);
          steps.push({ t: 'filter', path: parsePath(m[1]), op: m[2], value });
        } else steps.push({ t: 'filter', path: parsePath(body) });
      } else throw new JsonPathError(`invalid array index ${inner}`);
    } else {
      throw new JsonPathError(`unrecognized character in action: ${JSON.stringify(s[i])}`);
    }
  }
  return steps;
}

function findClose(s: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let j = open; j < s.length; j++) {
    const c = s[j];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return j;
  }
  throw new JsonPathError('unclosed array expect ]');
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') return Object.values(v);
  return [];
}

function evalSteps(values: unknown[], steps: Step[]): unknown[] {
  let cur = values;
  for (const st of steps) {
    const next: unknown[] = [];
    for (const v of cur) {
      switch (st.t) {
        case 'field':
          if (v && typeof v === 'object' && !Array.isArray(v) && st.name in (v as object)) {
            next.push((v as Record<string, unknown>)[st.name]);
          }
          break;
        case 'wild':
          next.push(...children(v));
          break;
        case 'recursive': {
          const walk = (x: unknown) => {
            if (x && typeof x === 'object') {
              if (!Array.isArray(x) && st.name in (x as object))
                next.push((x as Record<string, unknown>)[st.name]);
              children(x).forEach(walk);
            }
          };
          walk(v);
          break;
        }
        case 'index':
          if (Array.isArray(v)) {
            const idx = st.i < 0 ? v.length + st.i : st.i;
            if (idx < 0 || idx >= v.length)
              throw new JsonPathError(`array index out of bounds: index ${st.i}`);
            next.push(v[idx]);
          }
          break;
        case 'slice':
          if (Array.isArray(v)) next.push(...v.slice(st.a ?? 0, st.b ?? v.length));
          break;
        case 'filter':
          for (const item of children(v)) {
            const got = evalSteps([item], st.path);
            if (!st.op) {
              if (got.length) next.push(item);
              continue;
            }
            if (!got.length) continue;
            const x = got[0] as string | number | boolean;
            const y = st.value as string | number | boolean;
            const pass =
              st.op === '=='
                ? String(x) === String(y)
                : st.op === '!='
                  ? String(x) !== String(y)
                  : st.op === '<'
                    ? Number(x) < Number(y)
                    : st.op === '>'
                      ? Number(x) > Number(y)
                      : st.op === '<='
                        ? Number(x) <= Number(y)
                        : Number(x) >= Number(y);
            if (pass) next.push(item);
          }
          break;
      }
    }
    cur = next;
  }
  return cur;
}

/** Values an expression like `.status.conditions[?(@.type=="Ready")].status` selects. */
export function select(obj: unknown, path: string): unknown[] {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1);
  return evalSteps([obj], parsePath(p));
}

export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

type Node =
  { t: 'text'; s: string } | { t: 'expr'; path: string } | { t: 'range'; path: string; body: Node[] };

function unescape(s: string): string {
  return s.replace(/\\([ntr\\"'])/g, (_, c: string) =>
    c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c
  );
}

function parseTemplate(tpl: string): Node[] {
  const root: Node[] = [];
  const stack: Node[][] = [root];
  const pathStack: string[] = [];
  let i = 0;
  while (i < tpl.length) {
    const open = tpl.indexOf('{', i);
    if (open < 0) {
      stack[stack.length - 1].push({ t: 'text', s: tpl.slice(i) });
      break;
    }
    if (open > i) stack[stack.length - 1].push({ t: 'text', s: tpl.slice(i, open) });
    let close = open + 1;
    let quote = '';
    for (; close < tpl.length; close++) {
      const c = tpl[close];
      if (quote) {
        if (c === '\\') close++;
        else if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '}') break;
    }
    if (close >= tpl.length) throw new JsonPathError(`unclosed action`);
    const action = tpl.slice(open + 1, close).trim();
    i = close + 1;
    if (/^range\s/.test(action)) {
      const body: Node[] = [];
      pathStack.push(action.slice(6).trim());
      stack.push(body);
    } else if (action === 'end') {
      if (stack.length < 2) throw new JsonPathError('not in range, nothing to end');
      const body = stack.pop()!;
      stack[stack.length - 1].push({ t: 'range', path: pathStack.pop()!, body });
    } else if (/^".*"$|^'.*'$/s.test(action)) {
      stack[stack.length - 1].push({ t: 'text', s: unescape(action.slice(1, -1)) });
    } else {
      stack[stack.length - 1].push({ t: 'expr', path: action });
    }
  }
  if (stack.length > 1) throw new JsonPathError('unclosed range');
  return root;
}

function render(nodes: Node[], data: unknown): string {
  let out = '';
  for (const n of nodes) {
    if (n.t === 'text') out += n.s;
    else if (n.t === 'expr') out += select(data, n.path).map(formatValue).join(' ');
    else for (const item of select(data, n.path)) out += render(n.body, item);
  }
  return out;
}

/** Execute a kubectl JSONPath template against `data`. */
export function jsonpath(template: string, data: unknown): string {
  return render(parseTemplate(template), data);
}

/** kubectl's relaxed form: `.metadata.name` means `{.metadata.name}`. */
export function relaxed(expr: string): string {
  const e = expr.trim();
  if (e.startsWith('{')) return e;
  return `{${e.startsWith('.') || e.startsWith('[') ? e : '.' + e}}`;
}
