/**
 * Go's text/tabwriter (elastic tabstops) with the cli-runtime RememberWidths extension.
 * Cells are tab-terminated; the text after a line's last tab is not part of any column. A column
 * block is a run of consecutive lines that all have a cell in that column, and its width is
 * max(minwidth, widest cell + padding). Pad character is always a space here.
 *
 * Writers used by the tools we mirror:
 *   kubectl get      minwidth 6, tabwidth 4, padding 3, RememberWidths (cli-runtime printers)
 *   kubectl describe minwidth 0, tabwidth 8, padding 2 (describe.go tabbedString)
 *   crictl           minwidth 20, tabwidth 1, padding 3 (display.go newDefaultTableDisplay)
 */
export interface TabWriterOptions {
  minwidth: number;
  padding: number;
  /** Keep the widest width seen per column across flushes (kubectl watch output, T4). */
  rememberWidths?: boolean;
}

export const GET_TABLE: TabWriterOptions = { minwidth: 6, padding: 3, rememberWidths: true };
export const DESCRIBE: TabWriterOptions = { minwidth: 0, padding: 2 };
export const CRICTL: TabWriterOptions = { minwidth: 20, padding: 3 };

const width = (s: string): number => [...s].length;

export class TabWriter {
  private buf = '';
  private out = '';
  private widths: number[] = [];
  /** Remembered widths per column index (RememberWidths). */
  private maxWidths: number[] = [];

  constructor(private readonly opts: TabWriterOptions) {}

  write(text: string): this {
    this.buf += text;
    return this;
  }

  /** Format everything written so far; later text aligns independently (except remembered widths). */
  flush(): this {
    if (this.buf) {
      const lines = this.buf.split('\n');
      const endsWithNewline = lines[lines.length - 1] === '';
      if (endsWithNewline) lines.pop();
      const cells = lines.map((l) => l.split('\t'));
      this.widths = [];
      this.out += this.format(cells, 0, cells.length, endsWithNewline);
      this.buf = '';
    }
    return this;
  }

  /** Flush and return all formatted output, then start over (remembered widths are kept). */
  take(): string {
    this.flush();
    const s = this.out;
    this.out = '';
    return s;
  }

  toString(): string {
    return this.take();
  }

  private format(lines: string[][], line0: number, line1: number, endsWithNewline: boolean): string {
    let out = '';
    const column = this.widths.length;
    for (let cur = line0; cur < line1; cur++) {
      if (column >= lines[cur].length - 1) continue;
      out += this.writeLines(lines, line0, cur, endsWithNewline);
      line0 = cur;
      let w = this.opts.minwidth;
      for (; cur < line1; cur++) {
        const line = lines[cur];
        if (column >= line.length - 1) break;
        const cw = width(line[column]) + this.opts.padding;
        if (cw > w) w = cw;
      }
      if (this.opts.rememberWidths) {
        if (column < this.maxWidths.length && this.maxWidths[column] > w) w = this.maxWidths[column];
        else this.maxWidths[column] = w;
      }
      this.widths.push(w);
      out += this.format(lines, line0, cur, endsWithNewline);
      this.widths.pop();
      line0 = cur;
      cur--;
    }
    return out + this.writeLines(lines, line0, line1, endsWithNewline);
  }

  private writeLines(lines: string[][], line0: number, line1: number, endsWithNewline: boolean): string {
    let out = '';
    for (let i = line0; i < line1; i++) {
      const line = lines[i];
      line.forEach((cell, j) => {
        out += cell;
        if (j < this.widths.length) out += ' '.repeat(Math.max(0, this.widths[j] - width(cell)));
      });
      if (i + 1 < lines.length || endsWithNewline) out += '\n';
    }
    return out;
  }
}

/** Lay out tab-separated text in one go. */
export function tabbed(text: string, opts: TabWriterOptions): string {
  return new TabWriter(opts).write(text).take();
}
