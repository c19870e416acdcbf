/** Shared pieces of the core/v1 and meta/v1 schemas: metadata, selectors, the pod spec and its parts. */
import {
  arr,
  bool,
  int,
  intOrString,
  map,
  obj,
  oneOf,
  open,
  quantity,
  str,
  type JsonSchema
} from './builders';

const labelMap = map(str(), 'String keys and values; keys may have a DNS prefix (app.kubernetes.io/name).');

export const ownerReference = obj(
  {
    apiVersion: str(),
    kind: str(),
    name: str(),
    uid: str(),
    controller: bool(),
    blockOwnerDeletion: bool()
  },
  { required: ['apiVersion', 'kind', 'name', 'uid'] }
);

/** ObjectMeta, including the fields the API server sets (so `kubectl get -o yaml` output re-applies). */
export const objectMeta = obj({
  name: str('Unique within the namespace; a lowercase RFC 1123 subdomain for most kinds.'),
  generateName: str('Prefix for a server-generated name (5 random characters are appended).'),
  namespace: str('Defaults to "default".'),
  labels: labelMap,
  annotations: labelMap,
  uid: str(),
  resourceVersion: str(),
  generation: int(),
  creationTimestamp: { type: ['string', 'null'] },
  deletionTimestamp: str(),
  deletionGracePeriodSeconds: int(),
  ownerReferences: arr(ownerReference),
  finalizers: arr(str())
});

export const labelSelectorRequirement = obj(
  {
    key: str(),
    operator: oneOf(['In', 'NotIn', 'Exists', 'DoesNotExist']),
    values: arr(str())
  },
  { required: ['key', 'operator'] }
);

export const labelSelector = obj({
  matchLabels: labelMap,
  matchExpressions: arr(labelSelectorRequirement)
});

export const resourceList = map(
  quantity(),
  'Resource name → quantity: cpu (500m), memory (128Mi), nvidia.com/gpu (1)...'
);

export const resources = obj({
  requests: resourceList,
  limits: resourceList
});

