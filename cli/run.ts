/**
 * `nodeplane run` and `nodeplane validate`: load a scenario, run it headless to a virtual time,
 * print the event timeline (text like `kubectl get events`, or JSON), and run console commands
 * against the final state.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { resourceForKind } from '../src/lib/sim/api/resources';
import type { KubeObject } from '../src/lib/sim/api/types';
import type { Cluster } from '../src/lib/sim/cluster';
import { formatClock, parseDuration } from '../src/lib/sim/engine/duration';
import { ConsoleSession } from '../src/lib/sim/kubectl/console';
import { createCluster, loadScenario, scenarioFaultFailures, ScenarioError } from '../src/lib/sim/scenario';
import { replayCommand } from './replay';

export interface Output {
  stdout(s: string): void;
  stderr(s: string): void;
}

export interface RunEvent {
  /** Virtual seconds. */
  t: number;
  type: 'Normal' | 'Warning';
  reason: string;
  object: string;
  message: string;
  source: string;
}

export interface RunResult {
  scenario: string;
  /** Virtual seconds the run lasted. */
  until: number;
  events: RunEvent[];
  faults: { t: number; action: string; target?: string }[];
  objects: KubeObject[];
  exec: { command: string; output: string; exitCode: number }[];
}

interface RunArgs {
  file: string;
  until?: number;
  output: 'text' | 'json';
  exec: string[];
}

export class UsageError extends Error {}

function parseRunArgs(argv: string[]): RunArgs {
  const args: RunArgs = { file: '', output: 'text', exec: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] =
      a.startsWith('--') && a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`flag needs an argument: ${flag}`);
      return v;
    };
    if (flag === '--until') {
      try {
        args.until = parseDuration(value());
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
    } else if (flag === '--output' || flag === '-o') {
      const v = value();
      if (v !== 'text' && v !== 'json') throw new UsageError(`--output must be text or json, not "${v}"`);
      args.output = v;
    } else if (flag === '--exec') args.exec.push(value());
    else if (flag.startsWith('-')) throw new UsageError(`unknown flag: ${flag}`);
    else if (!args.file) args.file = a;
    else throw new UsageError(`unexpected argument: ${a}`);
  }
  if (!args.file) throw new UsageError('run needs a scenario file: nodeplane run <scenario.yaml>');
  return args;
}

function readScenario(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function finalObjects(cluster: Cluster): KubeObject[] {
  return cluster.api
    .snapshot()
    .objects.filter((o) => o.kind !== 'Event')
    .sort((a, b) => {
      const ka = `${a.kind}\u0000${a.metadata.namespace ?? ''}\u0000${a.metadata.name}`;
      const kb = `${b.kind}\u0000${b.metadata.namespace ?? ''}\u0000${b.metadata.name}`;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
}

/** Run a scenario and collect the result (no printing). Throws ScenarioError for a rejected file. */
export function runScenario(
  text: string,
  fileName: string,
  opts: { until?: number; exec?: string[] } = {},
  out?: Output
): RunResult {
  const { cluster, scenario, missing } = createCluster(text, { fileName, missingComponents: 'skip' });
  for (const kind of missing) {
    out?.stderr(`warning: component kind "${kind}" is not registered; the run has no ${kind}\n`);
  }
  const until = opts.until ?? scenario.duration;
  cluster.runUntil(until);
  for (const f of scenarioFaultFailures(cluster)) {
    out?.stderr(
      `warning: fault ${f.action}${f.target ? ` ${f.target}` : ''} at ${formatClock(f.t)} failed: ${f.error}\n`
    );
  }
  const events: RunEvent[] = cluster.eventLog
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.t - b.e.t || a.i - b.i)
    .map(({ e }) => ({
      t: e.t / 1000,
      type: e.type,
      reason: e.reason,
      object: e.object,
      message: e.message,
      source: e.source
    }));
  const session = new ConsoleSession(cluster);
  const exec = (opts.exec ?? []).map((command) => {
    const r = session.exec(command);
    return { command, output: r.stdout + r.stderr, exitCode: r.exitCode };
  });
  return {
    scenario: scenario.name,
    until: until / 1000,
    events,
    faults: cluster.faultLog.map((f) => ({ ...f, t: f.t / 1000 })),
    objects: finalObjects(cluster),
    exec
  };
}

/** `Pod/default/web-1` → `pod/web-1`, as kubectl get events prints OBJECT. */
function kubectlObject(object: string): string {
  const [kind, ...rest] = object.split('/');
  let singular = kind.toLowerCase();
  try {
    singular = resourceForKind(kind).singular;
  } catch {
    // a kind Nodeplane does not serve keeps its lowercase name
  }
  return `${singular}/${rest[rest.length - 1]}`;
}

/** `node/worker-2` for a node, the member or proxy target as written otherwise. */
function faultObject(target: string | undefined): string {
  if (!target) return '-';
  return /^etcd-\d+$/.test(target) || target === 'all' ? target : `node/${target}`;
}

/** kubectl's printer: tabwriter columns separated by 3 spaces, the last column unpadded. */
export function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return (
    rows
      .map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c] + 3))).join(''))
      .join('\n') + '\n'
  );
}

