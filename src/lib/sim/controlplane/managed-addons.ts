/**
 * The add-ons a managed provider installs in kube-system of a new cluster, built as objects
 * (which ones, and the documents that name them: `PROVIDER_ADDONS` in managed.ts). They replace
 * kubeadm's CoreDNS addon and the CNI manifest of a self-managed cluster; kube-proxy's DaemonSet
 * comes from `managedKubeProxyDaemonSet` (network/kubeproxy.ts asks for it).
 *
 * Object shapes follow the add-ons' own manifests where they are public: the Amazon VPC CNI's
 * aws-k8s-cni.yaml (aws/amazon-vpc-cni-k8s: k8s-app=aws-node, system-node-critical, host network,
 * tolerating every taint, maxUnavailable 10%, metrics port 61678, not on Fargate), kubeadm's
 * kube-proxy and CoreDNS with the provider's registry and labels (`eks.amazonaws.com/component`),
 * upstream's kube-dns addon for GKE (cluster/addons/dns/kube-dns: kubedns, dnsmasq and sidecar
 * containers, ports 53/UDP and 53/TCP on the Service) with its cluster-proportional autoscaler
 * (cluster/addons/dns-horizontal-autoscaler: linear, 256 cores or 16 nodes per replica, never a
 * single replica on more than one node), and AKS's addon-manager labels. Image tags are the
 * providers' naming schemes at the cluster's version; the exact builds a provider ships on a given
 * day are not modelled. Sizes are approximate.
 */
import type { KubeObject } from '../api/types';
import type { Cluster } from '../cluster';
import type { BootstrapObjects, BootstrapStep } from '../scenario/hooks';
import type { Scenario } from '../scenario/types';
import { coreDNSObjects, dnsServiceIP } from '../scenario/addons/coredns';
import { metricsServerObjects } from '../scenario/addons/metrics-server';
import { kubeProxyDaemonSet } from '../network/kubeproxy-addon';
import { cniObjects } from '../network/cni-pods';
import { setRegistryImages, normalizeImage, type RegistryImage } from '../node/registry';
import { parseQuantity } from '../api/quantity';
import type { ManagedProvider } from './managed';

const KS = 'kube-system';
const MB = 1_000_000;
const CRITICAL_ADDONS_ONLY = { key: 'CriticalAddonsOnly', operator: 'Exists' };

/** The EKS add-on images live in Amazon's ECR account for the region. */
const ECR = '602401143452.dkr.ecr.us-east-1.amazonaws.com';
const MCR = 'mcr.microsoft.com/oss/kubernetes';

export const AWS_NODE_IMAGE = `${ECR}/amazon-k8s-cni:v1.20.4-eksbuild.1`;
export const EKS_COREDNS_IMAGE = `${ECR}/eks/coredns:v1.12.4-eksbuild.1`;
export const GKE_KUBE_DNS_IMAGES = {
  kubedns: 'registry.k8s.io/dns/k8s-dns-kube-dns:1.22.28',
  dnsmasq: 'registry.k8s.io/dns/k8s-dns-dnsmasq-nanny:1.22.28',
  sidecar: 'registry.k8s.io/dns/k8s-dns-sidecar:1.22.28',
  autoscaler: 'registry.k8s.io/cpa/cluster-proportional-autoscaler:v1.10.2'
};
export const AKS_IMAGES = {
  coredns: `${MCR}/coredns:v1.12.4`,
  autoscaler: `${MCR}/autoscaler/cluster-proportional-autoscaler:v1.10.2`,
  konnectivity: `${MCR}/apiserver-network-proxy/agent:v0.31.4`,
  metricsServer: `${MCR}/metrics-server:v0.8.0`
};

/** `v1.35.0` → `v1.35.0`; `1.35` → `v1.35.0`. */
function semver(v: string): string {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(v);
  return m ? `v${m[1]}.${m[2]}.${m[3] ?? '0'}` : v;
}

function eksKubeProxyImage(version: string): string {
  return `${ECR}/eks/kube-proxy:${semver(version)}-minimal-eksbuild.1`;
}
function aksKubeProxyImage(version: string): string {
  return `${MCR}/kube-proxy:${semver(version)}`;
}
function aksCloudNodeManagerImage(version: string): string {
  // cloud-provider-azure: minor versions match Kubernetes' minor versions.
  return `${MCR}/azure-cloud-node-manager:${semver(version)}`;
}

