/** The API resources Nodeplane serves, as `kubectl api-resources` lists them. */
export interface ResourceInfo {
  kind: string;
  /** Plural resource name used in URLs, errors and request metrics. */
  plural: string;
  singular: string;
  shortNames: string[];
  namespaced: boolean;
  group: string;
  version: string;
  /**
   * The deprecation warning kube-apiserver sends (HTTP `Warning` header) with every response for
   * this resource version; kubectl prints it on stderr as `Warning: <text>`.
   */
  deprecationWarning?: string;
}

export const RESOURCES: ResourceInfo[] = [
  {
    kind: 'Namespace',
    plural: 'namespaces',
    singular: 'namespace',
    shortNames: ['ns'],
    namespaced: false,
    group: '',
    version: 'v1'
  },
  {
    kind: 'Node',
    plural: 'nodes',
    singular: 'node',
    shortNames: ['no'],
    namespaced: false,
    group: '',
    version: 'v1'
  },
  {
    kind: 'Pod',
    plural: 'pods',
    singular: 'pod',
    shortNames: ['po'],
    namespaced: true,
    group: '',
    version: 'v1'
  },
  {
    kind: 'Service',
    plural: 'services',
    singular: 'service',
    shortNames: ['svc'],
    namespaced: true,
    group: '',
    version: 'v1'
  },
  {
    kind: 'Endpoints',
    plural: 'endpoints',
    singular: 'endpoints',
    shortNames: ['ep'],
    namespaced: true,
    group: '',
    version: 'v1',
    // pkg/registry/core/endpoint: v1 Endpoints deprecated in favour of EndpointSlice (KEP-4974)
    deprecationWarning: 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice'
  },
  {
    kind: 'Event',
    plural: 'events',
    singular: 'event',
    shortNames: ['ev'],
    namespaced: true,
    group: '',
    version: 'v1'
  },
  {
    kind: 'ConfigMap',
    plural: 'configmaps',
    singular: 'configmap',
    shortNames: ['cm'],
    namespaced: true,
    group: '',
    version: 'v1'
  },
  {
    kind: 'Deployment',
    plural: 'deployments',
    singular: 'deployment',
    shortNames: ['deploy'],
    namespaced: true,
    group: 'apps',
    version: 'v1'
  },
  {
    kind: 'ReplicaSet',
    plural: 'replicasets',
    singular: 'replicaset',
    shortNames: ['rs'],
    namespaced: true,
    group: 'apps',
    version: 'v1'
  },
  {
    kind: 'DaemonSet',
    plural: 'daemonsets',
    singular: 'daemonset',
    shortNames: ['ds'],
    namespaced: true,
    group: 'apps',
    version: 'v1'
  },
  {
    kind: 'Lease',
    plural: 'leases',
    singular: 'lease',
    shortNames: [],
    namespaced: true,
    group: 'coordination.k8s.io',
    version: 'v1'
  },
  {
    kind: 'EndpointSlice',
    plural: 'endpointslices',
    singular: 'endpointslice',
    shortNames: [],
    namespaced: true,
    group: 'discovery.k8s.io',
    version: 'v1'
  },
  {
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    singular: 'poddisruptionbudget',
    shortNames: ['pdb'],
    namespaced: true,
    group: 'policy',
    version: 'v1'
  },
  {
    kind: 'PriorityClass',
    plural: 'priorityclasses',
    singular: 'priorityclass',
    shortNames: ['pc'],
    namespaced: false,
    group: 'scheduling.k8s.io',
    version: 'v1'
  },
  {
    kind: 'APIService',
    plural: 'apiservices',
    singular: 'apiservice',
    shortNames: [],
    namespaced: false,
    group: 'apiregistration.k8s.io',
    version: 'v1'
  }
];

/**
 * Resources an aggregated API server serves behind kube-apiserver (kube-aggregator proxies them):
 * discovery lists them only while their APIService is Available (api/aggregator.ts). Not stored.
 */
export const AGGREGATED_RESOURCES: ResourceInfo[] = [
  {
    kind: 'NodeMetrics',
    plural: 'nodes',
    // metrics-server serves no singular name; kubectl's name printer uses the kind.
    singular: 'nodemetrics',
    shortNames: [],
    namespaced: false,
    group: 'metrics.k8s.io',
    version: 'v1beta1'
  },
  {
    kind: 'PodMetrics',
    plural: 'pods',
    singular: 'podmetrics',
    shortNames: [],
    namespaced: true,
    group: 'metrics.k8s.io',
    version: 'v1beta1'
  }
];

const byKind = new Map([...RESOURCES, ...AGGREGATED_RESOURCES].map((r) => [r.kind, r]));

export function resourceForKind(kind: string): ResourceInfo {
  const r = byKind.get(kind);
  if (!r) throw new Error(`no resource for kind ${kind}`);
  return r;
}

const storedKinds = new Set(
  RESOURCES.map((r) => r.kind).filter((k) => !AGGREGATED_RESOURCES.some((r) => r.kind === k))
);

/** A kind the API server stores (aggregated kinds are served by their own server). */
export function isKnownKind(kind: string): boolean {
  return storedKinds.has(kind);
}

/** Find a resource by any name kubectl accepts: kind, plural, singular or short name (case-insensitive). */
export function lookupResource(name: string, pool: ResourceInfo[] = RESOURCES): ResourceInfo | undefined {
  const n = name.toLowerCase();
  const [base, group] = n.split(/\.(.*)/s);
  return pool.find(
    (r) =>
      (r.plural === base ||
        r.singular === base ||
        r.kind.toLowerCase() === base ||
        r.shortNames.includes(base)) &&
      (group === undefined || group === r.group)
  );
}

export function apiVersionOf(r: ResourceInfo): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}
