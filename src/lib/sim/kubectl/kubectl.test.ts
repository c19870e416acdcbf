import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import type { KubeObject } from '../api/types';
import { ConsoleSession } from './console';
import { goldenCluster } from './testing/goldenCluster';

/* eslint-disable @typescript-eslint/no-explicit-any */

const TEMPLATE = {
  selector: { matchLabels: { app: 'proxy' } },
  template: {
    metadata: { labels: { app: 'proxy' } },
    spec: { containers: [{ name: 'p', image: 'proxy:1' }] }
  }
};

function fresh() {
  const cluster = new Cluster();
  const session = new ConsoleSession(cluster, {
    files: {
      'web.yaml':
        'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n'
    }
  });
  return { cluster, session, run: (l: string) => session.exec(l) };
}

function addNode(cluster: Cluster, name: string, extra: any = {}): KubeObject {
  return cluster.api.create<KubeObject>({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: {},
    status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.35.0' } },
    ...extra
  });
}

function addPod(cluster: Cluster, name: string, node: string | undefined, extra: any = {}): KubeObject {
  return cluster.api.create<KubeObject>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: extra.namespace ?? 'default',
      labels: extra.labels ?? {},
      ownerReferences: extra.owner
    },
    spec: {
      ...(node ? { nodeName: node } : {}),
      containers: [{ name: 'c', image: 'nginx:1.27' }],
      volumes: extra.volumes
    },
    status: { phase: 'Running' }
  });
}

describe('kubectl get', () => {
  const s = new ConsoleSession(goldenCluster());
  it('accepts short names, plurals and type/name', () => {
    expect(s.exec('kubectl get no worker-1').stdout).toBe(
      'NAME       STATUS   ROLES    AGE     VERSION\nworker-1   Ready    <none>   5m50s   v1.35.0\n'
    );
    expect(s.exec('kubectl get nodes/worker-3').stdout).toContain('worker-3   Ready,SchedulingDisabled');
    expect(s.exec('kubectl get lease -n kube-node-lease cp-1').stdout).toBe(
      'NAME   HOLDER   AGE\ncp-1   cp-1     5m50s\n'
    );
  });
  it('prints kubectl errors for unknown types and missing objects', () => {
    expect(s.exec('kubectl get foo')).toEqual({
      stdout: '',
      stderr: 'error: the server doesn\'t have a resource type "foo"\n',
      exitCode: 1
    });
    expect(s.exec('kubectl get po x').stderr).toBe('Error from server (NotFound): pods "x" not found\n');
    expect(s.exec('kubectl get pods -n kube-public').stderr).toBe(
      'No resources found in kube-public namespace.\n'
    );
  });
  it('filters by label and field selectors and sorts', () => {
    expect(s.exec('kubectl get pods -l app=web -o name').stdout).toBe(
      'pod/web-7c5ddbdf54-2xkqp\npod/web-7c5ddbdf54-9vmtn\npod/web-7c5ddbdf54-m5jzr\npod/web-7c5ddbdf54-qz8fw\n'
    );
    expect(s.exec('kubectl get pods -A --field-selector spec.nodeName=worker-2 -o name').stdout).toBe(
      'pod/web-7c5ddbdf54-m5jzr\npod/kube-proxy-h4d8w\n'
    );
    expect(
      s.exec(
        'kubectl get pods -l app=web --sort-by=.metadata.creationTimestamp -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName'
      ).stdout
    ).toBe(
      'NAME                   NODE\nweb-7c5ddbdf54-2xkqp   worker-1\nweb-7c5ddbdf54-9vmtn   worker-1\nweb-7c5ddbdf54-m5jzr   worker-2\nweb-7c5ddbdf54-qz8fw   worker-1\n'
    );
  });
  it('shows labels, label columns and several types at once', () => {
    expect(s.exec('kubectl get pod big-batch --show-labels').stdout).toBe(
      'NAME        READY   STATUS    RESTARTS   AGE     LABELS\nbig-batch   0/1     Pending   0          4m50s   app=batch\n'
    );
    expect(s.exec('kubectl get nodes -L kubernetes.io/hostname --no-headers').stdout.split('\n')[0]).toBe(
      'cp-1       Ready                      control-plane   5m50s   v1.35.0   cp-1'
    );
    expect(s.exec('kubectl get no,lease -A').stdout).toContain(
      '5m50s   v1.35.0\n\nNAMESPACE         NAME                                 HOLDER     AGE\nkube-node-lease   lease.coordination.k8s.io/cp-1       cp-1       5m50s\n'
    );
  });
  it('get all prints one table per kind with kind/name', () => {
    const out = s.exec('kubectl get all -n kube-system').stdout;
    expect(out.split('\n\n')).toHaveLength(1);
    expect(out.split('\n')[0]).toBe('NAME                   READY   STATUS    RESTARTS   AGE');
    expect(out.split('\n')[1]).toBe('pod/kube-proxy-7k2xq   1/1     Running   0          5m40s');
  });
  it('jsonpath, json and yaml output', () => {
    expect(s.exec(`kubectl get nodes -o jsonpath={.items[*].metadata.name}`).stdout).toBe(
      'cp-1 worker-1 worker-2 worker-3'
    );
    expect(
      s.exec(`kubectl get node worker-2 -o jsonpath='{.status.conditions[?(@.type=="Ready")].reason}'`).stdout
    ).toBe('NodeStatusUnknown');
    expect(
      s.exec(
        `kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{"\\t"}{.spec.unschedulable}{"\\n"}{end}'`
      ).stdout
    ).toBe('cp-1\t\nworker-1\t\nworker-2\t\nworker-3\ttrue\n');
    const y = s.exec('kubectl get lease cp-1 -n kube-node-lease -o yaml').stdout;
    expect(y.startsWith('apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n')).toBe(true);
    expect(y).toContain('  creationTimestamp: "2026-01-01T00:00:00Z"\n');
    const j = JSON.parse(s.exec('kubectl get lease cp-1 -n kube-node-lease -o json').stdout);
    expect(j.spec.holderIdentity).toBe('cp-1');
    expect(JSON.parse(s.exec('kubectl get leases -n kube-node-lease -o json').stdout).kind).toBe('List');
  });
  it('rejects unknown output formats like kubectl', () => {
    expect(s.exec('kubectl get nodes -o table').stderr).toMatch(
      /^error: unable to match a printer suitable for the output format "table", allowed formats are: /
    );
  });
});

