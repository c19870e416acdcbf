/**
 * Managed control planes (`spec.controlPlane.managed: eks | gke | aks`): the provider runs
 * kube-apiserver, etcd, kube-scheduler and kube-controller-manager on machines the cluster's owner
 * never sees. What that changes in the lab, all in one place: the version strings the provider's
 * builds carry, the label and name its node pools get (reused from the autoscaler's flavours), and
 * who owns what. The node lifecycle (node-monitor grace period, taint-based eviction) stays
 * upstream's: none of the three documents different kube-controller-manager defaults; where a
 * provider adds behaviour of its own (node auto-repair) it is stated here, with its document.
 */
import {
  AKS_AGENTPOOL_LABEL,
  EKS_NODEGROUP_LABEL,
  GKE_NODEPOOL_LABEL,
  POOL_KIND,
  type Flavour
} from '../controllers/cluster-autoscaler/flavours';

export type ManagedProvider = 'eks' | 'gke' | 'aks';
export const MANAGED_PROVIDERS: readonly ManagedProvider[] = ['eks', 'gke', 'aks'];

export const PROVIDER_NAME: Record<ManagedProvider, string> = {
  eks: 'Amazon EKS',
  gke: 'GKE',
  aks: 'AKS'
};

/** The label every node of a pool carries, naming its pool. */
export const POOL_NAME_LABEL: Record<ManagedProvider, string> = {
  eks: EKS_NODEGROUP_LABEL,
  gke: GKE_NODEPOOL_LABEL,
  aks: AKS_AGENTPOOL_LABEL
};

export function poolKind(p: ManagedProvider): string {
  return POOL_KIND[p as Flavour];
}

/** A stable 32-bit FNV-1a hash: the same build suffix for the same version, every run. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** "v1.35.0" from "1.35", "v1.35" or "v1.35.0". */
function semver(v: string): string {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(v);
  if (!m) return v;
  return `v${m[1]}.${m[2]}.${m[3] ?? '0'}`;
}

/** Already in a provider's style (a version a scenario or an upgrade gave in full). */
const PROVIDER_SUFFIX = /-(eks-[0-9a-f]{7}|gke\.\d+)$/;

/**
 * The build a provider ships for an upstream version. EKS: `v1.35.0-eks-<7 hex>` (a build of
 * its own, differently hashed for the control plane and the node AMI's kubelet); GKE:
 * `v1.35.0-gke.<patch build>` (the same on the control plane and its node pools); AKS: the
 * upstream version as is.
 */
function providerBuild(p: ManagedProvider, version: string, part: 'server' | 'kubelet'): string {
  if (PROVIDER_SUFFIX.test(version)) return version;
  const v = semver(version);
  switch (p) {
    case 'eks':
      return `${v}-eks-${fnv1a(`eks/${part}/${v}`).toString(16).padStart(8, '0').slice(0, 7)}`;
    case 'gke':
      return `${v}-gke.${(1 + (fnv1a(`gke/${v}`) % 20)) * 100}`;
    case 'aks':
      return v;
  }
}

/** `kubectl version`'s Server Version (gitVersion of /version). */
export function serverGitVersion(p: ManagedProvider | undefined, version: string): string {
  return p ? providerBuild(p, version, 'server') : semver(version);
}

/** A node's `status.nodeInfo.kubeletVersion`. */
export function kubeletGitVersion(p: ManagedProvider | undefined, version: string): string {
  return p ? providerBuild(p, version, 'kubelet') : version;
}

/**
 * The API endpoint kubeconfig points at (`kubectl cluster-info`): EKS
 * `https://<32 hex, upper case>.gr7.<region>.eks.amazonaws.com`, GKE the control plane's address,
 * AKS `https://<dns prefix>-<8 hex>.hcp.<region>.azmk8s.io:443`. Derived from the seed, so a
 * scenario keeps its endpoint.
 */
