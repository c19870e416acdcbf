/**
 * Build a running cluster from a scenario file: configuration, etcd members, the control plane
 * and one kubelet per node (component kinds from ../registry.ts), then
 * the `scenario` component, which schedules the faults, applies the scenario's objects through the
 * API as `kubectl` would right after the nodes' first registration, and keeps a kube-proxy on
 * every node.
 */
import { Cluster } from '../cluster';
import { Etcd } from '../etcd/etcd';
import { setRegistryImages } from '../node/registry';
import { normalizeImage } from '../node/registry';
import { SCENARIO_COMPONENT_ID, type ScenarioComponentArgs } from './component';
import { loadScenario } from './load';
import type { Scenario } from './types';
import type { BootstrapObjects, BootstrapStep } from './hooks';
import { kubernetesServiceStep } from '../network';
import { clusterAutoscalerStep } from '../controllers/cluster-autoscaler';
import { apiserverLoadStep, leaderElectionStep } from '../controlplane';
import { staticPodsStep } from '../etcd/staticpods';
import { prometheusStep } from '../monitoring/prometheus';
import { metricsServerObjectSet, metricsServerStep } from './addons/metrics-server';
import { nodeAutoRepairStep } from '../controlplane/autorepair';
import {
  aksMetricsServerObjects,
  providerDNSObjects,
  providerImagesStep,
  providerNetworkObjects
} from '../controlplane/managed-addons';
import { AKS_MODE_LABEL } from '../controllers/cluster-autoscaler/flavours';
import type { KubeObject } from '../api/types';

/**
 * The scenario-level setup steps, in the order they run after the kubelets are added: the
 * `default/kubernetes` Service kube-apiserver creates, the Cluster Autoscaler, leader election
 * and the API server load model. (A function: the modules may still be loading when this one is.)
 */
export function bootstrapSteps(): { name: string; step: BootstrapStep }[] {
  return [
    { name: 'kubernetes-service', step: kubernetesServiceStep },
    { name: 'provider-images', step: providerImagesStep },
    { name: 'cluster-autoscaler', step: clusterAutoscalerStep },
    { name: 'leader-election', step: leaderElectionStep },
    { name: 'apiserver-load', step: apiserverLoadStep },
    { name: 'static-pods', step: staticPodsStep },
    { name: 'prometheus', step: prometheusStep },
    { name: 'metrics-server', step: metricsServerStep },
    { name: 'node-auto-repair', step: nodeAutoRepairStep }
  ];
}

/**
 * The installer's objects, in the order they are applied once the first node registered: kubeadm's
 * CoreDNS addon (addons/coredns.ts) and the CNI plugin's own workloads (network/cni-pods.ts; none
 * with `cni: none`); in a managed cluster the provider's DNS and network add-ons instead
 * (controlplane/managed-addons.ts). kubeadm's kube-proxy addon is created with the kube-proxy
 * ConfigMap (network/kubeproxy-addon.ts), since kube-proxy's processes read it from the start.
 */
export function bootstrapObjectSets(): { name: string; objects: BootstrapObjects }[] {
  return [
    {
      name: 'coredns',
      objects: (cluster, scenario) => onSystemPools(scenario, providerDNSObjects(cluster, scenario))
    },
    {
      name: 'cni',
      objects: (cluster, scenario) => onSystemPools(scenario, providerNetworkObjects(cluster, scenario))
    },
    {
      name: 'metrics-server',
      objects: (cluster, scenario) => {
        const objects = metricsServerObjectSet(cluster, scenario);
        return onSystemPools(
          scenario,
          objects.length && cluster.config.managed === 'aks' ? aksMetricsServerObjects() : objects
        );
      }
    }
  ];
}

/**
 * AKS keeps its add-on Deployments on the system node pools: they prefer nodes labelled
 * kubernetes.azure.com/mode=system (weight 100), which is what lets the user pools scale to zero.
 * Applied where the scenario has an AKS system pool; DaemonSets run everywhere regardless.
 */
function onSystemPools(scenario: Scenario, objects: KubeObject[]): KubeObject[] {
  if (!(scenario.spec.nodePools ?? []).some((p) => p.provider?.mode === 'system')) return objects;
  for (const o of objects) {
    if (o.kind !== 'Deployment') continue;
    const spec = o.spec.template.spec;
    spec.affinity = {
      ...(spec.affinity ?? {}),
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 100,
            preference: { matchExpressions: [{ key: AKS_MODE_LABEL, operator: 'In', values: ['system'] }] }
          }
        ]
      }
    };
  }
  return objects;
}

