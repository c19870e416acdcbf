/**
 * How deeply a YAML text nests, found by one linear scan before the parser sees it. The parser
 * recurses once per level, so a document nested thousands of levels deep would end in a stack
 * overflow; scanning first turns that into one line naming the place.
 *
 * go-yaml (which kubectl and kube-apiserver use through sigs.k8s.io/yaml) stops at a fixed depth
 * with `yaml: exceeded max depth of 10000`; a JavaScript stack holds fewer levels, so the limit
 * here is lower and still far beyond any real manifest (a Deployment nests about 10 levels).
 */
export const MAX_YAML_DEPTH = 256;

/**
 * kube-apiserver refuses a request body over 3 MiB (`MaxRequestBodyBytes`,
 * staging/src/k8s.io/apiserver/pkg/server/config.go) with `Request entity too large: limit is
 * 3145728`. Nodeplane applies a file's objects in one go, so the limit holds for the whole file;
 * it also keeps the YAML parser, which takes seconds over 10 MB, from stalling the lab.
 */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

/** The API server's message for a text over MAX_REQUEST_BYTES (UTF-16 length as a lower bound), else null. */
export function tooLarge(text: string): string | null {
  if (text.length <= MAX_REQUEST_BYTES) return null;
  const mib = (text.length / 1024 / 1024).toFixed(1);
  return `Request entity too large: limit is ${MAX_REQUEST_BYTES} (the file is ${mib} MiB)`;
}

export interface DepthExceeded {
  line: number;
  column: number;
  message: string;
}

/**
 * The first place where `text` nests deeper than `limit` levels, counting flow collections
 * (`[`, `{`), block sequence and mapping indentation and compact `- - -` entries. Quoted scalars,
 * comments and block scalars (`|`, `>`) are skipped. Returns null when the text stays within it.
 */
export function findExcessiveNesting(text: string, limit = MAX_YAML_DEPTH): DepthExceeded | null {
  const indents: number[] = [];
  let flow = 0;
  let line = 1;
  let i = 0;
  const n = text.length;
  // While > -1, lines more indented than this belong to a block scalar.
  let blockScalarIndent = -1;
  const exceeded = (column: number): DepthExceeded => ({
    line,
    column,
    message: `exceeded max depth of ${limit}`
  });
  while (i < n) {
    // Start of a line.
    const lineStart = i;
    let indent = 0;
    while (i < n && text[i] === ' ') {
      indent++;
      i++;
    }
    const atEnd = i >= n || text[i] === '\n' || text[i] === '\r' || (flow === 0 && text[i] === '#');
    if (blockScalarIndent >= 0) {
      if (atEnd || indent > blockScalarIndent) {
        while (i < n && text[i] !== '\n') i++;
        i++;
        line++;
        continue;
      }
      blockScalarIndent = -1;
    }
    if (!atEnd && flow === 0) {
      if (text.startsWith('---', i) || text.startsWith('...', i)) {
        if (indent === 0) indents.length = 0;
      }
      while (indents.length && indents[indents.length - 1] >= indent) indents.pop();
      indents.push(indent);
      if (indents.length > limit) return exceeded(i - lineStart + 1);
    }
    let compact = 0;
    let sawContent = false;
    while (i < n && text[i] !== '\n') {
      const c = text[i];
      if (c === '"' || c === "'") {
        // A quoted scalar, possibly over several lines; '' escapes a single quote.
        i++;
        while (i < n) {
          if (c === '"' && text[i] === '\\') {
            i += 2;
            continue;
          }
          if (text[i] === c) {
            if (c === "'" && text[i + 1] === "'") {
              i += 2;
              continue;
            }
            break;
          }
          if (text[i] === '\n') line++;
          i++;
        }
        i++;
        sawContent = true;
        continue;
      }
      if (c === '#' && (i === lineStart || text[i - 1] === ' ' || text[i - 1] === '\t')) {
        while (i < n && text[i] !== '\n') i++;
        break;
      }
      if (c === '[' || c === '{') {
        flow++;
        if (indents.length + compact + flow > limit) return exceeded(i - lineStart + 1);
      } else if ((c === ']' || c === '}') && flow > 0) {
        flow--;
      } else if (
        flow === 0 &&
        c === '-' &&
        !sawContent &&
        (i + 1 >= n || text[i + 1] === ' ' || text[i + 1] === '\n')
      ) {
        // `- - - x`: every dash on the same line opens one more sequence.
        compact++;
        if (indents.length + compact > limit) return exceeded(i - lineStart + 1);
        i++;
        while (i < n && text[i] === ' ') i++;
        continue;
      }
      if (c !== ' ' && c !== '\t' && c !== '\r' && c !== '-') sawContent = true;
      i++;
    }
    // `key: |` or `key: >-` starts a block scalar on the following lines.
    if (flow === 0) {
      const tail = text
        .slice(lineStart, i)
        .replace(/\s+#.*$/, '')
        .trimEnd();
      if (/(^|[\s:-])[|>][0-9+-]*$/.test(tail)) blockScalarIndent = indent;
    }
    i++;
    line++;
  }
  return null;
}