const nodeSelectorRequirement = obj(
  {
    key: str(),
    operator: oneOf(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']),
    values: arr(str())
  },
  { required: ['key', 'operator'] }
);

const nodeSelectorTerm = obj({
  matchExpressions: arr(nodeSelectorRequirement),
  matchFields: arr(nodeSelectorRequirement)
});

const podAffinityTerm = obj(
  {
    labelSelector,
    namespaces: arr(str()),
    namespaceSelector: labelSelector,
    topologyKey: str(),
    matchLabelKeys: arr(str()),
    mismatchLabelKeys: arr(str())
  },
  { required: ['topologyKey'] }
);

const weightedPodAffinityTerm = obj(
  { weight: int('1-100', 1, 100), podAffinityTerm },
  { required: ['weight', 'podAffinityTerm'] }
);

const podAffinity = obj({
  requiredDuringSchedulingIgnoredDuringExecution: arr(podAffinityTerm),
  preferredDuringSchedulingIgnoredDuringExecution: arr(weightedPodAffinityTerm)
});

export const affinity = obj({
  nodeAffinity: obj({
    requiredDuringSchedulingIgnoredDuringExecution: obj(
      { nodeSelectorTerms: arr(nodeSelectorTerm) },
      { required: ['nodeSelectorTerms'] }
    ),
    preferredDuringSchedulingIgnoredDuringExecution: arr(
      obj(
        { weight: int('1-100', 1, 100), preference: nodeSelectorTerm },
        { required: ['weight', 'preference'] }
      )
    )
  }),
  podAffinity,
  podAntiAffinity: podAffinity
});

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export const toleration = obj({
  key: str(),
  operator: oneOf(['Exists', 'Equal'], 'Equal (the default) or Exists.'),
  value: str(),
  effect: { type: 'string', description: 'NoSchedule, PreferNoSchedule or NoExecute; empty matches all.' },
  tolerationSeconds: int('Only with NoExecute: how long the pod stays bound after the taint appears.')
});

export const taint = obj(
  {
    key: str(),
    value: str(),
    effect: { type: 'string', description: TAINT_EFFECTS.join(', ') },
    timeAdded: str()
  },
  { required: ['key', 'effect'] }
);

export const topologySpreadConstraint = obj(
  {
    maxSkew: int(undefined, 1),
    topologyKey: str(),
    whenUnsatisfiable: oneOf(['DoNotSchedule', 'ScheduleAnyway']),
    labelSelector,
    minDomains: int(),
    nodeAffinityPolicy: oneOf(['Honor', 'Ignore']),
    nodeTaintsPolicy: oneOf(['Honor', 'Ignore']),
    matchLabelKeys: arr(str())
  },
  { required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'] }
);

const containerPort = obj(
  {
    name: str(),
    containerPort: int(undefined, 1, 65535),
    hostPort: int(undefined, 0, 65535),
    protocol: oneOf(['TCP', 'UDP', 'SCTP'])
  },
  { required: ['containerPort'] }
);

const envVar = obj(
  {
    name: str(),
    value: str(),
    valueFrom: obj({
      fieldRef: obj({ fieldPath: str(), apiVersion: str() }),
      configMapKeyRef: obj({ name: str(), key: str(), optional: bool() }),
      resourceFieldRef: obj({ resource: str(), containerName: str(), divisor: quantity() })
    })
  },
  { required: ['name'] }
);

const probe = obj({
  httpGet: obj({ path: str(), port: intOrString(), scheme: oneOf(['HTTP', 'HTTPS']), host: str() }),
  tcpSocket: obj({ port: intOrString(), host: str() }),
  exec: obj({ command: arr(str()) }),
  grpc: obj({ port: int(), service: str() }),
  initialDelaySeconds: int(undefined, 0),
  periodSeconds: int(undefined, 1),
  timeoutSeconds: int(undefined, 1),
  successThreshold: int(undefined, 1),
  failureThreshold: int(undefined, 1),
  terminationGracePeriodSeconds: int()
});

const volumeMount = obj(
  { name: str(), mountPath: str(), readOnly: bool(), subPath: str() },
  { required: ['name', 'mountPath'] }
);

export const container = obj(
  {
    name: str('A lowercase RFC 1123 label, unique in the pod.'),
    image: str('Image reference; without a tag or with :latest, imagePullPolicy defaults to Always.'),
    imagePullPolicy: oneOf(['Always', 'IfNotPresent', 'Never']),
    command: arr(str()),
    args: arr(str()),
    workingDir: str(),
    ports: arr(containerPort),
    env: arr(envVar),
    resources,
    volumeMounts: arr(volumeMount),
    livenessProbe: probe,
    readinessProbe: probe,
    startupProbe: probe,
    restartPolicy: oneOf(['Always'], 'Only for init containers: Always makes a sidecar.'),
    terminationMessagePath: str(),
    terminationMessagePolicy: oneOf(['File', 'FallbackToLogsOnError']),
    securityContext: open('Container security context (accepted, not simulated).'),
    stdin: bool(),
    tty: bool()
  },
  { required: ['name'] }
);

const volume = obj(
  {
    name: str(),
    emptyDir: obj({ medium: str(), sizeLimit: quantity() }),
    hostPath: obj({ path: str(), type: str() }),
    configMap: obj({
      name: str(),
      optional: bool(),
      defaultMode: int(),
      items: arr(obj({ key: str(), path: str(), mode: int() }))
    }),
    projected: open('Projected volume sources (the service account token volume).')
  },
  { required: ['name'] }
);

export const podSpec = obj(
  {
    containers: arr(container, 'At least one container.'),
    initContainers: arr(container),
    restartPolicy: oneOf(['Always', 'OnFailure', 'Never']),
    terminationGracePeriodSeconds: int('Default 30.'),
    activeDeadlineSeconds: int(undefined, 1),
    dnsPolicy: oneOf(['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None']),
    nodeSelector: labelMap,
    nodeName: str('Set by the scheduler at binding; setting it yourself skips the scheduler.'),
    serviceAccountName: str(),
    serviceAccount: str(),
    automountServiceAccountToken: bool(),
    hostNetwork: bool(),
    hostPID: bool(),
    hostIPC: bool(),
    affinity,
    tolerations: arr(toleration),
    schedulerName: str('Default default-scheduler.'),
    priorityClassName: str(),
    priority: int(),
    preemptionPolicy: oneOf(['PreemptLowerPriority', 'Never']),
    topologySpreadConstraints: arr(topologySpreadConstraint),
    overhead: resourceList,
    enableServiceLinks: bool(),
    volumes: arr(volume),
    securityContext: open('Pod security context (accepted, not simulated).'),
    hostname: str(),
    subdomain: str(),
    schedulingGates: arr(obj({ name: str() }, { required: ['name'] })),
    readinessGates: arr(obj({ conditionType: str() }, { required: ['conditionType'] }))
  },
  { required: ['containers'] }
);

export const podTemplateSpec = obj({
  metadata: objectMeta,
  spec: podSpec
});

export const TAINT_EFFECT_VALUES = TAINT_EFFECTS;

export function withStatus(schema: JsonSchema): JsonSchema {
  return { ...schema, properties: { ...schema.properties, status: open('Written by the control plane.') } };
}
