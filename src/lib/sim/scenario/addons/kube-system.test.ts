// kube-system as `kubeadm init` and the CNI's install manifest leave it.
// upstream: cmd/kubeadm/app/phases/addons/proxy/manifests.go (the kube-proxy DaemonSet),
//   cmd/kubeadm/app/phases/addons/dns/manifests.go (CoreDNS: Deployment coredns, Service kube-dns),
//   cmd/kubeadm/app/constants/constants.go (GetDNSIP: the service CIDR's tenth address),
//   calico manifests/calico.yaml (calico-node, calico-kube-controllers and its PodDisruptionBudget),
//   flannel Documentation/kube-flannel.yml (namespace kube-flannel, DaemonSet kube-flannel-ds),
//   staging/src/k8s.io/kubectl/pkg/cmd/get (the -A table: NAMESPACE first).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types';
import { ConsoleSession } from '../../kubectl/console';
import { createCluster } from '../bootstrap';
import { networkModel } from '../../observe/network';

const scenario = (extra = '') => `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: kube-system }
spec:
  seed: 7
  nodePools:
    - name: worker
      count: 2
${extra}`;

function lab(extra = '') {
  const { cluster } = createCluster(scenario(extra), { fileName: 'kube-system.yaml' });
  cluster.runUntil(60_000);
  return { cluster, con: new ConsoleSession(cluster) };
}