/** The provider's images, added to the cluster's registry so its nodes can pull them. */
export function providerImages(p: ManagedProvider, version: string): RegistryImage[] {
  const img = (ref: string, mb: number): RegistryImage => {
    const n = normalizeImage(ref);
    return { repository: n.repository, tag: n.tag, sizeBytes: Math.round(mb * MB) };
  };
  switch (p) {
    case 'eks':
      return [img(AWS_NODE_IMAGE, 47.1), img(eksKubeProxyImage(version), 30.4), img(EKS_COREDNS_IMAGE, 24.6)];
    case 'gke':
      return [
        img(GKE_KUBE_DNS_IMAGES.kubedns, 31.2),
        img(GKE_KUBE_DNS_IMAGES.dnsmasq, 14.1),
        img(GKE_KUBE_DNS_IMAGES.sidecar, 15.3),
        img(GKE_KUBE_DNS_IMAGES.autoscaler, 15.9)
      ];
    case 'aks':
      return [
        img(AKS_IMAGES.coredns, 22.8),
        img(AKS_IMAGES.autoscaler, 16.2),
        img(AKS_IMAGES.konnectivity, 19.7),
        img(AKS_IMAGES.metricsServer, 20.4),
        img(aksKubeProxyImage(version), 31.5),
        img(aksCloudNodeManagerImage(version), 28.9)
      ];
  }
}

/**
 * The provider's kube-proxy DaemonSet: kubeadm's shape with the provider's image and labels.
 * None on GKE, whose nodes run kube-proxy as a static pod (managed.ts).
 */
export function managedKubeProxyDaemonSet(p: ManagedProvider, version: string): KubeObject | undefined {
  if (p === 'gke') return undefined;
  const ds = kubeProxyDaemonSet(version) as KubeObject & {
    spec: { template: { spec: { containers: { image: string }[] } } };
  };
  const c = ds.spec.template.spec.containers[0];
  if (p === 'eks') {
    ds.metadata.labels = { ...ds.metadata.labels, 'eks.amazonaws.com/component': 'kube-proxy' };
    c.image = eksKubeProxyImage(version);
    Object.assign(c, { resources: { requests: { cpu: '100m' } } });
    ds.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } };
  } else {
    ds.metadata.labels = { ...ds.metadata.labels, 'addonmanager.kubernetes.io/mode': 'Reconcile' };
    c.image = aksKubeProxyImage(version);
  }
  return ds;
}

/** aws-k8s-cni.yaml's DaemonSet. */
function awsNode(): KubeObject {
  const labels = { 'k8s-app': 'aws-node' };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'aws-node', namespace: KS, labels: { ...labels } },
    spec: {
      selector: { matchLabels: { ...labels } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } },
      template: {
        metadata: { labels: { ...labels } },
        spec: {
          priorityClassName: 'system-node-critical',
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  {
                    matchExpressions: [
                      { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
                      { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64', 'arm64'] },
                      { key: 'eks.amazonaws.com/compute-type', operator: 'NotIn', values: ['fargate'] }
                    ]
                  }
                ]
              }
            }
          },
          hostNetwork: true,
          serviceAccountName: 'aws-node',
          terminationGracePeriodSeconds: 10,
          tolerations: [{ operator: 'Exists' }],
          containers: [
            {
              name: 'aws-node',
              image: AWS_NODE_IMAGE,
              ports: [{ containerPort: 61678, name: 'metrics' }],
              resources: { requests: { cpu: '25m' } },
              securityContext: { capabilities: { add: ['NET_ADMIN', 'NET_RAW'] } }
            }
          ]
        }
      }
    }
  };
}

/** kubeadm's CoreDNS objects with EKS's image and component labels. */
function eksCoreDNS(serviceCIDR: string): KubeObject[] {
  const objs = coreDNSObjects(serviceCIDR);
  for (const o of objs) {
    const component = o.kind === 'Service' ? 'kube-dns' : 'coredns';
    o.metadata.labels = { ...(o.metadata.labels ?? {}), 'eks.amazonaws.com/component': component };
    if (o.kind === 'Deployment') {
      o.spec.template.metadata.labels['eks.amazonaws.com/component'] = 'coredns';
      o.spec.template.spec.containers[0].image = EKS_COREDNS_IMAGE;
    }
  }
  return objs;
}

/**
 * What the cluster-proportional autoscaler's linear mode gives for the cluster: the larger of
 * ceil(cores / coresPerReplica) and ceil(nodes / nodesPerReplica), and at least 2 on more than one
 * node when preventSinglePointFailure is set (cluster-proportional-autoscaler pkg/autoscaler/controller/linearcontroller).
 */
export function linearReplicas(
  nodes: number,
  cores: number,
  p: { coresPerReplica: number; nodesPerReplica: number; preventSinglePointFailure: boolean; min?: number }
): number {
  let r = Math.max(Math.ceil(cores / p.coresPerReplica), Math.ceil(nodes / p.nodesPerReplica));
  if (p.preventSinglePointFailure && nodes > 1) r = Math.max(r, 2);
  return Math.max(r, p.min ?? 1);
}

