/**
 * Schema of the first document of a scenario file (`kind: Scenario`). The editor uses it for
 * completion; `scenario/load.ts` checks it and then the quantities, names and fault targets.
 */
import { arr, bool, duration, int, map, num, obj, oneOf, quantity, str, type JsonSchema } from './builders';

/** Fault actions a scenario may schedule (see docs/architecture.md, Faults). */
export const SCENARIO_FAULT_ACTIONS = [
  'StopKubelet',
  'StartKubelet',
  'StopRuntime',
  'StartRuntime',
  'PartitionNode',
  'HealNode',
  'FillMemory',
  'FillDisk',
  'RemoveCNI',
  'InstallCNI',
  'DeleteNode',
  'StopControllerManager',
  'StartControllerManager',
  'StopScheduler',
  'StartScheduler',
  'FailMachineBoot',
  'FixMachineBoot',
  'StopEtcdMember',
  'StartEtcdMember',
  'SlowEtcdDisk',
  'FixEtcdDisk',
  'StopControlPlaneNode',
  'StartControlPlaneNode',
  'SetProxyMode',
  'StopKubeProxy',
  'StartKubeProxy',
  'ShutdownNode',
  'PowerOnNode',
  'UpgradeKubelet',
  'JoinControlPlaneNode',
  'FailEtcdDisk',
  'ReplaceEtcdDisk',
  'RejoinEtcdMember'
];

const taint = obj(
  {
    key: str(),
    value: str(),
    effect: oneOf(['NoSchedule', 'PreferNoSchedule', 'NoExecute'])
  },
  { required: ['key', 'effect'] }
);

export const nodePoolSchema = obj(
  {
    name: str('Node names are <name>-1, <name>-2, ... unless `names` lists them.'),
    count: int('Nodes at start (0-1000).', 0, 1000),
    names: arr(str(), 'Explicit node names (as many as count).'),
    capacity: map(quantity(), 'Machine capacity: cpu, memory, ephemeral-storage, pods, nvidia.com/gpu...'),
    devices: map(
      int('Devices of this resource on the machine (0-64).', 0, 64),
      'Devices a device plugin advertises, e.g. nvidia.com/gpu: 1. The Node shows them only once a pod annotated nodeplane.dev/device-plugin with the resource name runs on the node and registers with the kubelet.'
    ),
    labels: map(str()),
    taints: arr(taint, '--register-with-taints'),
    runtime: oneOf(['containerd', 'cri-o'], 'Default containerd.'),
    kubeReserved: map(quantity()),
    systemReserved: map(quantity()),
    evictionHard: map(str(), 'e.g. memory.available: 100Mi. Setting any key drops the other defaults.'),
    maxPods: int('Default 110.', 1, 10000),
    zone: str('topology.kubernetes.io/zone'),
    region: str('topology.kubernetes.io/region'),
    images: arr(str(), 'Images already on the machine (preloaded), name:tag.'),
    pullBandwidth: quantity('Image download speed in bytes per second, e.g. 50Mi.'),
    osImage: str(),
    kernelVersion: str(),
    shutdownGracePeriod: duration(
      'KubeletConfiguration shutdownGracePeriod: how long a shutdown waits for pods. Default 0s (graceful node shutdown off).'
    ),
    shutdownGracePeriodCriticalPods: duration(
      'The part of shutdownGracePeriod kept for critical pods (system-node-critical, system-cluster-critical). Default 0s.'
    ),
    kubeletVersion: str('The kubelet version of these nodes, e.g. v1.32.4. Default the cluster kubernetesVersion.'),
    min: int('Cluster Autoscaler: smallest pool size.', 0, 1000),
    max: int('Cluster Autoscaler: largest pool size.', 0, 1000),
    provider: obj(
      {
        flavour: oneOf(
          ['generic', 'eks', 'gke', 'aks'],
          'EKS managed node group, GKE node pool or AKS agent pool: the labels its nodes get. Default generic.'
        ),
        instanceType: str('node.kubernetes.io/instance-type, e.g. m5.large, e2-standard-4, Standard_D4s_v5.'),
        bootTime: duration('How long a new machine takes to join (Cluster Autoscaler). Default 60s.'),
        mode: oneOf(['system', 'user'], 'AKS only: a system pool keeps at least 2 nodes. Default user.'),
        failBoot: bool('New machines of this pool never register a Node (FailMachineBoot does the same).')
      },
      { description: 'Cloud provider flavour for the Cluster Autoscaler.' }
    )
  },
  { required: ['name', 'count'] }
);

