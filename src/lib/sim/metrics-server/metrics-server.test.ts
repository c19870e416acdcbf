// upstream: kubernetes-sigs/metrics-server manifests/base/deployment.yaml, service.yaml, apiservice.yaml (components.yaml v0.8.0)
// upstream: kubernetes-sigs/metrics-server pkg/storage/node.go, pod.go, types.go (last two points, CPU rate, window)
// upstream: kubernetes-sigs/metrics-server pkg/api/node.go, pod.go (NodeMetrics / PodMetrics, nodemetrics.metrics.k8s.io not found)
// upstream: kubernetes-sigs/metrics-server pkg/api/table.go (kubectl get: NAME CPU MEMORY WINDOW)
// upstream: staging/src/k8s.io/kube-aggregator/pkg/controllers/status/remote/remote_available_controller.go
// upstream: staging/src/k8s.io/kube-aggregator/pkg/registry/apiservice/etcd/etcd.go (NAME SERVICE AVAILABLE AGE)
// upstream: staging/src/k8s.io/client-go/discovery/aggregated_discovery.go (stale group versions are dropped)
// upstream: staging/src/k8s.io/kubectl/pkg/cmd/top/top_node.go, top_pod.go, pkg/metricsutil/metrics_printer.go
import { describe, expect, it } from 'vitest';
import { aggregatedGet, aggregatedList, availableCondition } from '../api/aggregator';
import type { KubeObject } from '../api/types';
import { Cluster } from '../cluster';
import { ConsoleSession } from '../kubectl/console';
import { createCluster } from '../scenario';
import {
  METRICS_SERVER_ARGS,
  METRICS_SERVER_IMAGE,
  metricsServerObjects
} from '../scenario/addons/metrics-server';
import { formatNanoCores } from './metrics-server';

function scenario(addon: boolean, extra = ''): string {
  return `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: metrics }
spec:
  seed: 3
${addon ? '  addons: { metricsServer: true }\n' : ''}  nodePools:
    - name: worker
      count: 2
      capacity: { cpu: "2", memory: 4Gi }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 1
  selector: { matchLabels: { app: web } }
  template:
    metadata:
      labels: { app: web }
      annotations:
        nodeplane.dev/memory-usage: "100Mi+1Mi/s"
        nodeplane.dev/cpu-usage: "250m"
    spec:
      nodeSelector: { kubernetes.io/hostname: worker-1 }
      containers:
        - name: web
          image: nginx:1.27
          resources: { requests: { cpu: 100m, memory: 64Mi } }
${extra}`;
}

function lab(addon = true, extra = '') {
  const { cluster } = createCluster(scenario(addon, extra), { fileName: 'metrics.yaml' });
  const con = new ConsoleSession(cluster);
  const run = (line: string) => con.exec(line);
  const apiService = () => cluster.api.get<KubeObject>('APIService', undefined, 'v1beta1.metrics.k8s.io');
  const at = (ms: number) => cluster.advance(ms - cluster.now);
  return { cluster, run, apiService, at };
}

const NOT_AVAILABLE = { stdout: '', stderr: 'error: Metrics API not available\n', exitCode: 1 };
const MI = 2 ** 20;