export interface CreateClusterOptions {
  fileName?: string;
  /**
   * `error` (default): a component kind nobody registered is an error. `skip`: build the cluster
   * without it and list it in `missing` (the headless runner reports it and continues).
   */
  missingComponents?: 'error' | 'skip';
}

export interface CreatedCluster {
  cluster: Cluster;
  scenario: Scenario;
  /** Component kinds that were not registered (only with missingComponents: 'skip'). */
  missing: string[];
}

/** Where each component kind is implemented, for the error when it is not registered. */
const KIND_MODULES: Record<string, string> = {
  kubelet: 'src/lib/sim/node',
  'kube-controller-manager': 'src/lib/sim/controllers',
  'kube-scheduler': 'src/lib/sim/scheduler'
};

export class MissingComponentError extends Error {
  constructor(readonly kind: string) {
    super(
      `component kind "${kind}" is not registered: import ${KIND_MODULES[kind] ?? 'its module'} (importing it registers the kind) before createCluster`
    );
    this.name = 'MissingComponentError';
  }
}

function etcdFor(s: Scenario): Etcd {
  // Stacked etcd runs on the control-plane nodes; external etcd on its own hosts.
  const host = (i: number) => (s.etcd.topology === 'stacked' ? `control-plane-${i + 1}` : `etcd-${i}`);
  return Etcd.withMembers(s.etcd.members, host);
}

export function createCluster(scenarioText: string, opts: CreateClusterOptions = {}): CreatedCluster {
  const scenario = loadScenario(scenarioText, opts.fileName ?? 'scenario.yaml');
  const cluster = new Cluster(structuredClone(scenario.config), etcdFor(scenario));
  if (scenario.apiServers > 1) {
    cluster.apiServers = Array.from({ length: scenario.apiServers }, (_, i) => ({
      name: `kube-apiserver-control-plane-${i + 1}`,
      running: true
    }));
  }
  cluster.extensions['scenario'] = {
    name: scenario.name,
    nodePools: structuredClone(scenario.spec.nodePools ?? []),
    etcd: scenario.etcd,
    apiServers: scenario.apiServers
  };
  if (scenario.registryImages.length) {
    setRegistryImages(
      cluster,
      scenario.registryImages.map((i) => {
        const ref = normalizeImage(i.image);
        return { repository: ref.repository, tag: ref.tag, sizeBytes: i.sizeBytes };
      })
    );
  }
  const missing: string[] = [];
  const add = (kind: string, args: unknown) => {
    try {
      cluster.addComponent(kind, args);
    } catch (e) {
      if (!(e instanceof Error) || !e.message.startsWith('unknown component kind')) throw e;
      if (opts.missingComponents !== 'skip') throw new MissingComponentError(kind);
      if (!missing.includes(kind)) missing.push(kind);
    }
  };
  add('kube-controller-manager', {});
  add('kube-scheduler', {});
  for (const node of scenario.nodes) add('kubelet', node);
  for (const s of bootstrapSteps()) s.step(cluster, scenario);
  // The objects wait for the nodes, as in a cluster that is already running: the kubelets'
  // first registration attempt is one backoff step (100ms) after they start, and the objects are
  // applied right after it at the same instant (loadScenario already checked them with a dry
  // run). A kubelet stopped by a 0s fault never gets there.
  add('scenario', {
    faults: scenario.faults,
    network: !missing.includes('kubelet'),
    objects: [
      ...bootstrapObjectSets().flatMap(({ name, objects }) =>
        objects(cluster, scenario).map((obj, i) => ({ obj, doc: i + 1, line: 1, file: name }))
      ),
      ...scenario.objects.map(({ obj, doc, line, file }) => ({
        obj: structuredClone(obj),
        doc,
        line,
        file
      }))
    ],
    objectsAt: firstRegistration(cluster)
  } satisfies ScenarioComponentArgs);
  return { cluster, scenario, missing };
}

/** When the kubelets started so far make their first registration attempt (0 without kubelets). */
function firstRegistration(cluster: Cluster): number {
  let at = 0;
  for (const host of cluster.nodeHosts()) {
    at = Math.max(at, cluster.now + host.kubelet.state.registerDelay);
  }
  return at;
}

export function scenarioFaultFailures(
  cluster: Cluster
): { t: number; action: string; target?: string; error: string }[] {
  const c = cluster.component(SCENARIO_COMPONENT_ID);
  return c
    ? (c.getState() as { failures: { t: number; action: string; target?: string; error: string }[] }).failures
    : [];
}