const kubeletOverrides = obj(
  {
    nodeStatusUpdateFrequency: duration('Default 10s.'),
    nodeStatusReportFrequency: duration('Default 5m.'),
    nodeLeaseDurationSeconds: int('Default 40.', 1),
    runtimeCheckPeriod: duration('Default 5s.'),
    runtimeDownThreshold: duration('Default 30s.'),
    imageBackOffInitial: duration('Default 10s.'),
    imageBackOffMax: duration('Default 300s.'),
    containerBackOffInitial: duration('Default 10s.'),
    containerBackOffMax: duration('Default 300s.'),
    containerBackOffReset: duration('Default 10m.'),
    evictionMonitoringPeriod: duration('Default 10s.'),
    evictionPressureTransitionPeriod: duration('Default 5m.'),
    plegRelistPeriod: duration('Default 1s.'),
    plegRelistThreshold: duration('Default 3m.'),
    maxPods: int('Default 110.', 1, 10000)
  },
  {
    description: 'KubeletConfiguration fields for every node (upstream config names).'
  }
);

const controllerManagerOverrides = obj(
  {
    nodeMonitorPeriod: duration('Default 5s.'),
    nodeMonitorGracePeriod: duration('Default 50s (40s before v1.32).'),
    nodeStartupGracePeriod: duration('Default 60s.'),
    nodeEvictionRate: num('Default 0.1 nodes per second.'),
    secondaryNodeEvictionRate: num('Default 0.01.'),
    largeClusterSizeThreshold: int('Default 50.', 0),
    unhealthyZoneThreshold: num('Default 0.55.'),
    podGCPeriod: duration('Default 20s.'),
    podGCQuarantine: duration('Default 40s.'),
    terminatedPodGCThreshold: int('Default 12500.', 0)
  },
  { description: 'kube-controller-manager settings (upstream config names, camelCase).' }
);

const apiServerOverrides = obj({
  defaultNotReadyTolerationSeconds: int('Default 300.', 0),
  defaultUnreachableTolerationSeconds: int('Default 300.', 0)
});

const clusterAutoscalerFlags = obj(
  {
    expander: str('--expander: random, most-pods, least-waste, least-nodes, priority, comma-chained. Default least-waste.'),
    scanInterval: duration('--scan-interval. Default 10s.'),
    maxNodeProvisionTime: duration('--max-node-provision-time. Default 15m.'),
    scaleDownUnneededTime: duration('--scale-down-unneeded-time. Default 10m.'),
    scaleDownDelayAfterAdd: duration('--scale-down-delay-after-add. Default 10m.'),
    maxNodesTotal: int('--max-nodes-total: nodes in the whole cluster. Default 0 (no limit).', 0, 5000),
    coresTotal: { type: 'string', pattern: '^\\d+:\\d+$', description: '--cores-total min:max, in cores. Default 0:320000.' },
    memoryTotal: { type: 'string', pattern: '^\\d+:\\d+$', description: '--memory-total min:max, in GiB. Default 0:6400000.' }
  },
  { description: 'Cluster Autoscaler flags (upstream names, camelCase).' }
);