/** dns-horizontal-autoscaler.yaml's default-params. */
export const KUBE_DNS_AUTOSCALER_PARAMS = {
  coresPerReplica: 256,
  nodesPerReplica: 16,
  preventSinglePointFailure: true
};

function deployment(
  name: string,
  labels: Record<string, string>,
  replicas: number,
  podSpec: Record<string, unknown>,
  extraLabels: Record<string, string> = {}
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: KS, labels: { ...labels, ...extraLabels } },
    spec: {
      replicas,
      selector: { matchLabels: { ...labels } },
      template: { metadata: { labels: { ...labels } }, spec: podSpec }
    }
  };
}

function autoscaler(name: string, image: string, target: string, params: string): KubeObject {
  return deployment(name, { 'k8s-app': name }, 1, {
    priorityClassName: 'system-cluster-critical',
    serviceAccountName: name,
    tolerations: [CRITICAL_ADDONS_ONLY],
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    containers: [
      {
        name: 'autoscaler',
        image,
        command: [
          '/cluster-proportional-autoscaler',
          `--namespace=${KS}`,
          `--configmap=${name}`,
          `--target=${target}`,
          `--default-params=${params}`,
          '--logtostderr=true',
          '--v=2'
        ],
        resources: { requests: { cpu: '20m', memory: '10Mi' } }
      }
    ]
  });
}

/** GKE's kube-dns (upstream's kube-dns addon) and its autoscaler. */
function gkeKubeDNS(serviceCIDR: string, replicas: number): KubeObject[] {
  const labels = { 'k8s-app': 'kube-dns' };
  const addon = { 'kubernetes.io/cluster-service': 'true', 'addonmanager.kubernetes.io/mode': 'Reconcile' };
  const kubeDns = deployment(
    'kube-dns',
    labels,
    replicas,
    {
      priorityClassName: 'system-cluster-critical',
      serviceAccountName: 'kube-dns',
      tolerations: [CRITICAL_ADDONS_ONLY],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      dnsPolicy: 'Default',
      containers: [
        {
          name: 'kubedns',
          image: GKE_KUBE_DNS_IMAGES.kubedns,
          resources: { limits: { memory: '210Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
          args: ['--domain=cluster.local.', '--dns-port=10053', '--config-dir=/kube-dns-config', '--v=2'],
          ports: [
            { containerPort: 10053, name: 'dns-local', protocol: 'UDP' },
            { containerPort: 10053, name: 'dns-tcp-local', protocol: 'TCP' },
            { containerPort: 10055, name: 'metrics', protocol: 'TCP' }
          ],
          readinessProbe: { httpGet: { path: '/readiness', port: 8081, scheme: 'HTTP' } }
        },
        {
          name: 'dnsmasq',
          image: GKE_KUBE_DNS_IMAGES.dnsmasq,
          resources: { requests: { cpu: '150m', memory: '20Mi' } },
          ports: [
            { containerPort: 53, name: 'dns', protocol: 'UDP' },
            { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' }
          ]
        },
        {
          name: 'sidecar',
          image: GKE_KUBE_DNS_IMAGES.sidecar,
          resources: { requests: { cpu: '10m', memory: '20Mi' } },
          ports: [{ containerPort: 10054, name: 'metrics', protocol: 'TCP' }]
        }
      ]
    },
    addon
  );
  (kubeDns.spec as Record<string, unknown>).strategy = {
    type: 'RollingUpdate',
    rollingUpdate: { maxSurge: '10%', maxUnavailable: 0 }
  };
  const service: KubeObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'kube-dns',
      namespace: KS,
      labels: { ...labels, ...addon, 'kubernetes.io/name': 'KubeDNS' }
    },
    spec: {
      clusterIP: dnsServiceIP(serviceCIDR),
      selector: { ...labels },
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 }
      ]
    }
  };
  const { coresPerReplica, nodesPerReplica, preventSinglePointFailure } = KUBE_DNS_AUTOSCALER_PARAMS;
  return [
    kubeDns,
    service,
    autoscaler(
      'kube-dns-autoscaler',
      GKE_KUBE_DNS_IMAGES.autoscaler,
      'Deployment/kube-dns',
      JSON.stringify({ linear: { coresPerReplica, nodesPerReplica, preventSinglePointFailure } })
    )
  ];
}

/** AKS's CoreDNS (kubeadm's shape, AKS's image and addon-manager labels) and its autoscaler. */
function aksCoreDNS(serviceCIDR: string): KubeObject[] {
  const objs = coreDNSObjects(serviceCIDR);
  for (const o of objs) {
    o.metadata.labels = {
      ...(o.metadata.labels ?? {}),
      'addonmanager.kubernetes.io/mode': o.kind === 'ConfigMap' ? 'EnsureExists' : 'Reconcile'
    };
    if (o.kind === 'Deployment') o.spec.template.spec.containers[0].image = AKS_IMAGES.coredns;
  }
  const { coresPerReplica, nodesPerReplica, preventSinglePointFailure } = KUBE_DNS_AUTOSCALER_PARAMS;
  objs.push(
    autoscaler(
      'coredns-autoscaler',
      AKS_IMAGES.autoscaler,
      'deployment/coredns',
      JSON.stringify({ linear: { coresPerReplica, nodesPerReplica, preventSinglePointFailure, min: 2 } })
    )
  );
  return objs;
}