export function formatTimeline(result: RunResult): string {
  const rows: { t: number; seq: number; cells: string[] }[] = [];
  result.events.forEach((e, i) =>
    rows.push({
      t: e.t,
      seq: i,
      cells: [formatClock(e.t * 1000), e.type, e.reason, kubectlObject(e.object), e.message]
    })
  );
  result.faults.forEach((f, i) =>
    rows.push({
      t: f.t,
      seq: -result.faults.length + i,
      cells: [formatClock(f.t * 1000), 'Fault', f.action, faultObject(f.target), 'applied by the scenario']
    })
  );
  rows.sort((a, b) => a.t - b.t || a.seq - b.seq);
  if (!rows.length) return `No events in ${formatClock(result.until * 1000)}.\n`;
  return table([['TIME', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'], ...rows.map((r) => r.cells)]);
}

export function runCommand(argv: string[], out: Output): number {
  const r = argv.findIndex((a) => a === '--replay' || a.startsWith('--replay='));
  if (r >= 0) {
    const file = argv[r].includes('=') ? argv[r].slice('--replay='.length) : argv[r + 1];
    const rest = argv.filter((_, i) => i !== r && (argv[r].includes('=') || i !== r + 1));
    if (!file || rest.length) {
      out.stderr('error: use: nodeplane run --replay <bug-report.json>\n');
      return 1;
    }
    return replayCommand(file, out);
  }
  let args: RunArgs;
  try {
    args = parseRunArgs(argv);
    const text = readScenario(args.file);
    const result = runScenario(text, basename(args.file), { until: args.until, exec: args.exec }, out);
    if (args.output === 'json') {
      const { events, faults, objects, exec } = result;
      out.stdout(
        JSON.stringify(
          {
            scenario: result.scenario,
            until: result.until,
            events,
            faults,
            objects,
            exec: exec.map(({ command, output }) => ({ command, output }))
          },
          null,
          2
        ) + '\n'
      );
    } else {
      out.stdout(formatTimeline(result));
      for (const x of result.exec) out.stdout(`\n$ ${x.command}\n${x.output}`);
    }
    return 0;
  } catch (e) {
    return reportError(e, out);
  }
}

export function validateCommand(argv: string[], out: Output): number {
  try {
    const file = argv.find((a) => !a.startsWith('-'));
    if (!file || argv.length !== 1)
      throw new UsageError('validate needs one scenario file: nodeplane validate <scenario.yaml>');
    const s = loadScenario(readScenario(file), basename(file));
    const pools = s.spec.nodePools?.length ?? 0;
    out.stdout(
      `${basename(file)}: scenario "${s.name}" is valid: ${s.nodes.length} node(s) in ${pools} pool(s), ${s.objects.length} object(s), ${s.faults.length} fault(s)\n`
    );
    return 0;
  } catch (e) {
    return reportError(e, out);
  }
}

export function reportError(e: unknown, out: Output): number {
  if (e instanceof ScenarioError) {
    out.stderr(`error: the scenario was rejected:\n${e.message}\n`);
    return 2;
  }
  if (e instanceof UsageError) {
    out.stderr(`error: ${e.message}\n`);
    return 1;
  }
  throw e;
}
