import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSchedule } from './schedule';

const dir = mkdtempSync(join(tmpdir(), 'nodeplane-schedule-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}
function run(argv: string[]): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const code = runSchedule(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

const cluster = `apiVersion: v1
kind: Node
metadata:
  name: control-plane
  labels: {kubernetes.io/hostname: control-plane}
spec:
  taints: [{key: node-role.kubernetes.io/control-plane, effect: NoSchedule}]
status:
  allocatable: {cpu: "2", memory: 4Gi, pods: "110"}
---
apiVersion: v1
kind: Node
metadata:
  name: worker-1
  labels: {kubernetes.io/hostname: worker-1}
status:
  allocatable: {cpu: "2", memory: 4Gi, pods: "110"}
---
apiVersion: v1
kind: Node
metadata:
  name: worker-2
  labels: {kubernetes.io/hostname: worker-2}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: v1
kind: Pod
metadata: {name: existing, namespace: default}
spec:
  nodeName: worker-2
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "3"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m, memory: 256Mi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: big}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: "2"}}}]
`;

describe('nodeplane schedule', () => {
  const manifests = file('cluster.yaml', cluster);

  it('prints every pod with its chosen node, message and per-plugin results as JSON', () => {
    const r = run(['-f', manifests, '--output', 'json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(
      out.pods.map((p: { pod: string; selectedNode: string | null }) => [p.pod, p.selectedNode])
    ).toEqual([
      ['default/existing', 'worker-2'],
      ['default/web', 'worker-1'],
      ['default/big', null]
    ]);
    expect(out.pods[0].existing).toBe(true);
    const web = out.pods[1];
    expect(web.message).toBe('');
    expect(web.nodes['control-plane'].filter.TaintToleration).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ['node(s) had untolerated taint(s)']
    });
    // worker-1: cpu (2000−500)·100/2000 = 75, memory (4096−256)·100/4096 = 93 → 84; balance |0.25 − 0.0625|/2 → 90
    // NodeAffinity, PodTopologySpread and InterPodAffinity return Skip from PreScore: no score, not 0.
    expect(web.nodes['worker-1'].score).toEqual({
      TaintToleration: 100,
      NodeAffinity: null,
      NodeResourcesFit: 84,
      PodTopologySpread: null,
      InterPodAffinity: null,
      NodeResourcesBalancedAllocation: 90,
      ImageLocality: 0
    });
    expect(web.nodes['worker-1'].skip).toEqual(['NodeAffinity', 'PodTopologySpread', 'InterPodAffinity']);
    expect(web.nodes['worker-1'].finalScore).toBe(474);
    // worker-2: cpu 3.5 of 4 → 12; memory counts the existing pod's 200Mi default: 456Mi of 8Gi → 94; (12+94)/2 = 53;
    // balance on actual requests: |0.875 − 0.03125| / 2 → 57
    expect(web.nodes['worker-2'].finalScore).toBe(300 + 53 + 57);
    expect(out.pods[2].message).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.'
    );
  });

  it('prints a table by default', () => {
    const r = run(['-f', manifests]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Pod default/existing: already on worker-2, which it fits');
    lines.splice(0, lines.indexOf('Pod default/web: scheduled on worker-1'));
    expect(lines[0]).toBe('Pod default/web: scheduled on worker-1');
    expect(lines[1]).toMatch(
      /^NODE\s+FILTER\s+TaintToleration\s+NodeAffinity\s+NodeResourcesFit\s+PodTopologySpread\s+InterPodAffinity\s+NodeResourcesBalancedAllocation\s+ImageLocality\s+FINAL$/
    );
    expect(lines[2]).toMatch(
      /^control-plane\s+TaintToleration: node\(s\) had untolerated taint\(s\)(\s+-){8}$/
    );
    expect(lines[3]).toMatch(/^worker-1 \*\s+passed\s+100\s+skip\s+84\s+skip\s+skip\s+90\s+0\s+474$/);
    expect(r.stdout).toContain('Pod default/big: not scheduled\n  0/3 nodes are available:');
  });

  it('applies a KubeSchedulerConfiguration', () => {
    const cfg = file(
      'mostallocated.yaml',
      `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled: [{name: "*"}]
      enabled: [{name: NodeResourcesFit}]
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy: {type: MostAllocated}
`
    );
    const out = JSON.parse(run(['-f', manifests, '--config', cfg, '-o', 'json']).stdout);
    expect(out.pods[1].selectedNode).toBe('worker-2');
    // cpu 3500·100/4000 = 87, memory 456Mi·100/8Gi = 5 → 46 (worker-1: 25 and 6 → 15)
    expect(out.pods[1].nodes['worker-2'].score).toEqual({ NodeResourcesFit: 46 });
  });

  it.each([
    [
      'a bad quantity',
      'apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus:\n  allocatable: {cpu: lots}\n',
      'error: FILE: document 1 (Node/n): status.allocatable.cpu: Invalid value: "lots": quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'\n'
    ],
    [
      'a pod without containers',
      'apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: "1"}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {}\n',
      'error: FILE: document 2 (Pod/p): spec.containers: Required value\n'
    ],
    [
      'an unsupported kind',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n',
      'error: FILE: document 1 (Deployment/d): kind: Unsupported value: "Deployment": supported values: "Node", "Pod", "Service", "ReplicaSet", "StatefulSet", "Namespace", "PriorityClass"\n'
    ],
    ['broken YAML', 'kind: Node\nmetadata: {name: [\n', /^error: FILE: document 1: line \d+: /]
  ])('exits 2 on %s', (_n, text, want) => {
    const f = file('bad.yaml', text);
    const r = run(['-f', f]);
    expect(r.code).toBe(2);
    if (typeof want === 'string') expect(r.stderr).toBe(want.replace('FILE', f));
    else expect(r.stderr.replace(f, 'FILE')).toMatch(want);
  });

  it('exits 2 naming the config field', () => {
    const cfg = file(
      'bad-config.yaml',
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- plugins:\n    score:\n      enabled: [{name: Foo}]\n'
    );
    const r = run(['-f', manifests, '--config', cfg]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ${cfg}: profiles[0].plugins.score.enabled[0].name: unknown plugin "Foo"\n`);
  });

  // upstream: pkg/scheduler/framework/plugins/nodename/node_name.go (ErrReason)
  // upstream: pkg/apis/core/v1/defaults.go (SetDefaults_NodeStatus: no status, no allocatable)
  it('accepts a Node without status (zero allocatable) and a pod naming a Node that does not exist', () => {
    const f = file(
      'ghost.yaml',
      `apiVersion: v1
kind: Node
metadata: {name: bare}
---
apiVersion: v1
kind: Node
metadata: {name: worker-1}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: lost}
spec:
  nodeName: ghost
  containers: [{name: c, image: nginx}]
---
apiVersion: v1
kind: Pod
metadata: {name: small}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 100m}}}]
`
    );
    const r = run(['-f', f, '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const lost = out.pods[0];
    expect([lost.pod, lost.existing, lost.selectedNode]).toEqual(['default/lost', true, null]);
    expect(lost.message).toBe(
      "0/2 nodes are available: 2 node(s) didn't match the requested node name. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
    );
    expect(lost.nodes.bare.filter.NodeName).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ["node(s) didn't match the requested node name"]
    });
    expect(out.pods[1].selectedNode).toBe('worker-1');
    // A request above the node's allocatable cannot be resolved by preemption (fit.go Unresolvable).
    expect(out.pods[1].nodes.bare.filter.NodeResourcesFit).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ['Too many pods', 'Insufficient cpu']
    });
  });

  // upstream: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go (PreScore returns Skip without preferred terms)
  it('reports a PreScore Skip as a null score with a skip marker, not as 0', () => {
    const f = file(
      'skip.yaml',
      `apiVersion: v1
kind: Node
metadata: {name: a}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: b}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: nginx}]
`
    );
    const out = JSON.parse(run(['-f', f, '-o', 'json']).stdout);
    const a = out.pods[0].nodes.a;
    expect(a.score.NodeAffinity).toBeNull();
    expect(a.skip).toContain('NodeAffinity');
    expect(a.score.TaintToleration).toBe(100);
    expect(run(['-f', f]).stdout).toMatch(/skip/);
  });

  it('exits 2 without -f', () => {
    expect(run([]).code).toBe(2);
  });
});