function aksAgents(version: string): KubeObject[] {
  const konnectivity = deployment(
    'konnectivity-agent',
    { app: 'konnectivity-agent' },
    2,
    {
      priorityClassName: 'system-cluster-critical',
      serviceAccountName: 'konnectivity-agent',
      tolerations: [CRITICAL_ADDONS_ONLY],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      containers: [
        {
          name: 'konnectivity-agent',
          image: AKS_IMAGES.konnectivity,
          resources: { requests: { cpu: '20m', memory: '20Mi' } }
        }
      ]
    },
    { 'addonmanager.kubernetes.io/mode': 'Reconcile' }
  );
  const labels = { 'k8s-app': 'cloud-node-manager' };
  const cloudNodeManager: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: 'cloud-node-manager',
      namespace: KS,
      labels: { ...labels, 'addonmanager.kubernetes.io/mode': 'Reconcile' }
    },
    spec: {
      selector: { matchLabels: { ...labels } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      template: {
        metadata: { labels: { ...labels } },
        spec: {
          priorityClassName: 'system-node-critical',
          serviceAccountName: 'cloud-node-manager',
          hostNetwork: true,
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          tolerations: [{ operator: 'Exists' }],
          containers: [
            {
              name: 'cloud-node-manager',
              image: aksCloudNodeManagerImage(version),
              command: ['cloud-node-manager', '--node-name=$(NODE_NAME)', '--wait-routes=true'],
              env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
              resources: { requests: { cpu: '50m', memory: '50Mi' } }
            }
          ]
        }
      }
    }
  };
  return [konnectivity, cloudNodeManager];
}

/** AKS's metrics-server: the release manifest's objects, two replicas, AKS's image, tolerating system pools. */
export function aksMetricsServerObjects(): KubeObject[] {
  const objs = metricsServerObjects();
  for (const o of objs) {
    if (o.kind !== 'Deployment') continue;
    o.spec.replicas = 2;
    o.spec.template.spec.containers[0].image = AKS_IMAGES.metricsServer;
    o.spec.template.spec.tolerations = [CRITICAL_ADDONS_ONLY];
    o.metadata.labels = { ...o.metadata.labels, 'addonmanager.kubernetes.io/mode': 'Reconcile' };
  }
  return objs;
}

/** Did the scenario name a CNI of its own (one the owner installs instead of the provider's)? */
function ownCni(scenario: Scenario): boolean {
  return scenario.spec.network?.cni !== undefined;
}

/** The nodes' CPU cores, as the autoscaler counts them (capacity, in whole cores). */
function clusterCores(scenario: Scenario): number {
  return scenario.nodes.reduce((sum, n) => sum + parseQuantity(n.capacity.cpu ?? '0') / 1000, 0);
}

/** The DNS add-on: EKS and AKS CoreDNS, GKE kube-dns. */
export const providerDNSObjects: BootstrapObjects = (cluster, scenario) => {
  const cidr = cluster.config.network.serviceCIDR;
  switch (cluster.config.managed) {
    case 'eks':
      return eksCoreDNS(cidr);
    case 'gke':
      return gkeKubeDNS(
        cidr,
        linearReplicas(scenario.nodes.length, clusterCores(scenario), KUBE_DNS_AUTOSCALER_PARAMS)
      );
    case 'aks':
      return aksCoreDNS(cidr);
    default:
      return coreDNSObjects(cidr);
  }
};

/**
 * The network add-ons: EKS's aws-node (the VPC CNI), AKS's konnectivity-agent and
 * cloud-node-manager; GKE's CNI is part of its node image. A scenario that names its own CNI
 * (`network.cni`) gets that CNI's manifest instead of the provider's.
 */
export const providerNetworkObjects: BootstrapObjects = (cluster, scenario) => {
  const p = cluster.config.managed;
  if (!p || ownCni(scenario)) return cniObjects(cluster.config.network.cni);
  switch (p) {
    case 'eks':
      return [awsNode()];
    case 'gke':
      return [];
    case 'aks':
      return aksAgents(cluster.config.kubernetesVersion);
  }
};

/** The provider's images join the registry before any of its add-ons' pods pull them. */
export const providerImagesStep: BootstrapStep = (cluster: Cluster) => {
  const p = cluster.config.managed;
  if (p) setRegistryImages(cluster, providerImages(p, cluster.config.kubernetesVersion));
};