export function apiServerURL(p: ManagedProvider, seed: number): string {
  const hex = (part: string, n: number) => {
    let out = '';
    for (let i = 0; out.length < n; i++)
      out += fnv1a(`${p}/${part}/${seed}/${i}`).toString(16).padStart(8, '0');
    return out.slice(0, n);
  };
  switch (p) {
    case 'eks':
      return `https://${hex('endpoint', 32).toUpperCase()}.gr7.us-east-1.eks.amazonaws.com`;
    case 'gke': {
      const h = fnv1a(`gke/endpoint/${seed}`);
      return `https://34.${(h >>> 16) & 0xff}.${(h >>> 8) & 0xff}.${h & 0xff}`;
    }
    case 'aks':
      return `https://nodeplane-dns-${hex('endpoint', 8)}.hcp.eastus.azmk8s.io:443`;
  }
}

/** Who does a job in a managed cluster. */
export type Owner = 'provider' | 'you';

/** The jobs whose owner the lab shows (i18n `ops.cp.managed.items.<id>`). */
export type Responsibility =
  | 'controlPlaneHosts'
  | 'etcdQuorum'
  | 'etcdBackups'
  | 'controlPlaneSizing'
  | 'controlPlaneUpgrades'
  | 'workerNodes'
  | 'nodeUpgrades'
  | 'nodeRepair'
  | 'workloadBackups'
  | 'addons';

export interface ResponsibilityRow {
  id: Responsibility;
  owner: Owner;
}

/**
 * The split the three services document as their shared-responsibility model for a Standard
 * cluster (EKS best-practices guide, GKE "shared responsibility", AKS "support policies"): the
 * control plane and its data are the provider's; the nodes, what runs on them and the cluster's
 * own objects are yours. Upgrades of the control plane are started by you on EKS and AKS (or an
 * auto-upgrade channel), by the release channel on GKE, and carried out by the provider.
 */
export function responsibilities(p: ManagedProvider): ResponsibilityRow[] {
  return [
    { id: 'controlPlaneHosts', owner: 'provider' },
    { id: 'etcdQuorum', owner: 'provider' },
    { id: 'etcdBackups', owner: 'provider' },
    { id: 'controlPlaneSizing', owner: 'provider' },
    { id: 'controlPlaneUpgrades', owner: 'provider' },
    { id: 'workerNodes', owner: 'you' },
    { id: 'nodeUpgrades', owner: p === 'gke' ? 'provider' : 'you' },
    { id: 'nodeRepair', owner: p === 'eks' ? 'you' : 'provider' },
    { id: 'workloadBackups', owner: 'you' },
    { id: 'addons', owner: ADDONS_RECONCILED[p] ? 'provider' : 'you' }
  ];
}

/**
 * Node auto-repair, the one documented place where a provider acts on a NotReady node itself
 * (the repair runs in autorepair.ts; the node lifecycle controller's timings stay upstream's).
 * - GKE: on by default for Standard node pools; repair after NotReady for about 10 minutes
 *   (cloud.google.com/kubernetes-engine/docs/how-to/node-auto-repair).
 * - AKS: on for every cluster; a node NotReady on consecutive checks within 10 minutes and
 *   unhealthy for at least five minutes is rebooted, then reimaged, then redeployed
 *   (learn.microsoft.com/azure/aks/node-auto-repair).
 * - EKS: off unless enabled on the managed node group (docs.aws.amazon.com/eks/latest/userguide/node-repair.html).
 */
export const NODE_REPAIR: Record<
  ManagedProvider,
  { byDefault: boolean; afterMinutes?: number; doc: string }
> = {
  eks: { byDefault: false, doc: 'docs.aws.amazon.com/eks/latest/userguide/node-repair.html' },
  gke: {
    byDefault: true,
    afterMinutes: 10,
    doc: 'cloud.google.com/kubernetes-engine/docs/how-to/node-auto-repair'
  },
  aks: { byDefault: true, afterMinutes: 5, doc: 'learn.microsoft.com/azure/aks/node-auto-repair' }
};

