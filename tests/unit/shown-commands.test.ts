/**
 * Every command the app shows runs in the console. The commands are collected from their sources,
 * not from a list kept here: the fault panel's "Same as:" lines (src/lib/ui/lab/faults.ts, for a
 * node in every state), every lesson's ```command blocks, inline `code` in its text and hints
 * (English and Russian) and the `run:` steps of its solutions, and the examples in
 * docs/console.md. Each runs in a console on a matching cluster (the lesson's own scenario, or
 * scenarios/three-nodes.yaml), warmed up until its nodes are Ready; none may answer as a shell,
 * kubectl or ssh answers a command it does not know or cannot parse.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Cluster, type ClusterSnapshot } from '../../src/lib/sim/cluster';
import { createCluster } from '../../src/lib/sim/scenario';
import { ConsoleSession } from '../../src/lib/sim/kubectl/console';
import { buildView } from '../../src/lib/sim/observe/cluster-map';
import { warmUp } from '../../src/lib/sim/session/warmup';
import { loadLessons } from '../../src/lib/lessons/loader';
import type { Lesson } from '../../src/lib/lessons/format';
import { parseBody } from '../../src/lib/ui/lessons/markdown';
import { controlPlaneFaults, nodeFaults } from '../../src/lib/ui/lab/faults';
import type { NodeView } from '../../src/lib/sim/observe';

/** What a shell, kubectl or ssh says about a command it does not know or cannot parse. */
const REFUSALS = [
  /command not found/,
  /unknown command/,
  /Could not resolve hostname/,
  /unknown flag/,
  /unknown shorthand flag/,
  /invalid option/,
  /unrecognized option/,
  /^usage:/im,
  /^Usage:/m,
  /error: the server doesn't have a resource type/
];

/** Words a shown command starts with (inline `code` that starts otherwise is not a command). */
const WORKSTATION = ['kubectl', 'ssh', 'node-shell', 'nodeplane', 'help', 'clear', 'history'];
/** Tools of kubeadm's control-plane hosts (curl: the components' /metrics on 127.0.0.1). */
const CONTROL_PLANE = ['etcdctl', 'etcdutl', 'scp', 'curl'];

const NODE = [
  'systemctl',
  'journalctl',
  'crictl',
  'ip',
  'iptables',
  'iptables-save',
  'ipvsadm',
  'nft',
  'ls',
  'cat',
  'less',
  'head',
  'tail',
  'free',
  'df',
  'rm',
  'mv',
  'sed',
  'sudo',
  'fallocate',
  'stress-ng',
  'hostname',
  'whoami'
];

/**
 * Shown commands that are expected to fail, and why. Keyed by the command as shown; a command in
 * this list is still run, and must still not be refused for another reason than the one given.
 */
const ALLOWED: Record<string, string> = {
  // docs/console.md shows what kubectl answers: cobra takes `get` as the value of a flag the root
  // does not know (spf13/cobra command.go stripFlags), so the verb is not found.
  'kubectl -A get pods': 'shown as an error: -A is a flag of get, not of the kubectl root',
  // Lesson 19 shows it failing on purpose: a managed (EKS) control plane has no host to log in to.
  // Lesson 13's solution still runs it with exit code 0 (npm run lessons:check).
  'ssh control-plane-1': 'shown as an error in lesson 19: the provider runs the control plane'
};

/** Commands shown for a control-plane host: the console reaches worker nodes only. */
const CONTROL_PLANE_HOST =
  'runs on a control-plane host (kubeadm static pod manifests); the console logs into worker nodes only';

interface Shown {
  /** Where it is shown, for the failure message. */
  where: string;
  /** Lines run one after another in one console (a block, or a solution's steps). */
  lines: string[];
}

