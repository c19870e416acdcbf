/**
 * kubeadm's CoreDNS addon phase (cmd/kubeadm/app/phases/addons/dns/dns.go, manifests.go): at
 * `kubeadm init` it writes the `coredns` ConfigMap (the Corefile), the `coredns` Deployment (2
 * replicas, `k8s-app: kube-dns`, system-cluster-critical, tolerating the control-plane taint and
 * CriticalAddonsOnly, preferring one replica per node) and the `kube-dns` Service on the tenth
 * address of the service CIDR (10.96.0.10: kubeadm's GetDNSIP) with ports 53/UDP, 53/TCP and
 * 9153/TCP. One of `bootstrapObjectSets()` (scenario/bootstrap.ts): every scenario cluster has them
 * in kube-system, applied once the first node registered. kubeadm writes no PodDisruptionBudget for
 * CoreDNS, so a node running a CoreDNS replica is not removed by the Cluster Autoscaler
 * (--skip-nodes-with-system-pods) until the operator adds one.
 */
import type { KubeObject } from '../../api/types';
import { addrAt } from '../../network/ip';

export const COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.12.4';
export const COREDNS_REPLICAS = 2;
const NS = 'kube-system';
const LABELS = { 'k8s-app': 'kube-dns' };

/** The Corefile kubeadm writes (CoreDNSConfigMap), for cluster domain cluster.local. */
export const COREFILE = `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30 {
       disable success cluster.local
       disable denial cluster.local
    }
    loop
    reload
    loadbalance
}
`;

/** GetDNSIP: the tenth address of the service CIDR. */
export function dnsServiceIP(serviceCIDR: string): string {
  return addrAt(serviceCIDR, 10);
}

export function coreDNSObjects(serviceCIDR: string): KubeObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'coredns', namespace: NS },
      data: { Corefile: COREFILE }
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'coredns', namespace: NS, labels: { ...LABELS } },
      spec: {
        replicas: COREDNS_REPLICAS,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
        selector: { matchLabels: { ...LABELS } },
        template: {
          metadata: { labels: { ...LABELS } },
          spec: {
            priorityClassName: 'system-cluster-critical',
            serviceAccountName: 'coredns',
            affinity: {
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [
                  {
                    weight: 100,
                    podAffinityTerm: {
                      labelSelector: {
                        matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['kube-dns'] }]
                      },
                      topologyKey: 'kubernetes.io/hostname'
                    }
                  }
                ]
              }
            },
            tolerations: [
              { key: 'CriticalAddonsOnly', operator: 'Exists' },
              { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }
            ],
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            containers: [
              {
                name: 'coredns',
                image: COREDNS_IMAGE,
                imagePullPolicy: 'IfNotPresent',
                resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
                args: ['-conf', '/etc/coredns/Corefile'],
                volumeMounts: [{ name: 'config-volume', mountPath: '/etc/coredns', readOnly: true }],
                ports: [
                  { containerPort: 53, name: 'dns', protocol: 'UDP' },
                  { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
                  { containerPort: 9153, name: 'metrics', protocol: 'TCP' }
                ],
                livenessProbe: {
                  httpGet: { path: '/health', port: 8080, scheme: 'HTTP' },
                  initialDelaySeconds: 60,
                  timeoutSeconds: 5,
                  successThreshold: 1,
                  failureThreshold: 5
                },
                readinessProbe: { httpGet: { path: '/ready', port: 8181, scheme: 'HTTP' } }
              }
            ],
            dnsPolicy: 'Default',
            volumes: [
              {
                name: 'config-volume',
                configMap: { name: 'coredns', items: [{ key: 'Corefile', path: 'Corefile' }] }
              }
            ]
          }
        }
      }
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'kube-dns',
        namespace: NS,
        labels: { ...LABELS, 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
        annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' }
      },
      spec: {
        clusterIP: dnsServiceIP(serviceCIDR),
        selector: { ...LABELS },
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
          { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
          { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 }
        ]
      }
    }
  ];
}
