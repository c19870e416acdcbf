/**
 * kubeadm's control-plane hosts are Nodes: their kubelet registers control-plane-N with the role
 * label and taint, the static pods appear as mirror pods, and DaemonSets that tolerate everything
 * land there while user pods do not.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { createCluster } from '../scenario';
import { ConsoleSession } from '../kubectl/console';

const HA = `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: ha }
spec:
  controlPlane: { apiServers: 3, etcd: { members: 3, topology: stacked } }
  nodePools: [{ name: worker, count: 2 }]
`;

function lab(file: string, until = 30_000) {
  const text = file === 'ha' ? HA : readFileSync(file, 'utf8');
  const { cluster } = createCluster(text, { fileName: file });
  cluster.runUntil(until);
  return { cluster, con: new ConsoleSession(cluster) };
}

const mirrorNames = (cluster: ReturnType<typeof lab>['cluster'], host: string) =>
  cluster.api
    .list<KubeObject>('Pod', { namespace: 'kube-system' })
    .filter((p) => p.metadata.annotations?.['kubernetes.io/config.mirror'] && p.spec.nodeName === host)
    .map((p) => p.metadata.name)
    .sort();

describe('control-plane Nodes (kubeadm mark-control-plane)', () => {
  it('registers control-plane-1 with the role label, exclude-from-external-load-balancers and the NoSchedule taint', () => {
    // upstream: cmd/kubeadm/app/phases/markcontrolplane/markcontrolplane.go,
    // cmd/kubeadm/app/constants/constants.go (LabelNodeRoleControlPlane, ControlPlaneTaint)
    const { cluster, con } = lab('scenarios/three-nodes.yaml');
    const node = cluster.api.get<KubeObject>('Node', undefined, 'control-plane-1');
    expect(node.metadata.labels).toMatchObject({
      'node-role.kubernetes.io/control-plane': '',
      'node.kubernetes.io/exclude-from-external-load-balancers': ''
    });
    expect(node.spec.taints).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }
    ]);
    expect(node.status.addresses[0]).toEqual({ type: 'InternalIP', address: '10.0.0.10' });
    // upstream: staging/src/k8s.io/kubectl/pkg/describe or printers: ROLES from node-role.kubernetes.io/<role>
    expect(con.exec('kubectl get nodes').stdout).toBe(
      'NAME              STATUS   ROLES           AGE   VERSION\n' +
        'control-plane-1   Ready    control-plane   30s   v1.35.0\n' +
        'worker-1          Ready    <none>          30s   v1.35.0\n' +
        'worker-2          Ready    <none>          30s   v1.35.0\n' +
        'worker-3          Ready    <none>          30s   v1.35.0\n'
    );
  });

  it('keeps a mirror pod per static pod with the host network, the host IP and the Node as owner', () => {
    // upstream: pkg/kubelet/pod/mirror_client.go, pkg/kubelet/config/file.go (config.source file)
    const { cluster } = lab('scenarios/three-nodes.yaml');
    expect(mirrorNames(cluster, 'control-plane-1')).toEqual([
      'etcd-control-plane-1',
      'kube-apiserver-control-plane-1',
      'kube-controller-manager-control-plane-1',
      'kube-scheduler-control-plane-1'
    ]);
    const node = cluster.api.get<KubeObject>('Node', undefined, 'control-plane-1');
    const api = cluster.api.get<KubeObject>('Pod', 'kube-system', 'kube-apiserver-control-plane-1');
    expect(api.metadata.labels).toEqual({ component: 'kube-apiserver', tier: 'control-plane' });
    expect(api.metadata.annotations?.['kubernetes.io/config.source']).toBe('file');
    expect(api.metadata.annotations?.['kubernetes.io/config.hash']).toBe(
      api.metadata.annotations?.['kubernetes.io/config.mirror']
    );
    expect(api.metadata.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Node', name: 'control-plane-1', uid: node.metadata.uid, controller: true }
    ]);
    expect(api.spec.priorityClassName).toBe('system-node-critical');
    expect(api.spec.hostNetwork).toBe(true);
    expect(api.status).toMatchObject({ phase: 'Running', podIP: '10.0.0.10', hostIP: '10.0.0.10' });
    expect(api.status.containerStatuses[0]).toMatchObject({ name: 'kube-apiserver', ready: true });
  });

  it('the mirror pod goes with the manifest and comes back with it', () => {
    const { cluster, con } = lab('scenarios/ha-failover.yaml');
    con.exec('ssh control-plane-2');
    con.exec('sudo mv /etc/kubernetes/manifests/etcd.yaml /root/');
    cluster.advance(2_000);
    expect(cluster.api.tryGet('Pod', 'kube-system', 'etcd-control-plane-2')).toBeUndefined();
    con.exec('sudo mv /root/etcd.yaml /etc/kubernetes/manifests/');
    cluster.advance(2_000);
    const back = cluster.api.get<KubeObject>('Pod', 'kube-system', 'etcd-control-plane-2');
    expect(back.status.phase).toBe('Running');
    expect(cluster.etcd.members[1].running).toBe(true);
  });

  it('a deleted mirror pod is created again by the kubelet', () => {
    // upstream: pkg/kubelet/kubelet.go syncPod: a mirror pod with a deletionTimestamp is recreated
    const { cluster, con } = lab('scenarios/ha-failover.yaml');
    const before = cluster.api.get<KubeObject>('Pod', 'kube-system', 'kube-scheduler-control-plane-3');
    con.exec('kubectl delete pod -n kube-system kube-scheduler-control-plane-3');
    cluster.advance(1_000);
    const after = cluster.api.get<KubeObject>('Pod', 'kube-system', 'kube-scheduler-control-plane-3');
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect(after.metadata.deletionTimestamp).toBeUndefined();
  });

  it('DaemonSets that tolerate the taint run there; a user Deployment does not', () => {
    // upstream: cmd/kubeadm/app/phases/addons/proxy/manifests.go (kube-proxy tolerates operator: Exists)
    const { cluster } = lab('scenarios/three-nodes.yaml');
    const onCp = cluster.api
      .podsOnNode<KubeObject>('control-plane-1')
      .filter((p) => !p.metadata.annotations?.['kubernetes.io/config.mirror']);
    const owners = onCp.map((p) => p.metadata.ownerReferences?.[0]?.name);
    expect(owners).toContain('kube-proxy');
    expect(owners).toContain('calico-node');
    expect(onCp.filter((p) => p.metadata.namespace === 'default')).toEqual([]);
  });

  it('powering a control-plane machine off makes its Node NotReady, then Unknown, through the node lifecycle controller', () => {
    // upstream: pkg/controller/nodelifecycle/node_lifecycle_controller.go (node-monitor-grace-period 50s)
    const { cluster } = lab('ha');
    cluster.applyFault('StopControlPlaneNode', { target: 'control-plane-3' });
    cluster.advance(45_000);
    const readyOf = () =>
      cluster.api
        .get<KubeObject>('Node', undefined, 'control-plane-3')
        .status.conditions.find((c: { type: string }) => c.type === 'Ready');
    expect(readyOf().status).toBe('True');
    cluster.advance(20_000);
    const node = cluster.api.get<KubeObject>('Node', undefined, 'control-plane-3');
    expect(readyOf()).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown' });
    expect(node.spec.taints.map((t: { key: string }) => t.key)).toContain('node.kubernetes.io/unreachable');
    cluster.advance(400_000);
    // Static pods' mirror pods tolerate every NoExecute taint: the taint manager leaves them.
    expect(mirrorNames(cluster, 'control-plane-3')).toHaveLength(4);
  });

  it('kubeadm join --control-plane starts a kubelet that registers the new host with the role', () => {
    const { cluster } = lab('ha');
    cluster.applyFault('JoinControlPlaneNode', {});
    cluster.advance(5_000);
    const node = cluster.api.get<KubeObject>('Node', undefined, 'control-plane-4');
    expect(node.metadata.labels?.['node-role.kubernetes.io/control-plane']).toBe('');
    expect(node.spec.taints).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }
    ]);
    expect(mirrorNames(cluster, 'control-plane-4')).toContain('kube-apiserver-control-plane-4');
  });

  it('external etcd: the control-plane hosts are Nodes, the etcd hosts are not', () => {
    const { cluster } = lab('scenarios/ha-external-etcd.yaml');
    const names = cluster.api.list<KubeObject>('Node').map((n) => n.metadata.name);
    expect(names.filter((n) => n.startsWith('control-plane-'))).toEqual([
      'control-plane-1',
      'control-plane-2',
      'control-plane-3'
    ]);
    expect(names.some((n) => n.startsWith('etcd-'))).toBe(false);
  });

  it('a managed control plane has no control-plane Nodes', () => {
    const { cluster } = lab('scenarios/managed-eks.yaml');
    const names = cluster.api.list<KubeObject>('Node').map((n) => n.metadata.name);
    expect(names.some((n) => n.startsWith('control-plane'))).toBe(false);
  });
});
