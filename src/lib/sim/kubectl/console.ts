/**
 * The console: a kubectl-like command line plus `ssh <node>` into a node shell.
 * This file defines the contract the UI and the CLI use; the kubectl module implements it.
 */
import type { Cluster } from '../cluster';

export interface ConsoleAction {
  /** `kubectl edit` opens the object in the editor; `clear` clears the screen. */
  type: 'edit' | 'clear';
  yaml?: string;
}

export interface WatchHandle {
  /** New output since the last poll (call after the clock advances). */
  poll(): string;
  stop(): void;
}

export interface ConsoleResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  watch?: WatchHandle;
  action?: ConsoleAction;
}

export interface ConsoleOptions {
  /** Named files `kubectl apply -f <name>` can read (lesson files, the editor buffer as "-"). */
  files?: Record<string, string>;
  /** Text of the editor buffer, for `kubectl apply -f -` style use from the UI. */
  editorBuffer?: () => string | undefined;
  /** Lessons can disable commands: return a message to refuse `argv`, or undefined to allow. */
  disabled?: (argv: string[]) => string | undefined;
}

export class ConsoleSession {
  history: string[] = [];
  constructor(
    readonly cluster: Cluster,
    readonly options: ConsoleOptions = {}
  ) {}

  get prompt(): string {
    return '$ ';
  }

  exec(line: string): ConsoleResult {
    this.history.push(line);
    const cmd = line.trim().split(/\s+/)[0] ?? '';
    return { stdout: '', stderr: `bash: ${cmd}: command not found\n`, exitCode: 127 };
  }

  complete(_line: string): string[] {
    return [];
  }
}
