// kube-system of a managed cluster, as each provider builds it. The providers' documents:
//   EKS  docs.aws.amazon.com/eks/latest/userguide/eks-networking-add-ons.html (the VPC CNI,
//        kube-proxy and CoreDNS are installed by default, self-managed unless created from the
//        console); coredns-autoscaling.html ("a Deployment of two replicas of the CoreDNS image …
//        regardless of the number of nodes"); the VPC CNI's manifest aws/amazon-vpc-cni-k8s
//        config/master/aws-k8s-cni.yaml (DaemonSet aws-node)
//   GKE  cloud.google.com/kubernetes-engine/docs/concepts/kube-dns (kube-dns is the default DNS
//        provider of Standard clusters, scaled by kube-dns-autoscaler); concepts/dataplane-v2
//        (anetd only with Dataplane V2, on by default in Autopilot only)
//   AKS  learn.microsoft.com/azure/aks/coredns-autoscale (coredns, coredns-autoscaler);
//        configure-kube-proxy (the AKS-managed kube-proxy DaemonSet);
//        use-metrics-server-vertical-pod-autoscaler (metrics-server, two pods);
//        troubleshoot/azure/azure-kubernetes/connectivity/tcp-timeouts-kubetctl-third-party-tools-connect-api-server
//        (konnectivity-agent); use-system-pools (system pods prefer kubernetes.azure.com/mode=system)
// upstream: cluster/addons/dns-horizontal-autoscaler/dns-horizontal-autoscaler.yaml (linear
//   default-params 256 cores / 16 nodes per replica, preventSinglePointFailure) and
//   kubernetes-sigs/cluster-proportional-autoscaler pkg/autoscaler/controller/linearcontroller
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { createCluster, loadScenario } from '../scenario';
import { ScenarioError } from '../scenario/errors';
import { ConsoleSession } from '../kubectl/console';
import { buildCpModel } from '../observe/controlplane';
import { linearReplicas, KUBE_DNS_AUTOSCALER_PARAMS, AWS_NODE_IMAGE } from './managed-addons';
import { managedInfo, PROVIDER_ADDONS, responsibilities } from './managed';

function scenario(managed: string, { pools = '', extra = '' } = {}): string {
  return `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: managed }
spec:
  controlPlane: { managed: ${managed} }
${extra}  nodePools:
    - name: general
      count: 3
      capacity: { cpu: "4", memory: 16Gi }
${pools}`;
}

function lab(text: string, until = 60_000) {
  const { cluster } = createCluster(text);
  cluster.runUntil(until);
  const con = new ConsoleSession(cluster);
  const run = (cmd: string) => con.exec(cmd).stdout;
  return { cluster, run };
}

function names(cluster: ReturnType<typeof lab>['cluster'], kind: string): string[] {
  return cluster.api
    .list<KubeObject>(kind, { namespace: 'kube-system' })
    .map((o) => o.metadata.name)
    .sort();
}

describe('EKS: the VPC CNI, kube-proxy and CoreDNS', () => {
  it('kubectl get ds -A shows aws-node and kube-proxy on every node; no Calico', () => {
    const { run, cluster } = lab(scenario('eks'));
    expect(run('kubectl get ds -A')).toBe(
      [
        'NAMESPACE     NAME         DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR            AGE',
        'kube-system   aws-node     3         3         3       3            3           <none>                   60s',
        'kube-system   kube-proxy   3         3         3       3            3           kubernetes.io/os=linux   60s',
        ''
      ].join('\n')
    );
    expect(names(cluster, 'Deployment')).toEqual(['coredns']);
    const pods = run('kubectl get pods -n kube-system');
    expect(pods).not.toContain('calico');
    expect(pods.match(/^aws-node-\S+ +1\/1 +Running/gm)).toHaveLength(3);
  });

  it('CoreDNS runs two replicas whatever the node count, with EKS labels and image', () => {
    const { cluster } = lab(scenario('eks'));
    const d = cluster.api.get<KubeObject>('Deployment', 'kube-system', 'coredns');
    expect(d.spec.replicas).toBe(2);
    expect(d.status?.readyReplicas).toBe(2);
    expect(d.metadata.labels?.['eks.amazonaws.com/component']).toBe('coredns');
    expect(d.spec.template.spec.containers[0].image).toBe(
      '602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/coredns:v1.12.4-eksbuild.1'
    );
    const svc = cluster.api.get<KubeObject>('Service', 'kube-system', 'kube-dns');
    expect(svc.metadata.labels?.['eks.amazonaws.com/component']).toBe('kube-dns');
  });

  it("aws-node is the VPC CNI's DaemonSet; kube-proxy is EKS's minimal build", () => {
    const { cluster } = lab(scenario('eks'));
    const aws = cluster.api.get<KubeObject>('DaemonSet', 'kube-system', 'aws-node');
    const spec = aws.spec.template.spec;
    expect(aws.metadata.labels).toEqual({ 'k8s-app': 'aws-node' });
    expect(spec.hostNetwork).toBe(true);
    expect(spec.priorityClassName).toBe('system-node-critical');
    expect(spec.tolerations).toEqual([{ operator: 'Exists' }]);
    // The API server defaults maxSurge to 0 (pkg/apis/apps/v1/defaults.go).
    expect(aws.spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 }
    });
    expect(spec.containers[0]).toMatchObject({
      name: 'aws-node',
      image: AWS_NODE_IMAGE,
      ports: [{ containerPort: 61678, name: 'metrics' }]
    });
    const kp = cluster.api.get<KubeObject>('DaemonSet', 'kube-system', 'kube-proxy');
    expect(kp.metadata.labels?.['eks.amazonaws.com/component']).toBe('kube-proxy');
    expect(kp.spec.template.spec.containers[0].image).toBe(
      '602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/kube-proxy:v1.35.0-minimal-eksbuild.1'
    );
  });

  it('a scenario that names its own CNI gets that CNI instead of aws-node', () => {
    const { cluster } = lab(scenario('eks', { extra: '  network: { cni: cilium }\n' }));
    expect(names(cluster, 'DaemonSet')).toEqual(['cilium', 'kube-proxy']);
  });
});