describe('kubectl get -w', () => {
  it('prints changed rows with remembered column widths until stopped', () => {
    const { cluster, run } = fresh();
    addNode(cluster, 'n1');
    const r = run('kubectl get nodes -w');
    expect(r.stdout).toBe('NAME   STATUS   ROLES    AGE   VERSION\nn1     Ready    <none>   0s    v1.35.0\n');
    cluster.advance(65_000);
    cluster.api.patch(
      'Node',
      undefined,
      'n1',
      { spec: { unschedulable: true }, status: {} },
      { component: 'test' }
    );
    expect(r.watch!.poll()).toBe('n1     Ready,SchedulingDisabled   <none>   65s   v1.35.0\n');
    addNode(cluster, 'n2');
    expect(r.watch!.poll()).toBe('n2     Ready                      <none>   0s    v1.35.0\n');
    expect(r.watch!.poll()).toBe('');
    r.watch!.stop();
    addNode(cluster, 'n3');
    expect(r.watch!.poll()).toBe('');
  });
});

describe('kubectl writes', () => {
  it('apply creates, leaves unchanged, configures', () => {
    const { cluster, run, session } = fresh();
    expect(run('kubectl apply -f web.yaml')).toEqual({
      stdout: 'pod/web created\n',
      stderr: '',
      exitCode: 0
    });
    expect(run('kubectl apply -f web.yaml').stdout).toBe('pod/web unchanged\n');
    session.options.files!['web.yaml'] = session.options.files!['web.yaml'].replace('app: web', 'app: web2');
    expect(run('kubectl apply -f web.yaml').stdout).toBe('pod/web configured\n');
    expect(cluster.api.get<KubeObject>('Pod', 'default', 'web').metadata.labels).toEqual({ app: 'web2' });
    expect(run('kubectl create -f web.yaml').stderr).toBe(
      'Error from server (AlreadyExists): pods "web" already exists\n'
    );
    expect(run('kubectl apply -f nope.yaml').stderr).toBe('error: the path "nope.yaml" does not exist\n');
  });
  it('apply -f - reads the editor buffer; edit hands the object to the editor', () => {
    const cluster = new Cluster();
    const s = new ConsoleSession(cluster, {
      editorBuffer: () =>
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: api}\n  template:\n    metadata:\n      labels: {app: api}\n    spec:\n      containers:\n      - name: api\n        image: api:v1\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  a: "1"\n'
    });
    expect(s.exec('kubectl apply -f -').stdout).toBe('deployment.apps/api created\nconfigmap/cfg created\n');
    const e = s.exec('kubectl edit deploy api');
    expect(e.action?.type).toBe('edit');
    expect(e.action?.yaml).toContain('kind: Deployment\n');
    expect(s.exec('kubectl scale deploy/api --replicas=5').stdout).toBe('deployment.apps/api scaled\n');
    expect(cluster.api.get<KubeObject>('Deployment', 'default', 'api').spec.replicas).toBe(5);
  });
  it('delete prints the v1.34 wording and force-deletes with a warning', () => {
    const { cluster, run } = fresh();
    addNode(cluster, 'n1');
    addPod(cluster, 'a', 'n1');
    addPod(cluster, 'b', 'n1');
    expect(run('kubectl delete pod a')).toEqual({
      stdout: 'pod "a" deleted from default namespace\n',
      stderr: '',
      exitCode: 0
    });
    expect(cluster.api.get<KubeObject>('Pod', 'default', 'a').metadata.deletionGracePeriodSeconds).toBe(30);
    const f = run('kubectl delete pod b --grace-period=0 --force');
    expect(f.stdout).toBe('pod "b" force deleted from default namespace\n');
    expect(f.stderr).toBe(
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n'
    );
    expect(cluster.api.tryGet('Pod', 'default', 'b')).toBeUndefined();
    expect(run('kubectl delete node n1').stdout).toBe('node "n1" deleted\n');
    expect(run('kubectl delete pod zz').stderr).toBe('Error from server (NotFound): pods "zz" not found\n');
  });
  it('cordon, uncordon, taint, label and annotate', () => {
    const { cluster, run } = fresh();
    addNode(cluster, 'n1');
    expect(run('kubectl cordon n1').stdout).toBe('node/n1 cordoned\n');
    expect(run('kubectl cordon n1').stdout).toBe('node/n1 already cordoned\n');
    expect(run('kubectl uncordon n1').stdout).toBe('node/n1 uncordoned\n');
    expect(run('kubectl taint nodes n1 dedicated=gpu:NoSchedule').stdout).toBe('node/n1 tainted\n');
    expect(run('kubectl taint nodes n1 dedicated=cpu:NoSchedule').stderr).toBe(
      'error: node n1 already has dedicated taint(s) with same effect(s) and --overwrite is false\n'
    );
    expect(cluster.api.get<KubeObject>('Node', undefined, 'n1').spec.taints).toContainEqual({
      key: 'dedicated',
      value: 'gpu',
      effect: 'NoSchedule'
    });
    expect(run('kubectl taint nodes n1 dedicated:NoSchedule-').stdout).toBe('node/n1 untainted\n');
    expect(run('kubectl taint nodes n1 dedicated-').stderr).toBe('error: taint "dedicated" not found\n');
    expect(run('kubectl label node n1 disk=ssd').stdout).toBe('node/n1 labeled\n');
    expect(run('kubectl label node n1 disk=hdd').stderr).toBe(
      "error: 'disk' already has a value (ssd), and --overwrite is false\n"
    );
    expect(run('kubectl label node n1 disk=hdd --overwrite').stdout).toBe('node/n1 labeled\n');
    expect(run('kubectl label node n1 disk-').stdout).toBe('node/n1 unlabeled\n');
    expect(run('kubectl annotate node n1 team=infra').stdout).toBe('node/n1 annotated\n');
    expect(cluster.api.get<KubeObject>('Node', undefined, 'n1').metadata.annotations).toMatchObject({
      team: 'infra'
    });
  });
});

