/**
 * `nodeplane run --replay <file>`: replay a lab's bug report (or a lab file) headless, the way the
 * lab did: the scenario, its seed, the learner's actions at their times, up to the moment saved.
 * A bug report reproduces when the simulator throws the same error again.
 */
import { readFileSync } from 'node:fs';
import { formatClock } from '../src/lib/sim/engine/duration';
import type { BugReport, LabRecording } from '../src/lib/sim/session/protocol';
import { replayRecording } from '../src/lib/sim/session/host';
import { parseRecording, RECORDING_FORMAT } from '../src/lib/ui/lab/share';

export interface Output {
  stdout(s: string): void;
  stderr(s: string): void;
}

const BUG_REPORT_FORMAT = 'nodeplane.dev/bug-report/v1';

/** The recording inside `text`, and the bug report's error if it is one. Throws with the field named. */
export function readReplay(text: string, file: string): { recording: LabRecording; report?: BugReport } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  const v = value as Record<string, unknown> | null;
  try {
    if (v && typeof v === 'object' && v.format === BUG_REPORT_FORMAT) {
      const err = v.error as { message?: unknown } | undefined;
      if (!err || typeof err.message !== 'string') throw new Error('error.message: expected a string');
      const recording = parseRecording({ format: RECORDING_FORMAT, ...(v.recording as object) });
      return { recording, report: v as unknown as BugReport };
    }
    return { recording: parseRecording(v) };
  } catch (e) {
    throw new Error(
      `${file}: ${(e as Error).message} (expected a bug report, format ${BUG_REPORT_FORMAT}, or a lab file)`,
      { cause: e }
    );
  }
}

export function replayCommand(file: string, out: Output): number {
  let input: ReturnType<typeof readReplay>;
  try {
    input = readReplay(readFileSync(file, 'utf8'), file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    out.stderr(`error: ${code ? `cannot read ${file}: ${code}` : (e as Error).message}\n`);
    return 1;
  }
  const { recording, report } = input;
  const to = formatClock(recording.t);
  const n = recording.actions.length;
  try {
    const lab = replayRecording(recording);
    out.stdout(`replayed ${recording.fileName} with ${n} action(s) to ${to}: no error\n`);
    if (report) out.stdout(`the bug report's error did not happen: ${report.error.message}\n`);
    void lab;
    return 0;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const same = report
      ? message === report.error.message
        ? ' (the same error as the bug report)'
        : ` (the bug report had: ${report.error.message})`
      : '';
    out.stderr(
      `error: the simulation threw replaying ${recording.fileName} with ${n} action(s) to ${to}: ${message}${same}\n`
    );
    return 1;
  }
}
