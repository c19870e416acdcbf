/**
 * CSV for the class view's export: RFC 4180 (comma separated, CRLF line ends, a field quoted with
 * `"` when it holds a comma, a quote or a line break, quotes doubled inside), one header row.
 * A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula, so such a text
 * cell gets a leading apostrophe (OWASP's advice against CSV injection; tab and carriage return
 * as first character too). Numbers are written as numbers and never start with one of them here.
 */
export type Cell = string | number | boolean | null;

const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  const text = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: Cell[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