describe('the metrics-server addon objects (components.yaml v0.8.0)', () => {
  it('Deployment, Service and APIService as the release manifest has them', () => {
    const [svc, deploy, apiService] = metricsServerObjects();
    expect(svc.metadata).toEqual({
      name: 'metrics-server',
      namespace: 'kube-system',
      labels: { 'k8s-app': 'metrics-server' }
    });
    expect(svc.spec).toEqual({
      selector: { 'k8s-app': 'metrics-server' },
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 'https' }]
    });
    const pod = deploy.spec.template.spec;
    expect(deploy.metadata.labels).toEqual({ 'k8s-app': 'metrics-server' });
    expect(deploy.spec.strategy).toEqual({ rollingUpdate: { maxUnavailable: 0 } });
    expect(pod.priorityClassName).toBe('system-cluster-critical');
    expect(pod.containers[0].image).toBe('registry.k8s.io/metrics-server/metrics-server:v0.8.0');
    expect(METRICS_SERVER_IMAGE).toBe(pod.containers[0].image);
    expect(pod.containers[0].args).toEqual([
      '--cert-dir=/tmp',
      '--secure-port=10250',
      '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
      '--kubelet-use-node-status-port',
      '--metric-resolution=15s'
    ]);
    expect(METRICS_SERVER_ARGS).toHaveLength(5);
    expect(pod.containers[0].ports).toEqual([{ containerPort: 10250, name: 'https', protocol: 'TCP' }]);
    expect(pod.containers[0].resources).toEqual({ requests: { cpu: '100m', memory: '200Mi' } });
    expect(pod.containers[0].readinessProbe).toMatchObject({
      httpGet: { path: '/readyz', port: 'https', scheme: 'HTTPS' },
      initialDelaySeconds: 20,
      periodSeconds: 10
    });
    expect(apiService).toMatchObject({
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: {
        service: { name: 'metrics-server', namespace: 'kube-system' },
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        insecureSkipTLSVerify: true,
        groupPriorityMinimum: 100,
        versionPriority: 100
      }
    });
  });

  it('prints CPU as resource.Quantity does at scale -9', () => {
    expect(formatNanoCores(250_000_000)).toBe('250m');
    expect(formatNanoCores(2_000_000_000)).toBe('2');
    expect(formatNanoCores(105_698_795)).toBe('105698795n');
    expect(formatNanoCores(1_500)).toBe('1500n');
    expect(formatNanoCores(12_000)).toBe('12u');
    expect(formatNanoCores(0)).toBe('0');
  });
});

describe('kubectl without metrics-server', () => {
  it('top says the Metrics API is not available; nothing lists metrics.k8s.io', () => {
    const { run, at } = lab(false);
    at(60_000);
    expect(run('kubectl top nodes')).toEqual(NOT_AVAILABLE);
    expect(run('kubectl top pods -A')).toEqual(NOT_AVAILABLE);
    expect(run('kubectl api-resources --api-group=metrics.k8s.io')).toEqual({
      stdout: 'NAME   SHORTNAMES   APIVERSION   NAMESPACED   KIND\n',
      stderr: '',
      exitCode: 0
    });
    expect(run('kubectl get apiservices').stderr).toBe('No resources found\n');
  });
});

