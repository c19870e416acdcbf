// Managed control planes: what a learner sees in an EKS, GKE or AKS cluster.
// Provider documents each fact comes from:
//   EKS  docs.aws.amazon.com/eks/latest/userguide/platform-versions.html (the control plane's
//        build, `kubectl version` → v1.x.y-eks-<7 hex>) and eks-optimized-ami.html (the AMI's kubelet
//        build, `kubectl get nodes` → v1.x.y-eks-<7 hex>); node-repair.html (node auto-repair is off
//        for managed node groups unless enabled)
//   GKE  cloud.google.com/kubernetes-engine/versioning ("x.y.z-gke.N": the upstream version plus a
//        GKE patch number); how-to/node-auto-repair (on by default, NotReady ~10 minutes)
//   AKS  learn.microsoft.com/azure/aks/supported-kubernetes-versions (AKS reports the upstream
//        [major].[minor].[patch] as is); node-auto-repair (on, unhealthy at least five minutes)
// upstream: pkg/controller/nodelifecycle/node_lifecycle_controller.go (the grace period stays 50s)
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { KubeObject } from '../api/types';
import { createCluster, loadScenario } from '../scenario';
import { ScenarioError } from '../scenario/errors';
import { ConsoleSession } from '../kubectl/console';
import { buildCpModel } from '../observe/controlplane';
import { buildView } from '../observe/cluster-map';
import { apiServerURL, kubeletGitVersion, NODE_REPAIR, responsibilities, serverGitVersion } from './managed';

function scenario(managed: string, extra = '', pools = ''): string {
  return `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: managed }
spec:
  controlPlane: { managed: ${managed}${extra} }
  nodePools:
    - name: general
      count: 2
${pools}`;
}

function lab(managed: string) {
  const { cluster } = createCluster(scenario(managed));
  cluster.runUntil(20_000);
  return { cluster, con: new ConsoleSession(cluster) };
}

function loadErrors(text: string): string {
  try {
    loadScenario(text, 'scenario.yaml');
  } catch (e) {
    if (e instanceof ScenarioError) return e.message;
    throw e;
  }
  return '';
}

describe('provider version strings', () => {
  it('EKS: v1.35.0-eks-<7 hex>, a different build for the control plane and the node AMI', () => {
    const server = serverGitVersion('eks', 'v1.35.0');
    const kubelet = kubeletGitVersion('eks', 'v1.35.0');
    expect(server).toMatch(/^v1\.35\.0-eks-[0-9a-f]{7}$/);
    expect(kubelet).toMatch(/^v1\.35\.0-eks-[0-9a-f]{7}$/);
    expect(server).not.toBe(kubelet);
    // Stable: the same version gives the same build on every run.
    expect(serverGitVersion('eks', 'v1.35.0')).toBe(server);
  });
  it('GKE: v1.35.0-gke.<N>, the same on the control plane and the nodes', () => {
    expect(serverGitVersion('gke', 'v1.35.0')).toMatch(/^v1\.35\.0-gke\.\d+00$/);
    expect(kubeletGitVersion('gke', 'v1.35.0')).toBe(serverGitVersion('gke', 'v1.35.0'));
  });
  it('AKS and kubeadm: the upstream version as is', () => {
    expect(serverGitVersion('aks', 'v1.35.0')).toBe('v1.35.0');
    expect(kubeletGitVersion('aks', 'v1.33.4')).toBe('v1.33.4');
    expect(serverGitVersion(undefined, 'v1.35')).toBe('v1.35.0');
    expect(kubeletGitVersion(undefined, 'v1.35.0')).toBe('v1.35.0');
  });
  it('a version already in the provider style is kept', () => {
    expect(kubeletGitVersion('eks', 'v1.34.2-eks-0a1b2c3')).toBe('v1.34.2-eks-0a1b2c3');
  });
});