/** One workload a provider installs in kube-system when it creates the cluster. */
export interface ProviderAddon {
  name: string;
  kind: 'DaemonSet' | 'Deployment';
  /** The provider's document that names it. */
  doc: string;
}

/**
 * What each provider puts in kube-system of a new Standard cluster (v1.35-era defaults), as its
 * documents describe them; the objects are built in managed-addons.ts. Only what a document names:
 * - EKS: the Amazon VPC CNI (`aws-node` DaemonSet), `kube-proxy` (DaemonSet) and CoreDNS (`coredns`
 *   Deployment, two replicas whatever the node count), installed as self-managed add-ons when the
 *   cluster is created from the CLI or an SDK (Amazon EKS add-ons from the console): either way the
 *   owner updates them (docs.aws.amazon.com/eks/latest/userguide/eks-networking-add-ons.html,
 *   eks-add-ons.html, coredns-autoscaling.html).
 * - GKE Standard: kube-dns (`kube-dns` Deployment, scaled by `kube-dns-autoscaler`, a pod deployed
 *   in every GKE cluster) rather than CoreDNS (cloud.google.com/kubernetes-engine/docs/concepts/kube-dns).
 *   kube-proxy is not a DaemonSet: GKE nodes run it as a static pod from the node's manifest
 *   directory (mirror pod `kube-proxy-<node>`, labels component=kube-proxy, tier=node — the way
 *   upstream's GCE node setup does by default, which the Cluster Autoscaler's GCE templates assume;
 *   kubernetes/kubernetes#51292). No GKE page in reach states it; the lab creates no kube-proxy
 *   DaemonSet on GKE, and shows no mirror pod for it (mirror pods of static pods are not modelled
 *   yet). Dataplane V2 (`anetd` DaemonSet, replacing kube-proxy) is on by default only in Autopilot
 *   (cloud.google.com/kubernetes-engine/docs/concepts/dataplane-v2), so a Standard cluster has none.
 * - AKS: CoreDNS (`coredns`, scaled by `coredns-autoscaler`, a cluster-proportional autoscaler;
 *   learn.microsoft.com/azure/aks/coredns-autoscale), `kube-proxy` (the "AKS-managed kube-proxy
 *   DaemonSet", learn.microsoft.com/azure/aks/configure-kube-proxy), metrics-server on by default
 *   with two pods (learn.microsoft.com/azure/aks/use-metrics-server-vertical-pod-autoscaler),
 *   `konnectivity-agent`, the nodes' tunnel to the API server
 *   (learn.microsoft.com/troubleshoot/azure/azure-kubernetes/connectivity/tcp-timeouts-kubetctl-third-party-tools-connect-api-server),
 *   and Azure's `cloud-node-manager` (github.com/kubernetes/cloud-provider-azure lists the
 *   versions AKS runs). `azure-cns` and `azure-ip-masq-agent` are not among them: no document in
 *   reach names them as defaults.
 * GKE and AKS keep their add-ons reconciled (GKE calls its kube-dns "GKE-managed"; AKS lets the
 * Corefile be changed only through `coredns-custom`); on EKS the self-managed add-ons are yours.
 */