describe('kubectl drain', () => {
  function drainCluster() {
    const f = fresh();
    addNode(f.cluster, 'n1');
    f.cluster.api.create({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'proxy', namespace: 'kube-system' },
      spec: TEMPLATE
    });
    addPod(f.cluster, 'proxy-x', 'n1', {
      namespace: 'kube-system',
      owner: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'proxy', uid: 'u1', controller: true }]
    });
    addPod(f.cluster, 'web-1', 'n1', {
      labels: { app: 'web' },
      owner: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u2', controller: true }]
    });
    return f;
  }
  it('refuses DaemonSet pods without --ignore-daemonsets', () => {
    const { run } = drainCluster();
    const r = run('kubectl drain n1');
    expect(r.stdout).toBe('node/n1 cordoned\n');
    expect(r.stderr).toBe(
      'error: unable to drain node "n1" due to error: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/proxy-x, continuing command...\nThere are pending nodes to be drained:\n n1\ncannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/proxy-x\n'
    );
    expect(r.exitCode).toBe(1);
  });
  it('evicts with --ignore-daemonsets', () => {
    const { run, cluster } = drainCluster();
    const r = run('kubectl drain n1 --ignore-daemonsets');
    expect(r.stderr).toBe('Warning: ignoring DaemonSet-managed Pods: kube-system/proxy-x\n');
    expect(r.stdout).toBe(
      'node/n1 cordoned\nevicting pod default/web-1\npod/web-1 evicted\nnode/n1 drained\n'
    );
    expect(cluster.api.get<KubeObject>('Pod', 'default', 'web-1').metadata.deletionTimestamp).toBeDefined();
  });
  it('a PodDisruptionBudget with no disruptions left blocks the eviction', () => {
    const { run, cluster } = drainCluster();
    cluster.api.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'default' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
      status: { disruptionsAllowed: 0 }
    });
    const r = run('kubectl drain n1 --ignore-daemonsets');
    expect(r.stderr).toContain(
      `error when evicting pods/"web-1" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.\n`
    );
    expect(r.exitCode).toBe(1);
  });
  it('refuses emptyDir and unmanaged pods unless told', () => {
    const { run, cluster } = fresh();
    addNode(cluster, 'n1');
    addPod(cluster, 'scratch', 'n1', {
      volumes: [{ name: 'tmp', emptyDir: {} }],
      owner: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r', uid: 'u', controller: true }]
    });
    addPod(cluster, 'bare', 'n1');
    expect(run('kubectl drain n1').stderr).toContain(
      'error: unable to drain node "n1" due to error: [cannot delete Pods that declare no controller (use --force to override): default/bare, cannot delete Pods with local storage (use --delete-emptydir-data to override): default/scratch], continuing command...'
    );
    const ok = run('kubectl drain n1 --force --delete-emptydir-data');
    expect(ok.stderr).toBe(
      'Warning: deleting Pods that declare no controller: default/bare\nWarning: deleting Pods with local storage: default/scratch\n'
    );
    expect(ok.stdout).toBe(
      'node/n1 already cordoned\nevicting pod default/bare\npod/bare evicted\nevicting pod default/scratch\npod/scratch evicted\nnode/n1 drained\n'
    );
  });
});