describe('GKE Standard: kube-dns, no kube-proxy DaemonSet', () => {
  it('kube-dns (kubedns, dnsmasq, sidecar) and kube-dns-autoscaler; no CoreDNS, no anetd', () => {
    const { cluster, run } = lab(scenario('gke'));
    expect(names(cluster, 'Deployment')).toEqual(['kube-dns', 'kube-dns-autoscaler']);
    // kube-proxy is a static pod on GKE nodes, and Dataplane V2 (anetd) is off in Standard.
    expect(names(cluster, 'DaemonSet')).toEqual([]);
    const d = cluster.api.get<KubeObject>('Deployment', 'kube-system', 'kube-dns');
    expect(d.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual([
      'kubedns',
      'dnsmasq',
      'sidecar'
    ]);
    expect(run('kubectl get pods -n kube-system')).toMatch(/^kube-dns-[a-z0-9]+-[a-z0-9]{5} +3\/3 +Running/m);
    const autoscaler = cluster.api.get<KubeObject>('Deployment', 'kube-system', 'kube-dns-autoscaler');
    expect(autoscaler.spec.template.spec.containers[0].command).toContain(
      '--default-params={"linear":{"coresPerReplica":256,"nodesPerReplica":16,"preventSinglePointFailure":true}}'
    );
    expect(run('kubectl get svc kube-dns -n kube-system')).toContain('53/UDP,53/TCP');
  });

  it('kube-dns replicas are what the linear autoscaler gives: never one on more than one node', () => {
    const { cluster } = lab(scenario('gke'));
    expect(cluster.api.get<KubeObject>('Deployment', 'kube-system', 'kube-dns').spec.replicas).toBe(2);
    const p = KUBE_DNS_AUTOSCALER_PARAMS;
    expect(linearReplicas(1, 4, p)).toBe(1);
    expect(linearReplicas(3, 12, p)).toBe(2);
    expect(linearReplicas(40, 160, p)).toBe(3);
    expect(linearReplicas(10, 1000, p)).toBe(4);
  });

  it('the kube-proxy process still runs on every node (it is not a DaemonSet pod there)', () => {
    const { cluster } = lab(scenario('gke'));
    expect(cluster.componentsOfKind('kube-proxy').map((c) => c.id)).toEqual([
      'kube-proxy/general-1',
      'kube-proxy/general-2',
      'kube-proxy/general-3'
    ]);
  });
});

describe('AKS: CoreDNS and its autoscaler, kube-proxy, metrics-server, konnectivity-agent', () => {
  it('kube-system has the AKS add-ons, and kubectl top works without enabling anything', () => {
    const { cluster, run } = lab(scenario('aks'), 90_000);
    expect(names(cluster, 'Deployment')).toEqual([
      'coredns',
      'coredns-autoscaler',
      'konnectivity-agent',
      'metrics-server'
    ]);
    expect(names(cluster, 'DaemonSet')).toEqual(['cloud-node-manager', 'kube-proxy']);
    expect(cluster.api.get<KubeObject>('Deployment', 'kube-system', 'metrics-server').spec.replicas).toBe(2);
    expect(cluster.api.get<KubeObject>('Deployment', 'kube-system', 'coredns').spec.replicas).toBe(2);
    expect(run('kubectl top nodes')).toMatch(/^NAME +CPU\(cores\) +CPU\(%\) +MEMORY\(bytes\) +MEMORY\(%\)/);
  });

  it('metrics-server stays off when the scenario turns it off', () => {
    const { cluster } = lab(scenario('aks', { extra: '  addons: { metricsServer: false }\n' }));
    expect(names(cluster, 'Deployment')).not.toContain('metrics-server');
  });

  it('the add-on Deployments prefer the system pool and tolerate its CriticalAddonsOnly taint', () => {
    const pools = `    - name: apps
      count: 2
      capacity: { cpu: "4", memory: 16Gi }
`;
    const sys = scenario('aks', { pools }).replace(
      'capacity: { cpu: "4", memory: 16Gi }\n    - name: apps',
      'capacity: { cpu: "4", memory: 16Gi }\n      taints: [{ key: CriticalAddonsOnly, value: "true", effect: NoSchedule }]\n    - name: apps'
    );
    const { cluster } = lab(sys, 90_000);
    const pods = cluster.api.list<KubeObject>('Pod', { namespace: 'kube-system' });
    for (const name of ['coredns', 'coredns-autoscaler', 'konnectivity-agent', 'metrics-server']) {
      const d = cluster.api.get<KubeObject>('Deployment', 'kube-system', name);
      expect(
        d.spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution
      ).toEqual([
        {
          weight: 100,
          preference: {
            matchExpressions: [{ key: 'kubernetes.azure.com/mode', operator: 'In', values: ['system'] }]
          }
        }
      ]);
      expect(d.spec.template.spec.tolerations).toContainEqual({
        key: 'CriticalAddonsOnly',
        operator: 'Exists'
      });
      const own = pods.filter((p) => new RegExp(`^${name}-[a-z0-9]+-[a-z0-9]{5}$`).test(p.metadata.name));
      expect(own.length).toBeGreaterThan(0);
      for (const p of own) expect(p.spec.nodeName).toMatch(/^general-/);
    }
  });
});

describe('AKS system node pools (learn.microsoft.com/azure/aks/use-system-pools)', () => {
  it('the system pool gets kubernetes.azure.com/mode=system and no taint unless you add CriticalAddonsOnly', () => {
    const { cluster } = lab(scenario('aks'));
    const n = cluster.api.get<KubeObject>('Node', undefined, 'general-1');
    expect(n.metadata.labels?.['kubernetes.azure.com/mode']).toBe('system');
    expect(n.spec?.taints ?? []).toEqual([]);
  });

  it('a cluster whose pools are all user pools is refused, naming the field', () => {
    const text = scenario('aks').replace('      count: 3', '      count: 3\n      provider: { mode: user }');
    let message = '';
    try {
      loadScenario(text, 'aks.yaml');
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      message = e.message;
    }
    expect(message).toContain(
      'spec.nodePools: Required value: an AKS cluster needs at least one system node pool (provider.mode: system)'
    );
  });
});

describe('the ownership panel names the provider’s add-ons', () => {
  it('lists them per provider; GKE and AKS keep them reconciled, on EKS they are yours', () => {
    expect(managedInfo('eks', 'v1.35.0').addons).toEqual([
      { name: 'aws-node', kind: 'DaemonSet' },
      { name: 'kube-proxy', kind: 'DaemonSet' },
      { name: 'coredns', kind: 'Deployment' }
    ]);
    expect(managedInfo('gke', 'v1.35.0').addons.map((a) => a.name)).toEqual([
      'kube-dns',
      'kube-dns-autoscaler'
    ]);
    expect(managedInfo('aks', 'v1.35.0').addons.map((a) => a.name)).toEqual([
      'coredns',
      'coredns-autoscaler',
      'kube-proxy',
      'metrics-server',
      'konnectivity-agent',
      'cloud-node-manager'
    ]);
    const owner = (p: 'eks' | 'gke' | 'aks') => responsibilities(p).find((r) => r.id === 'addons')?.owner;
    expect([owner('eks'), owner('gke'), owner('aks')]).toEqual(['you', 'provider', 'provider']);
    expect(managedInfo('eks', 'v1.35.0').addonsReconciled).toBe(false);
    for (const p of ['eks', 'gke', 'aks'] as const)
      for (const a of PROVIDER_ADDONS[p])
        expect(a.doc).toMatch(/^(docs\.aws|cloud\.google|learn\.microsoft|github)\./);
  });

  it('every add-on the panel lists is in kube-system of a running cluster of that provider', () => {
    for (const p of ['eks', 'gke', 'aks'] as const) {
      const { cluster } = lab(scenario(p));
      const cp = buildCpModel(cluster);
      for (const a of cp.managed?.addons ?? [])
        expect(cluster.api.tryGet(a.kind, 'kube-system', a.name), `${p} ${a.name}`).toBeTruthy();
    }
  });
});