describe('an EKS cluster', () => {
  it('kubectl version shows the EKS build as the Server Version; the client stays upstream', () => {
    const { con } = lab('eks');
    const out = con.exec('kubectl version').stdout;
    expect(out).toMatch(
      /^Client Version: v1\.35\.0\nKustomize Version: v5\.7\.1\nServer Version: v1\.35\.0-eks-[0-9a-f]{7}\n$/
    );
  });
  it('each node reports the EKS kubelet build and its managed node group label', () => {
    const { cluster } = lab('eks');
    const nodes = cluster.api.list<KubeObject>('Node');
    expect(nodes.map((n) => n.metadata.name)).toEqual(['general-1', 'general-2']);
    for (const n of nodes) {
      const info = (n.status as { nodeInfo: { kubeletVersion: string } }).nodeInfo;
      expect(info.kubeletVersion).toBe(kubeletGitVersion('eks', 'v1.35.0'));
      expect(n.metadata.labels?.['eks.amazonaws.com/nodegroup']).toBe('general');
      expect(n.metadata.labels?.['eks.amazonaws.com/capacityType']).toBe('ON_DEMAND');
    }
  });
  it('kubectl cluster-info names the EKS endpoint', () => {
    // docs.aws.amazon.com/cli/latest/reference/eks/describe-cluster.html (its example output):
    // the endpoint is https://<32 hex>.gr7.<region>.eks.amazonaws.com
    const { con } = lab('eks');
    expect(con.exec('kubectl cluster-info').stdout).toMatch(
      /^Kubernetes control plane is running at https:\/\/[0-9A-F]{32}\.gr7\.us-east-1\.eks\.amazonaws\.com\n/
    );
    expect(apiServerURL('aks', 1)).toMatch(
      /^https:\/\/nodeplane-dns-[0-9a-f]{8}\.hcp\.eastus\.azmk8s\.io:443$/
    );
    expect(apiServerURL('gke', 1)).toMatch(/^https:\/\/34\.\d+\.\d+\.\d+$/);
    expect(apiServerURL('eks', 7)).toBe(apiServerURL('eks', 7));
  });
  it('has no control-plane hosts: ssh does not resolve them, with the lab note', () => {
    const { con } = lab('eks');
    expect(con.exec('ssh control-plane-1')).toEqual({
      stdout: '',
      stderr:
        'ssh: Could not resolve hostname control-plane-1: Name or service not known\n' +
        "note: Amazon EKS runs this cluster's control plane on machines you cannot log in to; ssh reaches your worker nodes (kubectl get nodes lists them).\n",
      exitCode: 255
    });
    // Any other unknown name gets OpenSSH's line alone.
    expect(con.exec('ssh nope').stderr).toBe(
      'ssh: Could not resolve hostname nope: Name or service not known\n'
    );
  });
  it('runs no static pods: kube-system has no kube-apiserver, etcd, scheduler or controller-manager pods', () => {
    const { cluster } = lab('eks');
    const names = cluster.api
      .list<KubeObject>('Pod', { namespace: 'kube-system' })
      .map((p) => p.metadata.name);
    expect(
      names.filter((n) => /^(kube-apiserver|etcd|kube-scheduler|kube-controller-manager)-/.test(n))
    ).toEqual([]);
  });
  it('a worker node has no etcdctl and no /etc/kubernetes/manifests to edit', () => {
    const { con } = lab('eks');
    expect(con.exec('ssh general-1').exitCode).toBe(0);
    expect(con.exec('etcdctl member list').exitCode).toBe(127);
  });
  it('refuses control-plane faults and keeps the node faults', () => {
    const { cluster } = lab('eks');
    for (const action of [
      'StopEtcdMember',
      'StopScheduler',
      'StopControllerManager',
      'ResizeControlPlane',
      'AddApiServer'
    ])
      expect(() => cluster.applyFault(action, { target: 'etcd-0' })).toThrow(
        `${action} acts on the control plane, which Amazon EKS runs for this cluster: it is not yours to stop or resize`
      );
    expect(cluster.etcd.runningCount()).toBe(1);
    cluster.applyFault('StopKubelet', { target: 'general-1' });
    expect(cluster.faultLog.map((f) => f.action)).toEqual(['StopKubelet']);
  });
  it("the node-monitor grace period stays upstream's: NotReady 50 s after the kubelet stops", () => {
    const { cluster } = lab('eks');
    expect(cluster.config.controllerManager.nodeMonitorGracePeriod).toBe(50_000);
    cluster.applyFault('StopKubelet', { target: 'general-2' });
    cluster.runUntil(80_000);
    const nr = cluster.eventLog.find((e) => e.reason === 'NodeNotReady' && e.object === 'Node/general-2');
    expect(nr).toBeDefined();
    // Last heartbeat within 10 s before the stop, NotReady at the first monitor pass after 50 s.
    expect(nr!.t).toBeGreaterThanOrEqual(20_000 + 40_000);
    expect(nr!.t).toBeLessThanOrEqual(20_000 + 55_000);
  });
  it('the control-plane model says who owns what and offers no sizing actions', () => {
    const { cluster } = lab('eks');
    const cp = buildCpModel(cluster);
    expect(cp.actions).toEqual([]);
    expect(cp.managed).toMatchObject({
      provider: 'eks',
      name: 'Amazon EKS',
      poolLabel: 'eks.amazonaws.com/nodegroup',
      poolKind: 'managed node group',
      nodeRepair: { byDefault: false }
    });
    expect(cp.managed!.serverVersion).toBe(serverGitVersion('eks', 'v1.35.0'));
    const owner = Object.fromEntries(cp.managed!.responsibilities.map((r) => [r.id, r.owner]));
    expect(owner).toMatchObject({
      controlPlaneHosts: 'provider',
      etcdBackups: 'provider',
      controlPlaneSizing: 'provider',
      workerNodes: 'you',
      nodeUpgrades: 'you',
      nodeRepair: 'you',
      workloadBackups: 'you'
    });
  });
  it("the cluster map marks the control plane as the provider's", () => {
    const { cluster } = lab('eks');
    expect(buildView(cluster).controlPlane.managed).toBe('eks');
  });
});

