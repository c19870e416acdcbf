/**
 * A fixed cluster for the console's golden tests, written straight through the API at fixed
 * virtual times: a control-plane node, a Ready worker, a cordoned worker and a worker whose
 * kubelet stopped, with pods in the states kubectl prints (Running with a restart, Pending with
 * FailedScheduling, Evicted, CrashLoopBackOff, ImagePullBackOff, ContainerCreating, Terminating,
 * Completed) and the events the components would have recorded.
 */
import { Cluster } from '../../cluster';
import type { KubeObject } from '../../api/types';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

const S = 1000;

/** The instant the golden outputs are taken at: 5m50s after the cluster started. */
export const GOLDEN_TIME = 350 * S;

const NOT_READY_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }
];

interface NodeSpec {
  name: string;
  ip: string;
  cidr: string;
  controlPlane?: boolean;
  unschedulable?: boolean;
  /** Last heartbeat (virtual ms) when the kubelet stopped; the node is then Unknown. */
  lostAt?: number;
}

function condition(type: string, status: string, reason: string, message: string, hb: string, tr: string) {
  return { type, status, reason, message, lastHeartbeatTime: hb, lastTransitionTime: tr };
}

function wantedTaints(n: NodeSpec, now: string): Any[] {
  if (n.controlPlane) return [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }];
  if (n.unschedulable)
    return [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: now }];
  return [];
}

