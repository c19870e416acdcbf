/**
 * The headless Nodeplane command line: `nodeplane run|validate|schedule|lessons check|help`.
 * Run with `npm run sim -- <command>` or the `nodeplane` bin.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { runLessonsCheck } from './lessons';
import { runCommand, validateCommand, type Output } from './run';
import { runSchedule } from './schedule';

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

export async function main(argv: string[], out: Output): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run':
      return runCommand(rest, out);
    case 'validate':
      return validateCommand(rest, out);
    case 'schedule':
      return runSchedule(rest, out);
    case 'lessons': {
      if (rest[0] !== 'check') {
        out.stderr('error: unknown lessons command; use: nodeplane lessons check [path]\n');
        return 1;
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
