/** Schemas of the kinds Nodeplane simulates, keyed by kind. Status is written by components and left open. */
import { arr, bool, int, intOrString, map, obj, oneOf, open, str, type JsonSchema } from './builders';
import { labelSelector, objectMeta, podSpec, podTemplateSpec, resourceList, taint } from './core';

function kindSchema(
  apiVersion: string,
  kind: string,
  fields: Record<string, JsonSchema>,
  opts: { status?: JsonSchema; description?: string } = {}
): JsonSchema {
  return obj(
    {
      apiVersion: { type: 'string', enum: [apiVersion] },
      kind: { type: 'string', enum: [kind] },
      metadata: objectMeta,
      ...fields,
      ...(opts.status ? { status: opts.status } : {})
    },
    { required: ['apiVersion', 'kind', 'metadata'], description: opts.description }
  );
}

const status = open('Written by the control plane; accepted and ignored when you apply.');

export const podSchema = kindSchema('v1', 'Pod', { spec: podSpec }, { status });

export const nodeSchema = kindSchema(
  'v1',
  'Node',
  {
    spec: obj({
      podCIDR: str(),
      podCIDRs: arr(str()),
      providerID: str(),
      unschedulable: bool(
        'kubectl cordon sets it; the control plane adds node.kubernetes.io/unschedulable:NoSchedule.'
      ),
      taints: arr(taint)
    })
  },
  {
    status: {
      type: 'object',
      description:
        'Capacity and allocatable are reported by the kubelet; editing them simulates other hardware.',
      properties: { capacity: resourceList, allocatable: resourceList }
    }
  }
);

const rollingUpdate = obj({
  maxSurge: intOrString('Default 25%.'),
  maxUnavailable: intOrString('Default 25%.')
});

export const deploymentSchema = kindSchema(
  'apps/v1',
  'Deployment',
  {
    spec: obj(
      {
        replicas: int('Default 1.', 0),
        selector: labelSelector,
        template: podTemplateSpec,
        strategy: obj({ type: oneOf(['RollingUpdate', 'Recreate']), rollingUpdate }),
        minReadySeconds: int(undefined, 0),
        revisionHistoryLimit: int('Default 10.', 0),
        progressDeadlineSeconds: int('Default 600.', 1),
        paused: bool()
      },
      { required: ['selector', 'template'] }
    )
  },
  { status }
);

export const replicaSetSchema = kindSchema(
  'apps/v1',
  'ReplicaSet',
  {
    spec: obj(
      {
        replicas: int('Default 1.', 0),
        selector: labelSelector,
        template: podTemplateSpec,
        minReadySeconds: int(undefined, 0)
      },
      { required: ['selector'] }
    )
  },
  { status }
);

export const daemonSetSchema = kindSchema(
  'apps/v1',
  'DaemonSet',
  {
    spec: obj(
      {
        selector: labelSelector,
        template: podTemplateSpec,
        updateStrategy: obj({
          type: oneOf(['RollingUpdate', 'OnDelete']),
          rollingUpdate: obj({
            maxSurge: intOrString('Default 0.'),
            maxUnavailable: intOrString('Default 1.')
          })
        }),
        minReadySeconds: int(undefined, 0),
        revisionHistoryLimit: int('Default 10.', 0)
      },
      { required: ['selector', 'template'] }
    )
  },
  { status }
);

const servicePort = obj(
  {
    name: str(),
    protocol: oneOf(['TCP', 'UDP', 'SCTP']),
    port: int(undefined, 1, 65535),
    targetPort: intOrString('Defaults to port.'),
    nodePort: int('30000-32767 by default.'),
    appProtocol: str()
  },
  { required: ['port'] }
);

export const serviceSchema = kindSchema(
  'v1',
  'Service',
  {
    spec: obj({
      type: oneOf(['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName']),
      selector: map(str()),
      ports: arr(servicePort),
      clusterIP: str('"None" makes a headless Service.'),
      clusterIPs: arr(str()),
      externalName: str(),
      sessionAffinity: oneOf(['None', 'ClientIP']),
      sessionAffinityConfig: obj({ clientIP: obj({ timeoutSeconds: int('Default 10800.', 1, 86400) }) }),
      externalTrafficPolicy: oneOf(['Cluster', 'Local']),
      internalTrafficPolicy: oneOf(['Cluster', 'Local']),
      ipFamilies: arr(oneOf(['IPv4', 'IPv6'])),
      ipFamilyPolicy: oneOf(['SingleStack', 'PreferDualStack', 'RequireDualStack']),
      publishNotReadyAddresses: bool(),
      loadBalancerIP: str(),
      allocateLoadBalancerNodePorts: bool()
    })
  },
  { status }
);

export const priorityClassSchema = obj(
  {
    apiVersion: { type: 'string', enum: ['scheduling.k8s.io/v1'] },
    kind: { type: 'string', enum: ['PriorityClass'] },
    metadata: objectMeta,
    value: int('Higher runs first; user classes up to 1000000000.'),
    globalDefault: bool(),
    description: str(),
    preemptionPolicy: oneOf(['PreemptLowerPriority', 'Never'])
  },
  { required: ['apiVersion', 'kind', 'metadata', 'value'] }
);

export const podDisruptionBudgetSchema = kindSchema(
  'policy/v1',
  'PodDisruptionBudget',
  {
    spec: obj({
      minAvailable: intOrString(),
      maxUnavailable: intOrString(),
      selector: labelSelector,
      unhealthyPodEvictionPolicy: oneOf(['IfHealthyBudget', 'AlwaysAllow'])
    })
  },
  { status }
);

export const leaseSchema = kindSchema('coordination.k8s.io/v1', 'Lease', {
  spec: obj({
    holderIdentity: str(),
    leaseDurationSeconds: int(),
    acquireTime: str(),
    renewTime: str(),
    leaseTransitions: int()
  })
});

export const namespaceSchema = kindSchema(
  'v1',
  'Namespace',
  { spec: obj({ finalizers: arr(str()) }) },
  { status }
);

export const configMapSchema = obj(
  {
    apiVersion: { type: 'string', enum: ['v1'] },
    kind: { type: 'string', enum: ['ConfigMap'] },
    metadata: objectMeta,
    data: map(str()),
    binaryData: map(str()),
    immutable: bool()
  },
  { required: ['apiVersion', 'kind', 'metadata'] }
);

export const KIND_SCHEMAS: Record<string, JsonSchema> = {
  Pod: podSchema,
  Node: nodeSchema,
  Deployment: deploymentSchema,
  ReplicaSet: replicaSetSchema,
  DaemonSet: daemonSetSchema,
  Service: serviceSchema,
  PriorityClass: priorityClassSchema,
  PodDisruptionBudget: podDisruptionBudgetSchema,
  Lease: leaseSchema,
  Namespace: namespaceSchema,
  ConfigMap: configMapSchema
};