describe('kube-system on a kubeadm cluster', () => {
  it('kubectl get pods -A lists kube-proxy and calico-node per node, CoreDNS and calico-kube-controllers', () => {
    // Two workers and control-plane-1: the DaemonSets tolerate its taint; the pod names' random
    // suffixes moved with the extra pods created before them.
    const { con } = lab();
    expect(con.exec('kubectl get pods -A -o wide').stdout).toBe(
      [
        'NAMESPACE     NAME                                       READY   STATUS    RESTARTS   AGE   IP           NODE              NOMINATED NODE   READINESS GATES',
        'kube-system   calico-kube-controllers-7f4d6c8bbb-5v729   1/1     Running   0          60s   10.244.0.2   worker-1          <none>           <none>',
        'kube-system   calico-node-kpn75                          1/1     Running   0          60s   10.0.0.12    worker-2          <none>           <none>',
        'kube-system   calico-node-lw2xj                          1/1     Running   0          60s   10.0.0.10    control-plane-1   <none>           <none>',
        'kube-system   calico-node-tqxv6                          1/1     Running   0          60s   10.0.0.11    worker-1          <none>           <none>',
        'kube-system   coredns-755974f44c-7d999                   1/1     Running   0          60s   10.244.1.2   worker-2          <none>           <none>',
        'kube-system   coredns-755974f44c-rb94n                   1/1     Running   0          60s   10.244.0.3   worker-1          <none>           <none>',
        // control-plane-1's static pods, as their mirror pods (host network: the host's address)
        'kube-system   etcd-control-plane-1                       1/1     Running   0          60s   10.0.0.10    control-plane-1   <none>           <none>',
        'kube-system   kube-apiserver-control-plane-1             1/1     Running   0          60s   10.0.0.10    control-plane-1   <none>           <none>',
        'kube-system   kube-controller-manager-control-plane-1    1/1     Running   0          60s   10.0.0.10    control-plane-1   <none>           <none>',
        'kube-system   kube-proxy-hwzmz                           1/1     Running   0          60s   10.0.0.10    control-plane-1   <none>           <none>',
        'kube-system   kube-proxy-k75fm                           1/1     Running   0          60s   10.0.0.12    worker-2          <none>           <none>',
        'kube-system   kube-proxy-khgmm                           1/1     Running   0          60s   10.0.0.11    worker-1          <none>           <none>',
        'kube-system   kube-scheduler-control-plane-1             1/1     Running   0          60s   10.0.0.10    control-plane-1   <none>           <none>',
        ''
      ].join('\n')
    );
    // The default namespace is the learner's: nothing there.
    expect(con.exec('kubectl get pods').stderr).toBe('No resources found in default namespace.\n');
  });

  it('the Deployments, DaemonSets and kube-dns on 10.96.0.10 with 53/UDP, 53/TCP and 9153/TCP', () => {
    const { con } = lab();
    expect(con.exec('kubectl get deploy,ds,svc -n kube-system').stdout).toBe(
      [
        'NAME                                      READY   UP-TO-DATE   AVAILABLE   AGE',
        'deployment.apps/calico-kube-controllers   1/1     1            1           60s',
        'deployment.apps/coredns                   2/2     2            2           60s',
        '',
        'NAME                         DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR            AGE',
        // a pod on each worker and on control-plane-1
        'daemonset.apps/calico-node   3         3         3       3            3           kubernetes.io/os=linux   60s',
        'daemonset.apps/kube-proxy    3         3         3       3            3           kubernetes.io/os=linux   60s',
        '',
        'NAME               TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)                  AGE',
        'service/kube-dns   ClusterIP   10.96.0.10   <none>        53/UDP,53/TCP,9153/TCP   60s',
        ''
      ].join('\n')
    );
  });

  it("the pods carry the add-ons' priority classes, host network for node agents, and CoreDNS's requests", () => {
    const { cluster } = lab();
    const pods = cluster.api.list<KubeObject>('Pod', { namespace: 'kube-system' });
    const of = (app: string) => pods.filter((p) => p.metadata.labels?.['k8s-app'] === app);
    for (const p of [...of('kube-proxy'), ...of('calico-node')]) {
      expect(p.spec!.priorityClassName).toBe('system-node-critical');
      expect(p.spec!.hostNetwork).toBe(true);
    }
    // kube-proxy tolerates every taint (kubeadm's `- operator: Exists`).
    for (const p of of('kube-proxy')) expect(p.spec!.tolerations).toContainEqual({ operator: 'Exists' });
    for (const p of of('kube-dns')) {
      expect(p.spec!.priorityClassName).toBe('system-cluster-critical');
      expect(p.spec!.containers[0].resources).toEqual({
        limits: { memory: '170Mi' },
        requests: { cpu: '100m', memory: '70Mi' }
      });
      expect(p.spec!.tolerations).toContainEqual({
        key: 'node-role.kubernetes.io/control-plane',
        effect: 'NoSchedule'
      });
    }
    expect(of('calico-node')[0].spec!.containers[0].resources).toEqual({ requests: { cpu: '250m' } });
    expect(
      cluster.api.get<KubeObject>('PodDisruptionBudget', 'kube-system', 'calico-kube-controllers').spec
    ).toEqual({ maxUnavailable: 1, selector: { matchLabels: { 'k8s-app': 'calico-kube-controllers' } } });
  });

  it('Flannel runs in its own namespace; without a CNI CoreDNS waits and only host-network pods start', () => {
    const flannel = lab('  network: { cni: flannel }\n').con.exec('kubectl get pods -A').stdout;
    expect(flannel.split('\n').map((l) => l.split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'NAMESPACE NAME READY',
      'kube-flannel kube-flannel-ds-lsptt 1/1',
      'kube-flannel kube-flannel-ds-q28rl 1/1',
      'kube-flannel kube-flannel-ds-wgt8k 1/1',
      'kube-system coredns-755974f44c-9d9h9 1/1',
      'kube-system coredns-755974f44c-cpd7d 1/1',
      'kube-system etcd-control-plane-1 1/1',
      'kube-system kube-apiserver-control-plane-1 1/1',
      'kube-system kube-controller-manager-control-plane-1 1/1',
      'kube-system kube-proxy-6p5rk 1/1',
      'kube-system kube-proxy-g6jsk 1/1',
      'kube-system kube-proxy-q7gvh 1/1',
      'kube-system kube-scheduler-control-plane-1 1/1',
      ''
    ]);
    const none = lab('  network: { cni: none }\n').cluster.api.list<KubeObject>('Pod', {
      namespace: 'kube-system'
    });
    // Host-network pods need no CNI: kube-proxy and control-plane-1's static pods run.
    expect(
      none
        .map((p) => [p.metadata.labels?.['k8s-app'] ?? p.metadata.labels?.component, p.status?.phase])
        .sort()
    ).toEqual([
      ['etcd', 'Running'],
      ['kube-apiserver', 'Running'],
      ['kube-controller-manager', 'Running'],
      ['kube-dns', 'Pending'],
      ['kube-dns', 'Pending'],
      ['kube-proxy', 'Running'],
      ['kube-proxy', 'Running'],
      ['kube-proxy', 'Running'],
      ['kube-scheduler', 'Running']
    ]);
  });

  it('the Network view offers kube-dns once per port (53 is served over UDP and TCP)', () => {
    const { cluster } = lab();
    const services = networkModel(cluster, { node: 'worker-1' }).traceServices;
    expect(services.filter((s) => s.startsWith('kube-dns.'))).toEqual([
      'kube-dns.kube-system:53',
      'kube-dns.kube-system:9153'
    ]);
  });
});
