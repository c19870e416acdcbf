import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Cluster, addTestFault } from '../cluster';
import { createCluster, loadScenario, MissingComponentError, ScenarioError } from '.';

const three = readFileSync(new URL('../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');

function issuesOf(text: string): ScenarioError['issues'] {
  try {
    loadScenario(text, 'test.yaml');
  } catch (e) {
    if (e instanceof ScenarioError) return e.issues;
    throw e;
  }
  throw new Error('expected a ScenarioError');
}

const head = (spec: string) => `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata:
  name: t
spec:
${spec}`;

describe('loadScenario', () => {
  it('resolves node pools into kubelet arguments', () => {
    const s = loadScenario(three, 'three-nodes.yaml');
    expect(s.name).toBe('three-nodes');
    expect(s.config.seed).toBe(42);
    expect(s.duration).toBe(180_000);
    expect(s.nodes.map((n) => [n.nodeName, n.internalIP])).toEqual([
      ['worker-1', '10.0.0.11'],
      ['worker-2', '10.0.0.12'],
      ['worker-3', '10.0.0.13']
    ]);
    expect(s.nodes[0]).toEqual({
      nodeName: 'worker-1',
      capacity: { cpu: '4', memory: '16Gi', 'ephemeral-storage': '100Gi' },
      runtime: 'containerd',
      internalIP: '10.0.0.11',
      pool: 'worker',
      zone: 'zone-a',
      region: 'region-1',
      preloadedImages: ['registry.k8s.io/pause:3.10']
    });
    expect(s.objects.map((o) => `${o.obj.kind}/${o.obj.metadata.name}:${o.line}`)).toEqual([
      'Deployment/web:19',
      'DaemonSet/log-agent:40'
    ]);
  });

  it('applies flag overrides by upstream name, durations in milliseconds', () => {
    const s = loadScenario(
      head(`  kubernetesVersion: v1.31.4
  kubelet: { nodeStatusUpdateFrequency: 20s, maxPods: 50 }
  controllerManager: { nodeMonitorGracePeriod: 1m30s, nodeEvictionRate: 0.5 }
  network: { proxyMode: ipvs, cni: cilium }
  nodePools:
    - { name: big, count: 2, names: [alpha, beta], capacity: { cpu: 64, memory: 512Gi } }
`),
      't.yaml'
    );
    expect(s.config.kubelet.nodeStatusUpdateFrequency).toBe(20_000);
    expect(s.config.kubelet.maxPods).toBe(50);
    expect(s.config.controllerManager.nodeMonitorGracePeriod).toBe(90_000);
    expect(s.config.controllerManager.nodeEvictionRate).toBe(0.5);
    // v1.31 still had the 40s grace period; the scenario overrides it anyway.
    expect(s.config.controllerManager.nodeStartupGracePeriod).toBe(60_000);
    expect(s.config.network).toEqual({
      proxyMode: 'ipvs',
      cni: 'cilium',
      clusterCIDR: '10.244.0.0/16',
      serviceCIDR: '10.96.0.0/12'
    });
    expect(s.nodes.map((n) => [n.nodeName, n.capacity.cpu, n.maxPods])).toEqual([
      ['alpha', '64', 50],
      ['beta', '64', 50]
    ]);
  });

  it('keeps the v1.32 grace period default unless overridden', () => {
    expect(
      loadScenario(head('  kubernetesVersion: v1.30.0\n'), 't.yaml').config.controllerManager
        .nodeMonitorGracePeriod
    ).toBe(40_000);
    expect(loadScenario(head('  seed: 3\n'), 't.yaml').config.controllerManager.nodeMonitorGracePeriod).toBe(
      50_000
    );
  });
});

describe('scenario errors', () => {
  it('reports invalid YAML with its line', () => {
    const issues = issuesOf(head('  nodePools:\n    - name: w\n      count: [3\n'));
    expect(issues[0].file).toBe('test.yaml');
    expect(issues[0].line).toBe(9);
    expect(issues[0].message).toMatch(/^YAML: /);
  });

  it('names an unknown field', () => {
    expect(issuesOf(head('  nodePools:\n    - name: w\n      count: 3\n      gpus: 2\n'))).toEqual([
      {
        file: 'test.yaml',
        line: 9,
        column: 7,
        path: 'spec.nodePools[0].gpus',
        message: 'unknown field "spec.nodePools[0].gpus" (not simulated by Nodeplane)'
      }
    ]);
  });

  it('rejects impossible quantities', () => {
    const issues = issuesOf(
      head(`  nodePools:
    - name: w
      count: 1001
      capacity: { cpu: "10000", memory: -2Gi }
`)
    );
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [8, 'spec.nodePools[0].count: Invalid value: 1001: must be less than or equal to 1000']
    ]);
    const issues2 = issuesOf(
      head(`  nodePools:\n    - name: w\n      count: 2\n      capacity: { cpu: "10000", memory: -2Gi }\n`)
    );
    expect(issues2.map((i) => [i.line, i.path, i.message])).toEqual([
      [
        9,
        'spec.nodePools[0].capacity[cpu]',
        'spec.nodePools[0].capacity[cpu]: Invalid value: "10000": a node has at most 1024 CPUs in Nodeplane'
      ],
      [
        9,
        'spec.nodePools[0].capacity[memory]',
        'spec.nodePools[0].capacity[memory]: Invalid value: "-2Gi": must be greater than or equal to 0'
      ]
    ]);
  });

  it('rejects unknown fault actions and targets', () => {
    const issues = issuesOf(
      head(`  nodePools: [{ name: worker, count: 2 }]
  faults:
    - { at: 90s, action: RebootNode, target: worker-1 }
    - { at: 2m, action: StopKubelet, target: worker-9 }
    - { at: 3m, action: StopEtcdMember, target: etcd-1 }
`)
    );
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [
        8,
        'spec.faults[0].action: Unsupported value: "RebootNode": supported values: "StopKubelet", "StartKubelet", "StopRuntime", "StartRuntime", "PartitionNode", "HealNode", "FillMemory", "FillDisk", "RemoveCNI", "InstallCNI", "DeleteNode", "StopControllerManager", "StartControllerManager", "StopScheduler", "StartScheduler", "FailMachineBoot", "FixMachineBoot", "StopEtcdMember", "StartEtcdMember", "SlowEtcdDisk", "FixEtcdDisk", "StopControlPlaneNode", "StartControlPlaneNode", "SetProxyMode", "StopKubeProxy", "StartKubeProxy", "ShutdownNode", "PowerOnNode", "UpgradeKubelet", "JoinControlPlaneNode", "FailEtcdDisk", "ReplaceEtcdDisk", "RejoinEtcdMember"'
      ]
    ]);
    const issues2 = issuesOf(
      head(`  nodePools: [{ name: worker, count: 2 }]
  faults:
    - { at: 2m, action: StopKubelet, target: worker-9 }
    - { at: 3m, action: StopEtcdMember, target: etcd-1 }
`)
    );
    expect(issues2.map((i) => [i.line, i.column, i.message])).toEqual([
      [8, 46, 'spec.faults[0].target: Invalid value: "worker-9": no such node (nodes: worker-1, worker-2)'],
      [9, 49, 'spec.faults[1].target: Invalid value: "etcd-1": no such etcd member (members: etcd-0)']
    ]);
  });

  it('requires the Scenario document first', () => {
    expect(issuesOf('apiVersion: v1\nkind: Namespace\nmetadata: { name: x }\n')).toEqual([
      {
        file: 'test.yaml',
        line: 1,
        column: 1,
        path: 'kind',
        message: 'the first document must be the scenario: apiVersion: nodeplane.dev/v1alpha1, kind: Scenario'
      }
    ]);
  });

  it('runs the objects through admission and points at the field', () => {
    const issues = issuesOf(
      `${head('  seed: 1\n')}---
apiVersion: v1
kind: Pod
metadata: { name: web }
spec:
  containers:
    - name: web
`
    );
    expect(issues).toEqual([
      {
        file: 'test.yaml',
        line: 13,
        column: 7,
        path: 'spec.containers[0].image',
        message: 'Pod "web" is invalid: spec.containers[0].image: Required value'
      }
    ]);
  });
});

