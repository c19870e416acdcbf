/**
 * docs/lifecycles.md, printed from the XState machines in src/lib/sim/machines: the same
 * definitions the engine steps and the lab's details panel draws. `tests/unit/lifecycles-doc.test.ts`
 * fails when the page is out of date.
 *
 *   npx tsx scripts/gen-lifecycles.ts      # rewrite the page
 */
import { writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import type { AnyStateMachine } from 'xstate';
import { describeDefinition, type MachineDefinitionView } from '../src/lib/sim/observe/machines';
import { nodeHealthMachine } from '../src/lib/sim/machines/node-health';
import { containerMachine } from '../src/lib/sim/machines/container';
import { kubeletMachine } from '../src/lib/sim/machines/kubelet';
import { etcdMemberMachine } from '../src/lib/sim/machines/etcd-member';
import { nodeGroupMachine } from '../src/lib/sim/machines/node-group';

export const DOC_PATH = 'docs/lifecycles.md';

interface Entry {
  machine: AnyStateMachine;
  title: string;
  file: string;
  owner: string;
  upstream: string[];
  intro: string;
}

const ENTRIES: Entry[] = [
  {
    machine: nodeHealthMachine,
    title: 'Node health, as the node lifecycle controller sees it',
    file: 'src/lib/sim/machines/node-health.ts',
    owner:
      "kube-controller-manager's node lifecycle controller steps it for every Node on each monitor pass (`--node-monitor-period` 5 s) and on each NoExecute tainting; it performs the actions the transition names.",
    upstream: ['pkg/controller/nodelifecycle/node_lifecycle_controller.go'],
    intro:
      "A silent kubelet: Ready → Unknown once `--node-monitor-grace-period` (50 s since v1.32) passes without a status heartbeat or a Lease renewal, then the zone's rate-limited tainting pass (`--node-eviction-rate` 0.1/s) adds `node.kubernetes.io/unreachable:NoExecute`, and the taint eviction controller deletes the pods that do not tolerate it (DefaultTolerationSeconds gives 300 s). A kubelet that reports Ready=False gets `node.kubernetes.io/not-ready:NoExecute` instead. Shown in the lab when a Node is selected."
  },
  {
    machine: containerMachine,
    title: "A container's state (and so its pod's phase)",
    file: 'src/lib/sim/machines/container.ts',
    owner:
      "the kubelet's status manager steps one per app container with each state it puts in the pod's `containerStatuses[].state`; the pod's phase follows from its containers (getPhase).",
    upstream: [
      'pkg/kubelet/images/image_manager.go',
      'pkg/kubelet/kuberuntime/kuberuntime_manager.go',
      'pkg/kubelet/kubelet_pods.go'
    ],
    intro:
      'Waiting reasons as kubectl shows them: ContainerCreating, PodInitializing, ErrImagePull, ImagePullBackOff (image back-off 1 s doubling to 5 min), ErrImageNeverPull, CrashLoopBackOff (restart back-off 10 s doubling to 5 min); terminated reasons Completed, Error, OOMKilled. With `restartPolicy: Always` a crashed container usually goes from running straight to CrashLoopBackOff: the exit is kept in `lastState.terminated`, and the path step names it. Shown in the lab when a Pod is selected.'
  },
  {
    machine: kubeletMachine,
    title: 'The kubelet service',
    file: 'src/lib/sim/machines/kubelet.ts',
    owner: 'the kubelet component steps it when systemd starts or stops it and when its Node registers.',
    upstream: ['pkg/kubelet/kubelet.go', 'pkg/kubelet/kubelet_node_status.go'],
    intro:
      'stopped → starting (flags parsed, runtime checked) → registering (POST the Node until it sticks) → running; a stop returns to stopped from any state. Shown in the lab beside node health when a Node is selected.'
  },
  {
    machine: etcdMemberMachine,
    title: 'An etcd member',
    file: 'src/lib/sim/machines/etcd-member.ts',
    owner:
      'the etcd model (`src/lib/sim/etcd/etcd.ts`) steps one per member after every change to the membership or to who runs: it moves each machine along the shortest run of events that reaches the role the member has now (a new leader goes through candidate).',
    upstream: ['server/etcdserver/server.go', 'go.etcd.io/raft raft.go'],
    intro:
      'A member added by `etcdctl member add --learner` (what kubeadm join does) is unstarted until its static pod runs, then a learner until `member promote` makes it a voter. Voters follow the leader; when the leader stops, the next member campaigns and wins a new term. With fewer than a quorum of voters running there is no leader, and every write fails with `etcdserver: request timed out`. Shown in the lab in the control-plane view, one drawing per member.'
  },
  {
    machine: nodeGroupMachine,
    title: "A Cluster Autoscaler node group's activity",
    file: 'src/lib/sim/machines/node-group.ts',
    owner:
      'the Cluster Autoscaler steps one per node group in its loop (`--scan-interval` 10 s), where it decides: the scale-up, the request done or timed out, the backoff over, a node unneeded, a node deleted.',
    upstream: [
      'cluster-autoscaler/clusterstate/clusterstate.go',
      'cluster-autoscaler/utils/backoff/exponential_backoff.go',
      'cluster-autoscaler/core/scaledown/planner/planner.go'
    ],
    intro:
      'The states follow the per-group lines of the `kube-system/cluster-autoscaler-status` ConfigMap: scaleUp NoActivity / InProgress / Backoff, scaleDown CandidatesPresent. A scale-up whose nodes do not register within `--max-node-provision-time` (15 min) backs the group off for 5 min, doubling with each failure to at most 30 min; a node unneeded for `--scale-down-unneeded-time` (10 min) is tainted `ToBeDeletedByClusterAutoscaler`, drained and deleted. Shown in the lab in the control-plane view and for a selected node of an autoscaled pool.'
  }
];

const code = (s: string) => `\`${s}\``;
const stateName = (id: string) => (id === '*' ? 'any state' : code(id));

function mermaid(def: ReturnType<typeof describeDefinition>): string[] {
  const mid = (id: string) => id.replace(/\./g, '_');
  const lines = ['```mermaid', 'stateDiagram-v2'];
  const top = def.states.filter((s) => !s.parent);
  const emit = (id: string, indent: string) => {
    const s = def.states.find((x) => x.id === id)!;
    const kids = def.states.filter((x) => x.parent === id);
    if (!kids.length) return;
    lines.push(`${indent}state ${mid(s.id)} {`);
    for (const k of kids) {
      if (def.states.some((x) => x.parent === k.id)) emit(k.id, `${indent}  `);
      else lines.push(`${indent}  ${mid(k.id)}: ${k.key}`);
    }
    lines.push(`${indent}}`);
  };
  lines.push(`  [*] --> ${mid(def.initial)}`);
  for (const s of top) {
    if (def.states.some((x) => x.parent === s.id)) emit(s.id, '  ');
    else lines.push(`  ${mid(s.id)}: ${s.key}`);
  }
  const seen = new Set<string>();
  for (const t of def.transitions) {
    if (t.source === '*') continue;
    const line = `  ${mid(t.source)} --> ${mid(t.target)}: ${t.event}`;
    if (!seen.has(line)) lines.push(line);
    seen.add(line);
  }
  lines.push('```');
  return lines;
}

function section(e: Entry): string[] {
  const def = describeDefinition(e.machine);
  const out = [
    `## ${e.title}`,
    '',
    `Machine ${code(def.id)} in ${code(e.file)}: ${e.owner}`,
    `Upstream: ${e.upstream.map(code).join(', ')}.`,
    '',
    e.intro,
    '',
    ...mermaid(def as MachineDefinitionView),
    '',
    `Initial state: ${code(def.initial)}.`,
    '',
    '| state | meaning |',
    '| ----- | ------- |'
  ];
  for (const s of def.states) out.push(`| ${code(s.id)} | ${s.description ?? (s.compound ? 'group' : '')} |`);
  out.push(
    '',
    '| from | event | when (guard) | to | the owner then |',
    '| ---- | ----- | ------------ | -- | -------------- |'
  );
  for (const t of def.transitions) {
    out.push(
      `| ${stateName(t.source)} | ${code(t.event)} | ${t.guard ? code(t.guard) : ''} | ${code(t.target)} | ${t.actions.map(code).join(', ')} |`
    );
  }
  return [...out, ''];
}

/** The page, formatted as the repository's Prettier settings format Markdown. */
export async function lifecyclesDoc(): Promise<string> {
  const options = (await resolveConfig(DOC_PATH)) ?? {};
  return format(lifecyclesText(), { ...options, parser: 'markdown' });
}

function lifecyclesText(): string {
  const lines = [
    '# Lifecycles',
    '',
    '<!-- Generated by scripts/gen-lifecycles.ts from src/lib/sim/machines. Do not edit: run `npx tsx scripts/gen-lifecycles.ts`. -->',
    '',
    "The lifecycles a learner watches are XState v5 machines. Each is the single definition: the engine steps it with XState's pure `transition()` (no actor per object; the owner keeps each object's state value, the event that moved it last and a bounded path of 12 steps in its component state, so snapshots and time travel carry them), the lab draws it live for the selected Node or Pod and, in the control-plane view, for each etcd member and node group (`src/lib/sim/observe/machines.ts`), and this page prints it.",
    '',
    'A transition from "any state" is declared on the machine\'s root: the machine takes it whatever state it is in.',
    ''
  ];
  for (const e of ENTRIES) lines.push(...section(e));
  return lines.join('\n').replace(/\n+$/, '\n');
}

if (process.argv[1]?.endsWith('gen-lifecycles.ts')) {
  writeFileSync(DOC_PATH, await lifecyclesDoc());
  console.log(`wrote ${DOC_PATH}`);
}
