/**
 * A plain hint for a YAML syntax error in the editor: the parser's own message and the line it
 * points at. An empty buffer is not an error.
 */
import { parseAllDocuments } from 'yaml';

export interface SyntaxHint {
  line: number;
  message: string;
  /** The error is about where a line starts (mappings, sequences, columns). */
  indentation: boolean;
  /** i18n key (under `lab.editor.yaml`) of a plain explanation, when the message is a known one. */
  plain?: string;
}

/** The parser's messages learners meet most, each with a plain explanation. */
const PLAIN: [RegExp, string][] = [
  [/^Nested mappings are not allowed in compact mappings/, 'nestedMapping'],
  [/^All mapping items must start at the same column/, 'sameColumn'],
  [/^All sequence items must start at the same column/, 'sameColumn'],
  [/^Tabs are not allowed as indentation/, 'tabs'],
  [/^Map keys must be unique/, 'uniqueKeys'],
  [/^Implicit map keys need to be followed by map values/, 'missingColon'],
  [/^Missing closing .?quote/, 'quote']
];

const INDENTATION = /indent|column|nested mappings|compact mapping|mapping values|block sequence|tabs/i;

export function syntaxHint(text: string): SyntaxHint | undefined {
  if (!text.trim()) return undefined;
  const docs = parseAllDocuments(text, { prettyErrors: true, uniqueKeys: true });
  const list = Array.isArray(docs) ? docs : [docs];
  for (const doc of list) {
    const e = doc.errors[0];
    if (!e) continue;
    const message = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    const plain = PLAIN.find(([re]) => re.test(message))?.[1];
    return {
      line: e.linePos?.[0]?.line ?? 1,
      message,
      indentation: INDENTATION.test(message),
      ...(plain ? { plain } : {})
    };
  }
  return undefined;
}