describe('createCluster', () => {
  it('explains an unregistered component kind', () => {
    expect(new MissingComponentError('kubelet').message).toBe(
      'component kind "kubelet" is not registered: import src/lib/sim/node (importing it registers the kind) before createCluster'
    );
  });

  it('builds etcd, API servers, nodes, objects and the fault schedule', () => {
    const applied: { t: number; target?: string }[] = [];
    addTestFault('StopEtcdMember', 'test double', (c, p) => {
      applied.push({ t: c.now, target: p.target });
      c.etcd.stop(p.target!);
    });
    const text = readFileSync(new URL('../../../../scenarios/etcd-quorum.yaml', import.meta.url), 'utf8');
    const { cluster, missing } = createCluster(text, { fileName: 'etcd-quorum.yaml' });
    expect(missing).toEqual([]);
    expect(cluster.etcd.members.map((m) => `${m.name}@${m.host}`)).toEqual([
      'etcd-0@control-plane-1',
      'etcd-1@control-plane-2',
      'etcd-2@control-plane-3'
    ]);
    expect(cluster.apiServers.map((a) => a.name)).toEqual([
      'kube-apiserver-control-plane-1',
      'kube-apiserver-control-plane-2',
      'kube-apiserver-control-plane-3'
    ]);
    expect([...cluster.components.keys()].sort()).toEqual([
      // kube-apiserver's default/kubernetes Service and its lease endpoint reconciler
      'apiserver-endpoints',
      // the API-server load model samples the request counters
      'apiserver-load',
      'kube-controller-manager',
      'kube-scheduler',
      // kubeadm's kubelet on each control-plane host (controlplane/markcontrolplane.ts)
      'kubelet/control-plane-1',
      'kubelet/control-plane-2',
      'kubelet/control-plane-3',
      'kubelet/worker-1',
      'kubelet/worker-2',
      // three API servers: kube-scheduler and kube-controller-manager elect leaders
      'leader-election',
      // Prometheus scrapes every /metrics target and evaluates the alerts (monitoring/prometheus.ts)
      'prometheus',
      'scenario',
      // the control-plane hosts' kubelets run kubeadm's static pods (etcd/staticpods.ts)
      'static-pods'
    ]);
    // The objects are applied right after the nodes' first registration attempt (100ms).
    expect(cluster.api.tryGet('Deployment', 'default', 'web')).toBeUndefined();
    cluster.runUntil(100);
    expect(cluster.api.get('Deployment', 'default', 'web').spec.replicas).toBe(2);
    cluster.runUntil(59_999);
    expect(cluster.etcd.hasQuorum()).toBe(true);
    expect(cluster.components.has('kube-proxy/worker-1')).toBe(true);
    cluster.runUntil(60_000);
    expect(applied).toEqual([
      { t: 60_000, target: 'etcd-1' },
      { t: 60_000, target: 'etcd-2' }
    ]);
    expect(cluster.etcd.hasQuorum()).toBe(false);
    cluster.runUntil(200_000);
    expect(cluster.etcd.hasQuorum()).toBe(true);
    expect(cluster.faultLog.map((f) => [f.t, f.action, f.target])).toEqual([
      [60_000, 'StopEtcdMember', 'etcd-1'],
      [60_000, 'StopEtcdMember', 'etcd-2'],
      [180_000, 'StartEtcdMember', 'etcd-2']
    ]);
  });

  it('restores a snapshot taken mid-run and continues identically', () => {
    const text = readFileSync(new URL('../../../../scenarios/heartbeat-loss.yaml', import.meta.url), 'utf8');
    const a = createCluster(text, { fileName: 'heartbeat-loss.yaml' }).cluster;
    a.runUntil(30_000);
    const b = Cluster.restore(a.snapshot());
    a.runUntil(200_000);
    b.runUntil(200_000);
    expect(JSON.stringify(b.eventLog)).toBe(JSON.stringify(a.eventLog));
    expect(b.faultLog).toEqual([{ t: 60_000, action: 'StopKubelet', target: 'worker-2' }]);
  });
});