describe('kubectl rollout', () => {
  it('status follows the deployment until rolled out; restart and undo', () => {
    const { cluster, run } = fresh();
    const d = cluster.api.create<KubeObject>({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'web',
        namespace: 'default',
        annotations: { 'deployment.kubernetes.io/revision': '2' }
      },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] }
        }
      },
      status: { observedGeneration: 1, replicas: 3, updatedReplicas: 1, availableReplicas: 1 }
    });
    const r = run('kubectl rollout status deployment/web');
    expect(r.stdout).toBe(
      'Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...\n'
    );
    cluster.api.patch(
      'Deployment',
      'default',
      'web',
      { status: { updatedReplicas: 3, availableReplicas: 2 } },
      { component: 'test' },
      { subresource: 'status' }
    );
    expect(r.watch!.poll()).toBe(
      'Waiting for deployment "web" rollout to finish: 2 of 3 updated replicas are available...\n'
    );
    cluster.api.patch(
      'Deployment',
      'default',
      'web',
      { status: { availableReplicas: 3 } },
      { component: 'test' },
      { subresource: 'status' }
    );
    expect(r.watch!.poll()).toBe('deployment "web" successfully rolled out\n');
    expect(r.watch!.poll()).toBe('');

    cluster.advance(5000);
    expect(run('kubectl rollout restart deploy web').stdout).toBe('deployment.apps/web restarted\n');
    expect(
      cluster.api.get<KubeObject>('Deployment', 'default', 'web').spec.template.metadata.annotations
    ).toEqual({
      'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:05Z'
    });
    cluster.api.create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'web-old',
        namespace: 'default',
        annotations: { 'deployment.kubernetes.io/revision': '1' },
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid!, controller: true }
        ]
      },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web', 'pod-template-hash': 'old' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] }
        }
      }
    });
    expect(run('kubectl rollout undo deployment web').stdout).toBe('deployment.apps/web rolled back\n');
    expect(
      cluster.api.get<KubeObject>('Deployment', 'default', 'web').spec.template.spec.containers[0].image
    ).toBe('nginx:1.27');
  });
});