describe('metrics-server behind kube-aggregator', () => {
  it('the APIService is Available only once the pod is Ready; until then discovery drops the stale group', () => {
    const { run, apiService, at } = lab();
    at(5_000);
    // The pod runs, but readiness waits for initialDelaySeconds: 20.
    expect(availableCondition(apiService())).toMatchObject({
      type: 'Available',
      status: 'False',
      reason: 'MissingEndpoints',
      message:
        'endpointslices for service/metrics-server in "kube-system" have no addresses with port name "https"'
    });
    expect(run('kubectl get apiservices').stdout).toBe(
      'NAME                     SERVICE                      AVAILABLE                  AGE\n' +
        'v1beta1.metrics.k8s.io   kube-system/metrics-server   False (MissingEndpoints)   5s\n'
    );
    expect(run('kubectl top nodes')).toEqual(NOT_AVAILABLE);
    const ar = run('kubectl api-resources --api-group=metrics.k8s.io');
    expect(ar.stderr).toBe(
      'error: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1\n'
    );
    expect(ar.exitCode).toBe(1);
    at(30_000);
    expect(availableCondition(apiService())).toMatchObject({
      status: 'True',
      reason: 'Passed',
      message: 'all checks passed'
    });
    expect(run('kubectl get apiservices').stdout).toBe(
      'NAME                     SERVICE                      AVAILABLE   AGE\n' +
        'v1beta1.metrics.k8s.io   kube-system/metrics-server   True        30s\n'
    );
    expect(run('kubectl api-resources --api-group=metrics.k8s.io').stdout).toBe(
      'NAME    SHORTNAMES   APIVERSION               NAMESPACED   KIND\n' +
        'nodes                metrics.k8s.io/v1beta1   false        NodeMetrics\n' +
        'pods                 metrics.k8s.io/v1beta1   true         PodMetrics\n'
    );
  });

  it('NodeMetrics and PodMetrics have the upstream shape: timestamp, window, usage', () => {
    const { cluster, at } = lab();
    at(60_000);
    const [node] = aggregatedList(cluster.api, 'NodeMetrics').filter((m) => m.metadata.name === 'worker-1');
    expect(Object.keys(node).sort()).toEqual([
      'apiVersion',
      'kind',
      'metadata',
      'timestamp',
      'usage',
      'window'
    ]);
    expect(node.apiVersion).toBe('metrics.k8s.io/v1beta1');
    expect(node.kind).toBe('NodeMetrics');
    expect(node.window).toBe('15s');
    expect(Object.keys(node.usage as object)).toEqual(['cpu', 'memory']);
    expect(node.metadata.labels?.['kubernetes.io/hostname']).toBe('worker-1');
    const pods = aggregatedList(cluster.api, 'PodMetrics', { namespace: 'default' });
    expect(pods).toHaveLength(1);
    const pod = pods[0];
    expect(Object.keys(pod).sort()).toEqual([
      'apiVersion',
      'containers',
      'kind',
      'metadata',
      'timestamp',
      'window'
    ]);
    expect(pod.metadata.namespace).toBe('default');
    expect(pod.metadata.labels).toMatchObject({ app: 'web' });
    expect(pod.window).toBe('15s');
    expect(pod.containers).toEqual([
      { name: 'web', usage: { cpu: '250m', memory: expect.stringMatching(/^\d+(Ki)?$/) } }
    ]);
    expect(() => aggregatedGet(cluster.api, 'PodMetrics', 'default', 'nope')).toThrow('pod "nope" not found');
  });

  it('figures change only at the next scrape (--metric-resolution=15s)', () => {
    const { cluster, run, at } = lab();
    at(60_000);
    const metrics = () => aggregatedList(cluster.api, 'PodMetrics', { namespace: 'default' })[0];
    const memory = () => {
      const q = (metrics().containers as { usage: { memory: string } }[])[0].usage.memory;
      return q.endsWith('Ki') ? Number(q.slice(0, -2)) * 1024 : Number(q);
    };
    const top = () => run('kubectl top pod --no-headers').stdout;
    // Find a scrape: step until the figure moves.
    const m0 = memory();
    let t = cluster.now;
    while (memory() === m0) at((t += 50));
    const scrape = t;
    const shown = memory();
    const before = top();
    expect(before).toBe(`${metrics().metadata.name}   250m   ${Math.floor(shown / MI)}Mi   \n`);
    // The container grows 1Mi/s, but until the next scrape metrics-server keeps its last point.
    at(scrape + 14_900);
    expect(memory()).toBe(shown);
    expect(top()).toBe(before);
    at(scrape + 15_000);
    expect(memory()).toBe(shown + 15 * MI);
    expect(metrics().window).toBe('15s');
    expect(top()).toBe(`${metrics().metadata.name}   250m   ${Math.floor((shown + 15 * MI) / MI)}Mi   \n`);
  });

  it('a new pod gets figures one scrape after it starts; top explains the empty list', () => {
    const { cluster, run, at } = lab();
    at(60_000);
    run('kubectl scale deployment web --replicas=0');
    at(70_000);
    expect(run('kubectl top pods')).toEqual({
      stdout: '',
      stderr: 'No resources found in default namespace.\n',
      exitCode: 0
    });
    run('kubectl scale deployment web --replicas=1');
    at(72_000);
    expect(run('kubectl top pods')).toEqual({
      stdout: '',
      stderr: 'error: metrics not available yet\n',
      exitCode: 1
    });
    const name = cluster.api.list<KubeObject>('Pod', { namespace: 'default' })[0].metadata.name;
    expect(run(`kubectl top pod ${name}`).stderr).toBe(
      `Error from server (NotFound): podmetrics.metrics.k8s.io "default/${name}" not found\n`
    );
    at(100_000);
    expect(run('kubectl top pods').stdout).toMatch(
      new RegExp(`^NAME +CPU\\(cores\\) +MEMORY\\(bytes\\) +\\n${name} +250m +\\d+Mi +\\n$`)
    );
  });

  it('top nodes: usage over allocatable, truncated; a node whose kubelet stopped answering is <unknown>', () => {
    const { cluster, run, at } = lab();
    at(60_000);
    const out = run('kubectl top nodes').stdout.split('\n');
    expect(out[0]).toBe('NAME              CPU(cores)   CPU(%)   MEMORY(bytes)   MEMORY(%)   ');
    const nodes = aggregatedList(cluster.api, 'NodeMetrics');
    // kubeadm's control-plane-1 has a kubelet too, so metrics-server scrapes it like the workers.
    expect(nodes.map((n) => n.metadata.name)).toEqual(['control-plane-1', 'worker-1', 'worker-2']);
    for (const [i, n] of nodes.entries()) {
      const node = cluster.api.get<KubeObject>('Node', undefined, n.metadata.name);
      const cpu = Number(String((n.usage as { cpu: string }).cpu).replace(/m$/, ''));
      const allocCpu =
        Number(String(node.status?.allocatable.cpu).replace(/m$/, '')) *
        (String(node.status?.allocatable.cpu).endsWith('m') ? 1 : 1000);
      expect(out[i + 1]).toMatch(
        new RegExp(`^${n.metadata.name} +${cpu}m +${Math.trunc((cpu / allocCpu) * 100)}% +\\d+Mi +\\d+% +$`)
      );
    }
    cluster.applyFault('StopKubelet', { target: 'worker-2' });
    at(80_000);
    expect(run('kubectl top nodes').stdout.split('\n')[3]).toBe(
      'worker-2          <unknown>    <unknown>   <unknown>       <unknown>   '
    );
    expect(run('kubectl top node worker-2').stderr).toBe(
      'Error from server (NotFound): nodemetrics.metrics.k8s.io "worker-2" not found\n'
    );
  });

  it('deleting the metrics-server pod takes the API away until the new pod is Ready, and the new process starts empty', () => {
    const { cluster, run, apiService, at } = lab();
    at(60_000);
    const old = cluster.api.list<KubeObject>('Pod', {
      namespace: 'kube-system',
      labelSelector: 'k8s-app=metrics-server'
    })[0];
    run(`kubectl delete pod -n kube-system ${old.metadata.name}`);
    at(63_000);
    expect(availableCondition(apiService())?.status).toBe('False');
    expect(run('kubectl top nodes')).toEqual(NOT_AVAILABLE);
    at(120_000);
    expect(availableCondition(apiService())?.status).toBe('True');
    expect(run('kubectl top nodes').exitCode).toBe(0);
  });

  it('a snapshot keeps the scrapes: the restored cluster answers top as the original does', () => {
    const { cluster, at } = lab();
    at(50_000);
    const restored = Cluster.restore(cluster.snapshot());
    at(95_000);
    restored.runUntil(95_000);
    const top = (c: Cluster) => new ConsoleSession(c).exec('kubectl top pods -A').stdout;
    expect(top(restored)).toBe(top(cluster));
    expect(aggregatedList(restored.api, 'NodeMetrics')).toEqual(aggregatedList(cluster.api, 'NodeMetrics'));
    expect(top(cluster)).toMatch(/metrics-server-/);
  });

  it('kubectl get reads metrics.k8s.io as discovery has it: nodes.metrics.k8s.io, podmetrics', () => {
    const { run, at } = lab();
    at(5_000);
    // Stale while the APIService is not Available: the name is unknown to kubectl.
    expect(run('kubectl get nodes.metrics.k8s.io').stderr).toBe(
      'error: the server doesn\'t have a resource type "nodes.metrics.k8s.io"\n'
    );
    at(60_000);
    const nodes = run('kubectl get nodes.metrics.k8s.io').stdout.split('\n');
    expect(nodes[0]).toMatch(/^NAME +CPU +MEMORY +WINDOW$/);
    expect(nodes[1]).toMatch(/^control-plane-1 +\d+m +\d+Ki +15s$/);
    expect(nodes[2]).toMatch(/^worker-1 +\d+m +\d+Ki +15s$/);
    // `nodes` alone is still the core resource.
    expect(run('kubectl get nodes').stdout).toMatch(/^NAME +STATUS +ROLES +AGE +VERSION\n/);
    const pods = run('kubectl get podmetrics').stdout.split('\n');
    expect(pods[0]).toMatch(/^NAME +CPU +MEMORY +WINDOW$/);
    expect(pods[1]).toMatch(/^web-[a-z0-9]+-[a-z0-9]+ +250m +\d+Ki +15s$/);
    const system = run('kubectl get podmetrics -n kube-system -o name').stdout.split('\n');
    expect(
      system.filter((l) => /^podmetrics\.metrics\.k8s\.io\/metrics-server-[a-z0-9-]+$/.test(l))
    ).toHaveLength(1);
    // Two workers and control-plane-1 each run a kube-proxy pod.
    expect(system.filter((l) => l.startsWith('podmetrics.metrics.k8s.io/kube-proxy-'))).toHaveLength(3);
  });
});