const fault = obj(
  {
    at: duration('Virtual time from the start, e.g. 90s or 2m.'),
    action: oneOf(SCENARIO_FAULT_ACTIONS),
    target: str('A node name, an etcd member (etcd-0...), or nothing for control-plane actions.'),
    amount: quantity('FillMemory / FillDisk: how much to fill (default: just past the eviction threshold).'),
    mode: oneOf(['iptables', 'ipvs', 'nftables'], 'SetProxyMode: the new kube-proxy mode.')
  },
  { required: ['at', 'action'] }
);

export const scenarioSchema: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://nodeplane.dev/schemas/scenario.json',
  title: 'Nodeplane scenario',
  ...obj(
    {
      apiVersion: { type: 'string', enum: ['nodeplane.dev/v1alpha1'] },
      kind: { type: 'string', enum: ['Scenario'] },
      metadata: obj(
        { name: str(), description: str(), labels: map(str()), annotations: map(str()) },
        { required: ['name'] }
      ),
      spec: obj({
        seed: int('Seed of the simulation random source. Default 1.', 0, 4294967295),
        kubernetesVersion: str('Default v1.35.0.'),
        duration: duration('How long `nodeplane run` runs without --until. Default 10m.'),
        controlPlane: obj({
          managed: oneOf(
            ['eks', 'gke', 'aks'],
            'The provider runs the control plane (Amazon EKS, GKE, AKS): no control-plane hosts to log in to, no static pods, no control-plane faults; node pools are the provider\'s. Default: none (a kubeadm cluster).'
          ),
          apiServers: int('kube-apiserver instances. Default 1.', 1, 7),
          etcd: obj({
            members: { type: 'integer', enum: [1, 3, 5], description: 'Default 1.' },
            topology: oneOf(['stacked', 'external'], 'Default stacked.')
          }),
          machine: obj({
            cores: {
              type: 'integer',
              enum: [1, 2, 4, 8, 16, 32, 64],
              description: 'CPU cores of each control-plane machine (the API-server load model). Default 2.'
            }
          }),
          plan: obj(
            {
              nodes: int('Nodes the cluster is expected to grow to.', 1, 5000),
              podChurnPerSecond: num('Pod starts per second expected at that size. Default 20.')
            },
            { required: ['nodes'] }
          )
        }),
        nodePools: arr(nodePoolSchema),
        network: obj({
          proxyMode: oneOf(['iptables', 'ipvs', 'nftables'], 'Default iptables.'),
          cni: oneOf(['calico', 'cilium', 'flannel', 'none'], 'Default calico.'),
          clusterCIDR: str('Default 10.244.0.0/16.'),
          serviceCIDR: str('Default 10.96.0.0/12.'),
          kubeProxy: obj({
            deployment: oneOf(
              ['daemonset', 'systemd'],
              "How kube-proxy runs on each node: daemonset (kubeadm's kube-system/kube-proxy DaemonSet and ConfigMap) or systemd (a kube-proxy.service unit on every node reading /var/lib/kube-proxy/config.conf, as clusters built by hand run it). Default daemonset."
            )
          })
        }),
        kubelet: kubeletOverrides,
        controllerManager: controllerManagerOverrides,
        apiServer: apiServerOverrides,
        registry: obj({
          images: arr(
            obj(
              { image: str('name:tag'), size: quantity('Compressed size, e.g. 120Mi.') },
              { required: ['image', 'size'] }
            )
          )
        }),
        faults: arr(fault),
        clusterAutoscaler: clusterAutoscalerFlags,
        addons: obj(
          {
            metricsServer: bool(
              'Deploy metrics-server v0.8.0 in kube-system (components.yaml) and register metrics.k8s.io, so kubectl top works. Default false; true on AKS (controlPlane.managed: aks), which deploys it with the cluster.'
            )
          },
          { description: 'Cluster addons installed with the cluster.' }
        )
      })
    },
    { required: ['apiVersion', 'kind', 'metadata', 'spec'] }
  )
};