export const PROVIDER_ADDONS: Record<ManagedProvider, ProviderAddon[]> = {
  eks: [
    {
      name: 'aws-node',
      kind: 'DaemonSet',
      doc: 'docs.aws.amazon.com/eks/latest/userguide/managing-vpc-cni.html'
    },
    {
      name: 'kube-proxy',
      kind: 'DaemonSet',
      doc: 'docs.aws.amazon.com/eks/latest/userguide/managing-kube-proxy.html'
    },
    {
      name: 'coredns',
      kind: 'Deployment',
      doc: 'docs.aws.amazon.com/eks/latest/userguide/coredns-autoscaling.html'
    }
  ],
  gke: [
    {
      name: 'kube-dns',
      kind: 'Deployment',
      doc: 'cloud.google.com/kubernetes-engine/docs/concepts/kube-dns'
    },
    {
      name: 'kube-dns-autoscaler',
      kind: 'Deployment',
      doc: 'cloud.google.com/kubernetes-engine/docs/concepts/kube-dns'
    }
  ],
  aks: [
    { name: 'coredns', kind: 'Deployment', doc: 'learn.microsoft.com/azure/aks/coredns-autoscale' },
    {
      name: 'coredns-autoscaler',
      kind: 'Deployment',
      doc: 'learn.microsoft.com/azure/aks/coredns-autoscale'
    },
    { name: 'kube-proxy', kind: 'DaemonSet', doc: 'learn.microsoft.com/azure/aks/configure-kube-proxy' },
    {
      name: 'metrics-server',
      kind: 'Deployment',
      doc: 'learn.microsoft.com/azure/aks/use-metrics-server-vertical-pod-autoscaler'
    },
    {
      name: 'konnectivity-agent',
      kind: 'Deployment',
      doc: 'learn.microsoft.com/troubleshoot/azure/azure-kubernetes/connectivity/tcp-timeouts-kubetctl-third-party-tools-connect-api-server'
    },
    { name: 'cloud-node-manager', kind: 'DaemonSet', doc: 'github.com/kubernetes/cloud-provider-azure' }
  ]
};

/**
 * metrics-server comes with the cluster on AKS (two pods; use-metrics-server-vertical-pod-autoscaler).
 * EKS leaves it to you (an add-on to install). GKE is not stated here: no GKE page in reach says it.
 */
export const METRICS_SERVER_BY_DEFAULT: Record<ManagedProvider, boolean> = {
  eks: false,
  gke: false,
  aks: true
};

/** Whether the provider keeps its add-ons reconciled (GKE, AKS) or leaves updating them to you (EKS). */
export const ADDONS_RECONCILED: Record<ManagedProvider, boolean> = { eks: false, gke: true, aks: true };

/** What the lab shows about a managed control plane (the read models carry it). */
export interface ManagedInfo {
  provider: ManagedProvider;
  name: string;
  serverVersion: string;
  poolLabel: string;
  poolKind: string;
  responsibilities: ResponsibilityRow[];
  nodeRepair: { byDefault: boolean; afterMinutes?: number };
  /** The provider's add-ons in kube-system, and whether the provider keeps them reconciled. */
  addons: { name: string; kind: 'DaemonSet' | 'Deployment' }[];
  addonsReconciled: boolean;
}

export function managedInfo(p: ManagedProvider, kubernetesVersion: string): ManagedInfo {
  const r = NODE_REPAIR[p];
  return {
    provider: p,
    name: PROVIDER_NAME[p],
    serverVersion: serverGitVersion(p, kubernetesVersion),
    poolLabel: POOL_NAME_LABEL[p],
    poolKind: poolKind(p),
    responsibilities: responsibilities(p),
    nodeRepair: { byDefault: r.byDefault, ...(r.afterMinutes ? { afterMinutes: r.afterMinutes } : {}) },
    addons: PROVIDER_ADDONS[p].map(({ name, kind }) => ({ name, kind })),
    addonsReconciled: ADDONS_RECONCILED[p]
  };
}

/** A name a learner tries for a control-plane machine (kubeadm's host names, the API endpoint). */
export function isControlPlaneHostName(host: string): boolean {
  return /^(control-plane|master|etcd|kube-apiserver)/.test(host) || host === '10.0.0.10';
}

/** The console's note after `ssh` to a host that is the provider's. */
export function managedHostNote(p: ManagedProvider): string {
  return `note: ${PROVIDER_NAME[p]} runs this cluster's control plane on machines you cannot log in to; ssh reaches your worker nodes (kubectl get nodes lists them).\n`;
}