export function goldenCluster(): Cluster {
  const c = new Cluster();
  const api = c.api;
  const iso = (t: number) => api.timestamp(t - c.engine.now);
  const at = (t: number) => c.engine.runUntil(t);
  const kubelet = (node: string) => ({ component: 'kubelet', host: node });

  const nodes: NodeSpec[] = [
    { name: 'cp-1', ip: '10.0.0.10', cidr: '10.244.0.0/24', controlPlane: true },
    { name: 'worker-1', ip: '10.0.0.11', cidr: '10.244.1.0/24' },
    { name: 'worker-2', ip: '10.0.0.12', cidr: '10.244.2.0/24', lostAt: 200 * S },
    { name: 'worker-3', ip: '10.0.0.13', cidr: '10.244.3.0/24', unschedulable: true }
  ];

  for (const n of nodes) {
    const labels: Record<string, string> = {
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': n.name,
      'kubernetes.io/os': 'linux'
    };
    if (n.controlPlane) {
      labels['node-role.kubernetes.io/control-plane'] = '';
      labels['node.kubernetes.io/exclude-from-external-load-balancers'] = '';
    }
    const created = api.create<KubeObject>({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: n.name,
        labels,
        annotations: {
          'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///var/run/containerd/containerd.sock',
          'node.alpha.kubernetes.io/ttl': '0',
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true'
        }
      },
      spec: { podCIDR: n.cidr, podCIDRs: [n.cidr], ...(n.unschedulable ? { unschedulable: true } : {}) },
      status: {
        capacity: {
          cpu: '2',
          'ephemeral-storage': '50620216Ki',
          'hugepages-1Gi': '0',
          'hugepages-2Mi': '0',
          memory: '4015852Ki',
          pods: '110'
        },
        allocatable: {
          cpu: '2',
          'ephemeral-storage': '46650761776',
          'hugepages-1Gi': '0',
          'hugepages-2Mi': '0',
          memory: '3913452Ki',
          pods: '110'
        },
        conditions: [
          condition(
            'MemoryPressure',
            'False',
            'KubeletHasSufficientMemory',
            'kubelet has sufficient memory available',
            iso(0),
            iso(0)
          ),
          condition(
            'DiskPressure',
            'False',
            'KubeletHasNoDiskPressure',
            'kubelet has no disk pressure',
            iso(0),
            iso(0)
          ),
          condition(
            'PIDPressure',
            'False',
            'KubeletHasSufficientPID',
            'kubelet has sufficient PID available',
            iso(0),
            iso(0)
          ),
          condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', iso(0), iso(0))
        ],
        addresses: [
          { type: 'InternalIP', address: n.ip },
          { type: 'Hostname', address: n.name }
        ],
        nodeInfo: {
          machineID: `${n.name.replace(/\W/g, '')}0000000000000000000000000`.slice(0, 32),
          systemUUID: `ec2${n.ip.split('.')[3]}a1f-5b0e-4c3d-9e8f-0a1b2c3d4e5f`,
          bootID: `b00710${n.ip.split('.')[3]}-1c2d-4e5f-8a9b-0c1d2e3f4a5b`,
          kernelVersion: '6.8.0-87-generic',
          osImage: 'Ubuntu 24.04.3 LTS',
          containerRuntimeVersion: 'containerd://2.1.4',
          kubeletVersion: 'v1.35.0',
          kubeProxyVersion: '',
          operatingSystem: 'linux',
          architecture: 'amd64'
        }
      }
    });
    // The node lifecycle controller lifts the not-ready taint TaintNodesByCondition added at registration.
    const node = api.update<KubeObject>(
      { ...created, spec: { ...created.spec, taints: wantedTaints(n, iso(0)) } },
      { component: 'kube-controller-manager' }
    );
    api.create({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: n.name,
        namespace: 'kube-node-lease',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: n.name, uid: node.metadata.uid! }]
      },
      spec: { holderIdentity: n.name, leaseDurationSeconds: 40, renewTime: '2026-01-01T00:00:00.000000Z' }
    });
    c.recorder.event(
      { ...node, metadata: { ...node.metadata, uid: n.name } },
      'Normal',
      'Starting',
      'Starting kubelet.',
      kubelet(n.name)
    );
    c.recorder.event(
      node,
      'Normal',
      'RegisteredNode',
      `Node ${n.name} event: Registered Node ${n.name} in Controller`,
      { component: 'node-controller' }
    );
  }

  const pod = (p: {
    name: string;
    ns?: string;
    node?: string;
    image?: string;
    labels?: Record<string, string>;
    owner?: { kind: string; name: string };
    requests?: Record<string, string>;
    limits?: Record<string, string>;
    status: Any;
    volumes?: Any[];
    tolerations?: Any[];
  }) =>
    api.create<KubeObject>({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: p.name,
        namespace: p.ns ?? 'default',
        labels: p.labels ?? {},
        ...(p.owner
          ? {
              ownerReferences: [
                {
                  apiVersion: 'apps/v1',
                  kind: p.owner.kind,
                  name: p.owner.name,
                  uid: `uid-${p.owner.name}`,
                  controller: true,
                  blockOwnerDeletion: true
                }
              ]
            }
          : {})
      },
      spec: {
        ...(p.node ? { nodeName: p.node } : {}),
        containers: [
          {
            name: p.name.split('-')[0],
            image: p.image ?? 'nginx:1.27',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            resources: {
              ...(p.requests ? { requests: p.requests } : {}),
              ...(p.limits ? { limits: p.limits } : {})
            }
          }
        ],
        restartPolicy: 'Always',
        schedulerName: 'default-scheduler',
        serviceAccountName: 'default',
        terminationGracePeriodSeconds: 30,
        priority: 0,
        tolerations: p.tolerations ?? NOT_READY_TOLERATIONS,
        ...(p.volumes ? { volumes: p.volumes } : {})
      },
      status: p.status
    });

  const running = (node: string, ip: string, name: string, started: number, extra: Any = {}) => ({
    phase: 'Running',
    hostIP: nodes.find((n) => n.name === node)!.ip,
    hostIPs: [{ ip: nodes.find((n) => n.name === node)!.ip }],
    podIP: ip,
    podIPs: [{ ip }],
    startTime: iso(started - 2 * S),
    qosClass: extra.qosClass ?? 'Burstable',
    conditions: [
      {
        type: 'PodReadyToStartContainers',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: iso(started)
      },
      { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: iso(started - 2 * S) },
      { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: iso(started) },
      { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: iso(started) },
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: iso(started - 2 * S) }
    ],
    containerStatuses: [
      {
        name,
        state: { running: { startedAt: iso(extra.runningSince ?? started) } },
        ...(extra.lastState ? { lastState: extra.lastState } : { lastState: {} }),
        ready: true,
        restartCount: extra.restartCount ?? 0,
        image: 'docker.io/library/nginx:1.27',
        imageID:
          'docker.io/library/nginx@sha256:2c1b2a7c0f4a1c8d1d22a6a7b3b8d8e0f59e9a7c5f3e2d1c0b9a8f7e6d5c4b3a',
        containerID: `containerd://${name}${ip.replace(/\./g, '')}`.padEnd(77, '0'),
        started: true
      }
    ]
  });

  // kube-proxy on every node, from t=10s.
  at(10 * S);
  const proxyIps = ['10.0.0.10', '10.0.0.11', '10.0.0.12', '10.0.0.13'];
  const proxySuffix = ['7k2xq', 'bq9mz', 'h4d8w', 'r6tnc'];
  nodes.forEach((n, i) =>
    pod({
      name: `kube-proxy-${proxySuffix[i]}`,
      ns: 'kube-system',
      node: n.name,
      image: 'registry.k8s.io/kube-proxy:v1.35.0',
      labels: { 'k8s-app': 'kube-proxy' },
      owner: { kind: 'DaemonSet', name: 'kube-proxy' },
      tolerations: [{ operator: 'Exists' }],
      status: { ...running(n.name, proxyIps[i], 'kube-proxy', 12 * S), qosClass: 'BestEffort' }
    })
  );

  // A Deployment's pods on worker-1, created at t=30s; one restarted at 3m58s.
  at(30 * S);
  const web = pod({
    name: 'web-7c5ddbdf54-2xkqp',
    node: 'worker-1',
    labels: { app: 'web', 'pod-template-hash': '7c5ddbdf54' },
    owner: { kind: 'ReplicaSet', name: 'web-7c5ddbdf54' },
    requests: { cpu: '250m', memory: '64Mi' },
    limits: { memory: '128Mi' },
    status: running('worker-1', '10.244.1.5', 'web', 36 * S, {
      restartCount: 1,
      runningSince: 238 * S,
      lastState: {
        terminated: { exitCode: 137, reason: 'OOMKilled', startedAt: iso(36 * S), finishedAt: iso(237 * S) }
      }
    })
  });
  pod({
    name: 'web-7c5ddbdf54-9vmtn',
    node: 'worker-1',
    labels: { app: 'web', 'pod-template-hash': '7c5ddbdf54' },
    owner: { kind: 'ReplicaSet', name: 'web-7c5ddbdf54' },
    requests: { cpu: '250m', memory: '64Mi' },
    limits: { memory: '128Mi' },
    status: running('worker-1', '10.244.1.6', 'web', 37 * S)
  });
  const doomed = pod({
    name: 'web-7c5ddbdf54-m5jzr',
    node: 'worker-2',
    labels: { app: 'web', 'pod-template-hash': '7c5ddbdf54' },
    owner: { kind: 'ReplicaSet', name: 'web-7c5ddbdf54' },
    requests: { cpu: '250m', memory: '64Mi' },
    limits: { memory: '128Mi' },
    status: running('worker-2', '10.244.2.4', 'web', 40 * S)
  });
  c.recorder.event(
    web,
    'Normal',
    'Scheduled',
    'Successfully assigned default/web-7c5ddbdf54-2xkqp to worker-1',
    { component: 'default-scheduler' }
  );
  at(31 * S);
  c.recorder.event(
    web,
    'Normal',
    'Pulling',
    'Pulling image "nginx:1.27"',
    kubelet('worker-1'),
    undefined,
    'spec.containers{web}'
  );
  at(35 * S);
  c.recorder.event(
    web,
    'Normal',
    'Pulled',
    'Successfully pulled image "nginx:1.27" in 3.907s (3.907s including waiting). Image size: 72225394 bytes.',
    kubelet('worker-1'),
    undefined,
    'spec.containers{web}'
  );
  c.recorder.event(
    web,
    'Normal',
    'Created',
    'Created container: web',
    kubelet('worker-1'),
    undefined,
    'spec.containers{web}'
  );
  c.recorder.event(
    web,
    'Normal',
    'Started',
    'Started container web',
    kubelet('worker-1'),
    undefined,
    'spec.containers{web}'
  );

  // A pod too big for any node: Pending with FailedScheduling.
  at(60 * S);
  const big = pod({
    name: 'big-batch',
    labels: { app: 'batch' },
    requests: { cpu: '4', memory: '1Gi' },
    status: {
      phase: 'Pending',
      qosClass: 'Burstable',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          lastProbeTime: null,
          lastTransitionTime: iso(60 * S),
          reason: 'Unschedulable',
          message:
            '0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 1 node(s) were unschedulable, 1 node(s) had insufficient cpu. preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.'
        }
      ]
    }
  });
  c.recorder.event(big, 'Warning', 'FailedScheduling', big.status.conditions[0].message, {
    component: 'default-scheduler'
  });

  // A pod whose image does not exist, and one that crashes.
  at(90 * S);
  pod({
    name: 'api-5f9c7d8b6-lx4pn',
    node: 'worker-1',
    image: 'registry.example.com/api:v2',
    labels: { app: 'api', 'pod-template-hash': '5f9c7d8b6' },
    owner: { kind: 'ReplicaSet', name: 'api-5f9c7d8b6' },
    status: {
      phase: 'Pending',
      hostIP: '10.0.0.11',
      podIP: '10.244.1.7',
      podIPs: [{ ip: '10.244.1.7' }],
      startTime: iso(90 * S),
      qosClass: 'BestEffort',
      containerStatuses: [
        {
          name: 'api',
          state: {
            waiting: {
              reason: 'ImagePullBackOff',
              message: 'Back-off pulling image "registry.example.com/api:v2"'
            }
          },
          lastState: {},
          ready: false,
          restartCount: 0,
          image: 'registry.example.com/api:v2',
          imageID: '',
          started: false
        }
      ]
    }
  });
  pod({
    name: 'worker-6d4b9c7f88-p8rjd',
    node: 'worker-1',
    image: 'busybox:1.36',
    labels: { app: 'worker', 'pod-template-hash': '6d4b9c7f88' },
    owner: { kind: 'ReplicaSet', name: 'worker-6d4b9c7f88' },
    status: {
      ...running('worker-1', '10.244.1.8', 'worker', 92 * S),
      conditions: [],
      qosClass: 'BestEffort',
      containerStatuses: [
        {
          name: 'worker',
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: 'back-off 2m40s restarting failed container=worker'
            }
          },
          lastState: {
            terminated: { exitCode: 1, reason: 'Error', startedAt: iso(300 * S), finishedAt: iso(301 * S) }
          },
          ready: false,
          restartCount: 5,
          image: 'docker.io/library/busybox:1.36',
          imageID:
            'docker.io/library/busybox@sha256:9ae97d36d26566ff84e8893c64a6dc4fe8ca6d1144bf5b87b2b85a32def253c7',
          containerID: 'containerd://0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9',
          started: false
        }
      ]
    }
  });

  // Evicted under memory pressure on worker-1 at 2m.
  at(100 * S);
  const evicted = pod({
    name: 'cache-0',
    node: 'worker-1',
    image: 'redis:7.4',
    labels: { app: 'cache' },
    status: {
      phase: 'Failed',
      reason: 'Evicted',
      message:
        'The node was low on resource: memory. Threshold quantity: 100Mi, available: 92340Ki. Container cache was using 1520448Ki, request is 0, has larger consumption of memory. ',
      hostIP: '10.0.0.11',
      startTime: iso(100 * S),
      qosClass: 'BestEffort',
      conditions: [
        {
          type: 'DisruptionTarget',
          status: 'True',
          lastProbeTime: null,
          lastTransitionTime: iso(120 * S),
          reason: 'TerminationByKubelet',
          message:
            'The node was low on resource: memory. Threshold quantity: 100Mi, available: 92340Ki. Container cache was using 1520448Ki, request is 0, has larger consumption of memory. '
        },
        {
          type: 'PodReadyToStartContainers',
          status: 'False',
          lastProbeTime: null,
          lastTransitionTime: iso(121 * S)
        },
        { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: iso(100 * S) },
        {
          type: 'Ready',
          status: 'False',
          lastProbeTime: null,
          lastTransitionTime: iso(121 * S),
          reason: 'PodFailed'
        },
        {
          type: 'ContainersReady',
          status: 'False',
          lastProbeTime: null,
          lastTransitionTime: iso(121 * S),
          reason: 'PodFailed'
        },
        { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: iso(100 * S) }
      ],
      containerStatuses: [
        {
          name: 'cache',
          state: {
            terminated: {
              exitCode: 137,
              reason: 'ContainerStatusUnknown',
              message: 'The container could not be located when the pod was terminated',
              startedAt: iso(102 * S),
              finishedAt: iso(121 * S)
            }
          },
          lastState: {},
          ready: false,
          restartCount: 0,
          image: 'docker.io/library/redis:7.4',
          imageID:
            'docker.io/library/redis@sha256:1f9a7ed0a2e4e0a6d2b2f1c4e7c8b5a9d3e6f0a1b2c3d4e5f60718293a4b5c6d',
          containerID: 'containerd://3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b',
          started: false
        }
      ]
    }
  });
  at(120 * S);
  c.recorder.event(
    evicted,
    'Warning',
    'Evicted',
    'The node was low on resource: memory. Threshold quantity: 100Mi, available: 92340Ki. Container cache was using 1520448Ki, request is 0, has larger consumption of memory. ',
    kubelet('worker-1')
  );
  c.recorder.event(
    evicted,
    'Normal',
    'Killing',
    'Stopping container cache',
    kubelet('worker-1'),
    undefined,
    'spec.containers{cache}'
  );

  // Admitted during memory pressure: the kubelet rejects a BestEffort pod before starting it.
  at(130 * S);
  const rejected = pod({
    name: 'report-5n8vq',
    node: 'worker-1',
    image: 'busybox:1.36',
    labels: { app: 'report' },
    status: {
      phase: 'Failed',
      reason: 'Evicted',
      message: 'Pod was rejected: The node had condition: [MemoryPressure]. ',
      startTime: iso(130 * S),
      qosClass: 'BestEffort'
    }
  });
  c.recorder.event(
    rejected,
    'Warning',
    'Evicted',
    'The node had condition: [MemoryPressure]. ',
    kubelet('worker-1')
  );

  // A completed Job pod and a pod still creating its sandbox.
  at(150 * S);
  pod({
    name: 'migrate-x7k2p',
    node: 'worker-1',
    image: 'busybox:1.36',
    labels: { 'job-name': 'migrate' },
    status: {
      phase: 'Succeeded',
      hostIP: '10.0.0.11',
      podIP: '10.244.1.9',
      podIPs: [{ ip: '10.244.1.9' }],
      qosClass: 'BestEffort',
      containerStatuses: [
        {
          name: 'migrate',
          state: {
            terminated: {
              exitCode: 0,
              reason: 'Completed',
              startedAt: iso(152 * S),
              finishedAt: iso(160 * S)
            }
          },
          lastState: {},
          ready: false,
          restartCount: 0,
          image: 'docker.io/library/busybox:1.36',
          imageID:
            'docker.io/library/busybox@sha256:9ae97d36d26566ff84e8893c64a6dc4fe8ca6d1144bf5b87b2b85a32def253c7',
          containerID: 'containerd://5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d',
          started: false
        }
      ]
    }
  });
  // worker-2's kubelet stopped at 200s: Unknown after the 50s grace, taints, pods terminating.
  at(255 * S);
  const w2 = api.get<KubeObject>('Node', undefined, 'worker-2');
  const lost = iso(200 * S);
  api.update(
    {
      ...w2,
      spec: {
        ...w2.spec,
        taints: [
          { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: iso(255 * S) },
          { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: iso(255 * S) }
        ]
      }
    },
    { component: 'kube-controller-manager' }
  );
  const w2s = api.get<KubeObject>('Node', undefined, 'worker-2');
  api.update(
    {
      ...w2s,
      status: {
        ...w2s.status,
        conditions: ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map((t) =>
          condition(
            t,
            'Unknown',
            'NodeStatusUnknown',
            'Kubelet stopped posting node status.',
            lost,
            iso(255 * S)
          )
        )
      }
    },
    { component: 'kube-controller-manager' },
    { subresource: 'status' }
  );
  c.recorder.event(w2s, 'Normal', 'NodeNotReady', 'Node worker-2 status is now: NodeNotReady', {
    component: 'node-controller'
  });
  at(300 * S);
  api.delete('Pod', 'default', doomed.metadata.name, {}, { component: 'kube-controller-manager' });
  c.recorder.event(
    doomed,
    'Normal',
    'TaintManagerEviction',
    'Marking for deletion Pod default/web-7c5ddbdf54-m5jzr',
    { component: 'taint-eviction-controller' }
  );

  at(340 * S);
  pod({
    name: 'web-7c5ddbdf54-qz8fw',
    node: 'worker-1',
    labels: { app: 'web', 'pod-template-hash': '7c5ddbdf54' },
    owner: { kind: 'ReplicaSet', name: 'web-7c5ddbdf54' },
    requests: { cpu: '250m', memory: '64Mi' },
    limits: { memory: '128Mi' },
    status: {
      phase: 'Pending',
      hostIP: '10.0.0.11',
      startTime: iso(340 * S),
      qosClass: 'Burstable',
      containerStatuses: [
        {
          name: 'web',
          state: { waiting: { reason: 'ContainerCreating' } },
          lastState: {},
          ready: false,
          restartCount: 0,
          image: 'nginx:1.27',
          imageID: '',
          started: false
        }
      ]
    }
  });

  at(GOLDEN_TIME);
  return c;
}