/** Inline `code` spans of a Markdown text. */
function codeSpans(text: string): string[] {
  return [...text.matchAll(/(?<!`)`([^`\n]+)`(?!`)/g)].map((m) => m[1].trim());
}

/**
 * A span is a command when it starts with a command word, and is shown as one to type: not a
 * synopsis with placeholders (`ssh <node>`, `kubectl describe node …`, `[-a]`) or alternatives
 * (`status\|stop`).
 */
function asCommand(span: string, node: string): string | undefined {
  const s = span.replace(/<node>/g, node);
  const first = s.split(/\s+/)[0];
  if (!WORKSTATION.includes(first) && !NODE.includes(first)) return undefined;
  // A tool named in prose ("`ssh` to the pod's node"), not a command to type.
  if (s === first && ['kubectl', 'ssh', 'node-shell', 'nodeplane', 'sudo'].includes(s)) return undefined;
  if (/[<>…]|\.\.\.|\\\||\[-|\bPATTERN\b/.test(s)) return undefined;
  return s;
}

/** Every string in a lesson text (body, hints, questions, feedback, variants). */
function strings(x: unknown): string[] {
  if (typeof x === 'string') return [x];
  if (Array.isArray(x)) return x.flatMap(strings);
  if (x && typeof x === 'object') return Object.values(x).flatMap(strings);
  return [];
}

function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of readdirSync(dir)) {
    for (const f of readdirSync(`${dir}/${d}`))
      out[`${dir}/${d}/${f}`] = readFileSync(`${dir}/${d}/${f}`, 'utf8');
  }
  return out;
}

/** A warmed-up cluster and a way to get a fresh copy of it for each command. */
function warmCluster(text: string, fileName: string): { fresh: () => Cluster; workers: string[] } {
  const { cluster } = createCluster(text, { fileName });
  warmUp(
    (ms) => cluster.runUntil(cluster.now + ms),
    () => cluster,
    120_000
  );
  const snap: ClusterSnapshot = cluster.snapshot();
  const workers = cluster
    .componentsOfKind('kubelet')
    .map((k) => k.id.replace(/^kubelet\//, ''))
    .sort();
  return { fresh: () => Cluster.restore(snap), workers };
}

/** Run the lines in one console; node commands go through `ssh <node>` when no shell is open. */
function run(
  cluster: Cluster,
  shown: Shown,
  node: string,
  files: Record<string, string> = {}
): { line: string; output: string }[] {
  const con = new ConsoleSession(cluster, { files });
  const out: { line: string; output: string }[] = [];
  // etcd's tools and kubeadm's manifests live on the control-plane hosts (lesson 13's drill).
  const cpHost = cluster.etcd.members.find((m) => m.host?.startsWith('control-plane'))?.host;
  for (const line of shown.lines) {
    const words = line.trim().split(/\s+/);
    const first = words[0] === 'sudo' && words[1] && !words[1].startsWith('-') ? words[1] : words[0];
    const onCp =
      cpHost &&
      (CONTROL_PLANE.includes(first) || /\/etc\/kubernetes\/(manifests|pki)|\/var\/lib\/etcd/.test(line));
    if (onCp && con.node !== cpHost) {
      if (con.node) con.exec('exit');
      con.exec(`ssh ${cpHost}`);
    } else if (!con.node && NODE.includes(first)) con.exec(`ssh ${node}`);
    const r = con.exec(line);
    r.watch?.stop();
    out.push({ line, output: r.stdout + r.stderr });
  }
  return out;
}

function refusals(results: { line: string; output: string }[], where: string): string[] {
  return results
    .filter((r) => !(r.line in ALLOWED) && REFUSALS.some((re) => re.test(r.output)))
    .map((r) => `${where}: \`${r.line}\` answered:\n${r.output}`);
}

const lessonFiles = readTree('lessons');
const { lessons, errors } = loadLessons(lessonFiles);

/** What a lesson shows, in the order it shows it. */
function lessonCommands(lesson: Lesson, node: string): Shown[] {
  const shown: Shown[] = [];
  for (const lang of ['en', 'ru'] as const) {
    const text = lesson.text[lang];
    const where = `${lesson.paths.text[lang]}`;
    for (const step of parseBody(text.body)) {
      for (const seg of step.segments) {
        if (seg.kind === 'command')
          shown.push({ where: `${where} ("${step.title}" ▶ Run)`, lines: seg.command.split('\n') });
      }
    }
    for (const s of strings({ ...text, body: text.body.replace(/^```[\s\S]*?^```/gm, '') })) {
      for (const span of codeSpans(s)) {
        const cmd = asCommand(span, node);
        if (cmd) shown.push({ where, lines: [cmd] });
      }
    }
  }
  const runs = (steps: { run?: string }[]) => steps.map((s) => s.run).filter((r): r is string => !!r);
  const solution = runs(lesson.spec.spec.solution);
  if (solution.length) shown.push({ where: `${lesson.paths.spec} spec.solution`, lines: solution });
  for (const v of lesson.spec.spec.challenge?.variants ?? []) {
    const lines = [...runs(v.setup), ...runs(v.solution)];
    if (lines.length) shown.push({ where: `${lesson.paths.spec} variant ${v.id}`, lines });
  }
  return shown;
}

describe('every command the app shows runs in the console', () => {
  it('loads every lesson', () => {
    expect(errors).toEqual([]);
    expect(lessons.length).toBeGreaterThanOrEqual(12);
  });

  for (const lesson of lessons) {
    it(`lesson ${lesson.slug}: its blocks, inline commands, hints and solution`, { timeout: 120_000 }, () => {
      const { fresh, workers } = warmCluster(lesson.scenario, lesson.paths.scenario);
      const shown = lessonCommands(lesson, workers[0]);
      expect(shown.length).toBeGreaterThan(0);
      if (process.env.SHOW_COMMANDS) console.log(shown.map((x) => x.lines.join(' ⏎ ')).join('\n'));
      const failures = shown.flatMap((s) =>
        refusals(run(fresh(), s, workers[0], lesson.spec.spec.files ?? {}), s.where)
      );
      expect(failures).toEqual([]);
    });
  }

  it('the fault panel\'s "Same as:" commands, for a node in every state', () => {
    const { fresh } = warmCluster(readFileSync('scenarios/three-nodes.yaml', 'utf8'), 'three-nodes.yaml');
    const view = buildView(fresh());
    const node = view.nodes[0];
    // The panel offers the opposite toggle once a service is stopped: collect both sides.
    const broken: NodeView = {
      ...node,
      kubeletRunning: false,
      runtime: { ...node.runtime, running: false },
      partitioned: true,
      cniInstalled: false
    };
    const commands = [
      ...new Set([...nodeFaults(node, view.cni), ...nodeFaults(broken, view.cni)].map((f) => f.command))
    ];
    expect(commands).toContain(`ssh ${node.name} sudo systemctl stop kubelet`);
    expect(commands).toContain(`ssh ${node.name} sudo systemctl start kubelet`);
    const failures = commands.flatMap((c) =>
      refusals(run(fresh(), { where: 'fault panel', lines: [c] }, node.name), 'fault panel')
    );
    expect(failures).toEqual([]);
  });

  it('each "Same as:" command does what its button does', () => {
    const { fresh } = warmCluster(readFileSync('scenarios/three-nodes.yaml', 'utf8'), 'three-nodes.yaml');
    const view = buildView(fresh());
    const node = view.nodes[0];
    const broken: NodeView = {
      ...node,
      kubeletRunning: false,
      runtime: { ...node.runtime, running: false },
      partitioned: true,
      cniInstalled: false
    };
    // The stopped state each start button is offered in: its opposite fault, applied first.
    const opposite: Record<string, string> = {
      StartKubelet: 'StopKubelet',
      StartRuntime: 'StopRuntime',
      HealNode: 'PartitionNode',
      InstallCNI: 'RemoveCNI'
    };
    const buttons = [...nodeFaults(node, view.cni), ...nodeFaults(broken, view.cni)].filter(
      (f, i, all) =>
        all.findIndex((g) => g.command === f.command) === i &&
        f.action !== 'DeleteNode' &&
        // Two steps, the first interactive (kubectl edit of the ConfigMap, then a restart of
        // kube-proxy): network/kubeproxy-config.test.ts checks that together they switch the mode.
        f.action !== 'SetProxyMode'
    );
    const mismatches: string[] = [];
    for (const f of buttons) {
      const cluster = fresh();
      if (opposite[f.action]) cluster.applyFault(opposite[f.action], { target: f.target });
      const before = cluster.faultLog.length;
      run(cluster, { where: 'fault panel', lines: [f.command] }, node.name);
      const applied = cluster.faultLog.slice(before).map((x) => `${x.action} ${x.target}`);
      if (applied.join() !== `${f.action} ${f.target}`)
        mismatches.push(`${f.command}: ${applied.join(', ') || 'nothing'}`);
    }
    expect(mismatches).toEqual([]);
    expect(buttons.map((f) => f.action).sort()).toEqual([
      'FillDisk',
      'FillMemory',
      'HealNode',
      'InstallCNI',
      'PartitionNode',
      'RemoveCNI',
      'StartKubelet',
      'StartRuntime',
      'StopKubelet',
      'StopRuntime'
    ]);
  });

  it("the control-plane panel's commands are the ones allowed to need a control-plane host", () => {
    const { fresh } = warmCluster(readFileSync('scenarios/ha-failover.yaml', 'utf8'), 'ha-failover.yaml');
    const view = buildView(fresh());
    const faults = controlPlaneFaults(view.controlPlane);
    const commands = faults.map((f) => f.command).filter(Boolean);
    expect(commands.length).toBeGreaterThan(0);
    // Each names a static pod manifest on a control-plane machine; the lab has no shell there yet.
    for (const c of commands)
      expect(c, CONTROL_PLANE_HOST).toMatch(/^sudo mv .*\/etc\/kubernetes\/manifests/);
    // No command fails or replaces a disk: those buttons show only their note, and say so.
    const noteOnly = faults.filter((f) => !f.command);
    expect(noteOnly.map((f) => `${f.action} ${f.target}`)).toEqual([
      'SlowEtcdDisk etcd-0',
      'FailEtcdDisk etcd-0',
      'SlowEtcdDisk etcd-1',
      'FailEtcdDisk etcd-1',
      'SlowEtcdDisk etcd-2',
      'FailEtcdDisk etcd-2'
    ]);
    for (const f of noteOnly) expect(f.note?.key).toMatch(/^lab\.faultNote\.(slow|fix|fail)Disk$/);
  });

  it('the examples in docs/console.md', () => {
    const { fresh, workers } = warmCluster(
      readFileSync('scenarios/three-nodes.yaml', 'utf8'),
      'three-nodes.yaml'
    );
    const doc = readFileSync('docs/console.md', 'utf8');
    const spans = [...new Set(codeSpans(doc.replace(/^```[\s\S]*?^```/gm, '')))]
      .map((s) => asCommand(s, workers[0]))
      .filter((c): c is string => !!c);
    if (process.env.SHOW_COMMANDS) console.log(spans.join('\n'));
    expect(spans).toContain('ssh <node>'.replace('<node>', workers[0]));
    const failures = spans.flatMap((c) =>
      refusals(run(fresh(), { where: 'docs/console.md', lines: [c] }, workers[0]), 'docs/console.md')
    );
    expect(failures).toEqual([]);
  });
});