describe('GKE and AKS', () => {
  it('GKE nodes carry cloud.google.com/gke-nodepool and the GKE build', () => {
    const { cluster, con } = lab('gke');
    const n = cluster.api.get<KubeObject>('Node', undefined, 'general-1');
    expect(n.metadata.labels?.['cloud.google.com/gke-nodepool']).toBe('general');
    expect(con.exec('kubectl get node general-1').stdout).toContain(serverGitVersion('gke', 'v1.35.0'));
  });
  it('AKS nodes carry kubernetes.azure.com/agentpool and a plain version', () => {
    const { cluster, con } = lab('aks');
    const n = cluster.api.get<KubeObject>('Node', undefined, 'general-1');
    expect(n.metadata.labels?.['kubernetes.azure.com/agentpool']).toBe('general');
    expect(n.metadata.labels?.agentpool).toBe('general');
    expect(con.exec('kubectl version').stdout).toContain('Server Version: v1.35.0\n');
  });
  it('AKS: the first pool is the system pool, which needs at least two nodes', () => {
    // learn.microsoft.com/azure/aks/use-system-pools: every AKS cluster has at least one system
    // node pool; the pool created with the cluster is one.
    const { cluster } = lab('aks');
    const n = cluster.api.get<KubeObject>('Node', undefined, 'general-1');
    expect(n.metadata.labels?.['kubernetes.azure.com/mode']).toBe('system');
    expect(loadErrors(scenario('aks').replace('count: 2', 'count: 1'))).toContain(
      'spec.nodePools[0].count: Invalid value: 1: an AKS system node pool must have at least 2 nodes'
    );
  });
  it('node upgrades and auto-repair: GKE upgrades and repairs its pools, AKS repairs, EKS leaves both to you', () => {
    const own = (p: 'eks' | 'gke' | 'aks') =>
      Object.fromEntries(responsibilities(p).map((r) => [r.id, r.owner]));
    expect([own('eks').nodeUpgrades, own('gke').nodeUpgrades, own('aks').nodeUpgrades]).toEqual([
      'you',
      'provider',
      'you'
    ]);
    expect([own('eks').nodeRepair, own('gke').nodeRepair, own('aks').nodeRepair]).toEqual([
      'you',
      'provider',
      'provider'
    ]);
    expect(NODE_REPAIR.gke.afterMinutes).toBe(10);
    expect(NODE_REPAIR.aks.afterMinutes).toBe(5);
  });
});

describe('scenario checks', () => {
  it('a managed control plane takes no apiServers, etcd or machine settings', () => {
    expect(loadErrors(scenario('eks', ', etcd: { members: 3 }'))).toContain(
      'spec.controlPlane.etcd: Forbidden: Amazon EKS runs and sizes the control plane of a managed cluster; leave out apiServers, etcd and machine'
    );
  });
  it('control-plane faults are refused with the fault named', () => {
    const text = scenario('eks') + '  faults:\n    - { at: 10s, action: StopEtcdMember, target: etcd-0 }\n';
    expect(loadErrors(text)).toContain(
      'spec.faults[0].action: Invalid value: "StopEtcdMember": acts on the control plane, which Amazon EKS runs in a managed cluster: its faults are not offered'
    );
  });
  it('a node pool of another provider is refused', () => {
    const pools = '    - name: other\n      count: 1\n      provider: { flavour: gke }\n';
    expect(loadErrors(scenario('eks', '', pools))).toContain(
      'spec.nodePools[1].provider.flavour: Invalid value: "gke": in a cluster run by Amazon EKS, the node pools are managed node groups (flavour eks)'
    );
  });
  it('an unknown provider is refused by the schema', () => {
    expect(loadErrors(scenario('openshift'))).toContain('spec.controlPlane.managed');
  });
  it("lesson 19's scenario loads as an EKS cluster", () => {
    const s = loadScenario(
      readFileSync('lessons/19-managed-or-self-managed/scenario.yaml', 'utf8'),
      'scenario.yaml'
    );
    expect(s.config.managed).toBe('eks');
    expect(s.nodes.map((n) => n.labels?.['eks.amazonaws.com/nodegroup'])).toEqual([
      'general',
      'general',
      'general',
      'batch'
    ]);
  });
});
