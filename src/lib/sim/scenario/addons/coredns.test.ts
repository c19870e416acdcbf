// upstream: cmd/kubeadm/app/phases/addons/dns/manifests.go (CoreDNSDeployment, KubeDNSService, CoreDNSConfigMap)
// upstream: cmd/kubeadm/app/constants/constants.go (GetDNSIP: the tenth address of the service subnet)
import { describe, expect, it } from 'vitest';
import { coreDNSObjects, dnsServiceIP } from './coredns';
import { cniObjects } from '../../network/cni-pods';

describe('kubeadm CoreDNS addon objects', () => {
  it('ConfigMap, Deployment and Service as kubeadm writes them', () => {
    const [cm, deploy, svc] = coreDNSObjects('10.96.0.0/12');
    expect([cm.kind, cm.metadata.name, cm.metadata.namespace]).toEqual([
      'ConfigMap',
      'coredns',
      'kube-system'
    ]);
    expect((cm.data as Record<string, string>).Corefile).toContain(
      'kubernetes cluster.local in-addr.arpa ip6.arpa {'
    );
    expect(deploy.metadata).toMatchObject({ name: 'coredns', labels: { 'k8s-app': 'kube-dns' } });
    expect(deploy.spec.replicas).toBe(2);
    expect(deploy.spec.template.spec.priorityClassName).toBe('system-cluster-critical');
    expect(deploy.spec.template.spec.tolerations).toEqual([
      { key: 'CriticalAddonsOnly', operator: 'Exists' },
      { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }
    ]);
    expect(deploy.spec.template.spec.containers[0].resources).toEqual({
      limits: { memory: '170Mi' },
      requests: { cpu: '100m', memory: '70Mi' }
    });
    expect(svc.metadata.name).toBe('kube-dns');
    expect(svc.spec.clusterIP).toBe('10.96.0.10');
    expect(svc.spec.ports.map((p: { port: number; protocol: string }) => `${p.port}/${p.protocol}`)).toEqual([
      '53/UDP',
      '53/TCP',
      '9153/TCP'
    ]);
    expect(dnsServiceIP('10.100.0.0/16')).toBe('10.100.0.10');
  });

  it('each CNI brings its own agents: calico-node + calico-kube-controllers, cilium + cilium-operator, kube-flannel-ds', () => {
    const names = (p: 'calico' | 'cilium' | 'flannel' | 'none') =>
      cniObjects(p).map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);
    expect(names('calico')).toEqual([
      'DaemonSet/kube-system/calico-node',
      'Deployment/kube-system/calico-kube-controllers',
      'PodDisruptionBudget/kube-system/calico-kube-controllers'
    ]);
    expect(names('cilium')).toEqual([
      'DaemonSet/kube-system/cilium',
      'Deployment/kube-system/cilium-operator'
    ]);
    expect(names('flannel')).toEqual(['Namespace//kube-flannel', 'DaemonSet/kube-flannel/kube-flannel-ds']);
    expect(names('none')).toEqual([]);
    expect(cniObjects('calico')[0].spec.template.spec.hostNetwork).toBe(true);
  });
});
