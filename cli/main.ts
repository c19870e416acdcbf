/**
 * The headless Nodeplane command line: `nodeplane run|validate|schedule|lessons check|help`.
 * Run with `npm run sim -- <command>` or the `nodeplane` bin.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { runCommand, validateCommand, type Output } from './run';

export const HELP = `Nodeplane: a Kubernetes v1.35 worker node and kubelet simulator.

Usage:
  nodeplane run <scenario.yaml> [--until <duration>] [--output text|json] [--exec "<command>"]...
      Run a scenario to a virtual time (default: its spec.duration, else 10m) and print the
      event timeline. --exec runs a console command (kubectl ..., ssh <node> ...) afterwards.
  nodeplane run --replay <bug-report.json>
      Replay a lab's bug report (or lab file): its scenario, seed and actions, to the moment saved.
      Exit 1 if the simulation throws again.
  nodeplane validate <scenario.yaml>
      Check a scenario file (YAML, fields, quantities, faults, objects) without running it.
  nodeplane schedule ...
      Run the kube-scheduler on nodes and pods from YAML (see nodeplane schedule --help).
  nodeplane lessons check [path]
      Replay every lesson's reference solution and check it passes.
  nodeplane help
      Show this help.

Exit codes: 0 success, 1 usage or runtime error, 2 scenario rejected (problems on stderr).
`;

type Runner = (argv: string[], out: Output) => number | Promise<number>;

async function optional(module: string, exportName: string): Promise<Runner | undefined> {
  try {
    const m = (await import(module)) as Record<string, unknown>;
    return typeof m[exportName] === 'function' ? (m[exportName] as Runner) : undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return undefined;
    throw e;
  }
}

export async function main(argv: string[], out: Output): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run':
      return runCommand(rest, out);
    case 'validate':
      return validateCommand(rest, out);
    case 'schedule': {
      const runSchedule = await optional('./schedule.ts', 'runSchedule');
      if (!runSchedule) {
        out.stderr('error: nodeplane schedule is not available in this build (cli/schedule.ts is missing)\n');
        return 1;
      }
      return runSchedule(rest, out);
    }
    case 'lessons': {
      if (rest[0] !== 'check') {
        out.stderr('error: unknown lessons command; use: nodeplane lessons check [path]\n');
        return 1;
      }
      const runLessonsCheck = await optional('./lessons.ts', 'runLessonsCheck');
      if (!runLessonsCheck) {
        out.stdout('No lessons exist yet: nothing to check.\n');
        return 0;
      }
      return runLessonsCheck(rest.slice(1), out);
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      out.stdout(HELP);
      return 0;
    default:
      out.stderr(`error: unknown command "${command}"\n\n${HELP}`);
      return 1;
  }
}

const stdio: Output = {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s)
};

function isEntryPoint(): boolean {
  if (!process.argv[1]) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

export async function cli(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), stdio);
}

if (isEntryPoint()) await cli();