describe('cluster errors and informational verbs', () => {
  it('without etcd quorum reads and writes fail like the API server', () => {
    const { cluster, run } = fresh();
    cluster.etcd.stop('etcd-0');
    expect(run('kubectl get nodes').stderr).toBe('Error from server: etcdserver: request timed out\n');
    expect(run('kubectl apply -f web.yaml').stderr).toBe(
      'Error from server: etcdserver: request timed out\n'
    );
  });
  it('with every API server down the connection is refused', () => {
    const { cluster, run } = fresh();
    cluster.apiServers[0].running = false;
    expect(run('kubectl get pods').stderr).toBe(
      'The connection to the server 10.0.0.10:6443 was refused - did you specify the right host or port?\n'
    );
  });
  it('version, cluster-info, api-resources, auth can-i, explain', () => {
    const { run } = fresh();
    expect(run('kubectl version').stdout).toBe(
      'Client Version: v1.35.0\nKustomize Version: v5.7.1\nServer Version: v1.35.0\n'
    );
    expect(run('kubectl cluster-info').stdout).toBe(
      "Kubernetes control plane is running at https://10.0.0.10:6443\n\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n"
    );
    const ar = run('kubectl api-resources').stdout.split('\n');
    // apiservices (apiregistration.k8s.io/v1) is always served, so APIVERSION is that wide.
    expect(ar[0]).toBe('NAME                   SHORTNAMES   APIVERSION                  NAMESPACED   KIND');
    expect(ar).toContain('pods                   po           v1                          true         Pod');
    expect(ar).toContain(
      'apiservices                         apiregistration.k8s.io/v1   false        APIService'
    );
    // Without metrics-server nothing serves metrics.k8s.io.
    expect(ar.some((l) => l.includes('metrics.k8s.io'))).toBe(false);
    expect(run('kubectl auth can-i delete nodes').stdout).toBe('yes\n');
    expect(
      run('kubectl explain pod.spec.nodeName').stdout.startsWith(
        'KIND:       Pod\nVERSION:    v1\n\nFIELD: nodeName <string>\n\nDESCRIPTION:\n    NodeName indicates'
      )
    ).toBe(true);
    expect(run('kubectl gett pods').stderr).toBe(
      'error: unknown command "gett" for "kubectl"\n\nDid you mean this?\n\tget\n\n'
    );
  });
  it('top needs a metrics source', () => {
    const { run } = fresh();
    expect(run('kubectl top nodes')).toEqual({
      stdout: '',
      stderr: 'error: Metrics API not available\n',
      exitCode: 1
    });
  });
  it('kubectl events prints Kind/name and repeat counts', () => {
    const cluster = new Cluster();
    const node = addNode(cluster, 'n1');
    cluster.recorder.event(node, 'Warning', 'Rebooted', 'Node n1 has been rebooted', {
      component: 'kubelet',
      host: 'n1'
    });
    cluster.advance(30_000);
    cluster.recorder.event(node, 'Warning', 'Rebooted', 'Node n1 has been rebooted', {
      component: 'kubelet',
      host: 'n1'
    });
    cluster.advance(10_000);
    expect(new ConsoleSession(cluster).exec('kubectl events').stdout).toBe(
      'LAST SEEN           TYPE      REASON     OBJECT    MESSAGE\n10s (x2 over 40s)   Warning   Rebooted   Node/n1   Node n1 has been rebooted\n'
    );
  });
});

describe('kubectl logs', () => {
  it('explains why there is nothing to show', () => {
    const s = new ConsoleSession(goldenCluster());
    expect(s.exec('kubectl logs big-batch')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(s.exec('kubectl logs web-7c5ddbdf54-2xkqp -c nope').stderr).toBe(
      'Error from server (BadRequest): container nope is not valid for pod web-7c5ddbdf54-2xkqp\n'
    );
    expect(s.exec('kubectl logs web-7c5ddbdf54-qz8fw').stderr).toBe(
      'Error from server (BadRequest): container "web" in pod "web-7c5ddbdf54-qz8fw" is waiting to start: ContainerCreating\n'
    );
  });
});

describe('manifest problems', () => {
  it('points at the file, line and column', () => {
    const s = new ConsoleSession(new Cluster(), {
      files: {
        'bad.yaml':
          'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n  - name: c\n    imagee: nginx\n'
      }
    });
    const r = s.exec('kubectl apply -f bad.yaml');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: bad\.yaml:8:5: /);
  });
});
