/**
 * The metrics-server addon (`spec.addons.metricsServer: true`): the objects of metrics-server's
 * release manifest, components.yaml of v0.8.0 (kubernetes-sigs/metrics-server manifests/base/
 * deployment.yaml, service.yaml, apiservice.yaml with the release patch): the `metrics-server`
 * Deployment in kube-system (`k8s-app: metrics-server`, system-cluster-critical, one replica,
 * maxUnavailable 0, port `https` 10250, readiness on /readyz after 20s), the `metrics-server`
 * Service (443 → `https`) and the APIService `v1beta1.metrics.k8s.io` that makes kube-apiserver
 * proxy metrics.k8s.io to it. The ServiceAccount and RBAC objects of the manifest are left out:
 * Nodeplane simulates no RBAC.
 *
 * `metricsServerStep` adds the processes: kube-aggregator's availability controller in
 * kube-apiserver and metrics-server itself, which runs while its pod's container runs.
 */
import type { KubeObject } from '../../api/types';
import type { BootstrapObjects, BootstrapStep } from '../hooks';
import { AGGREGATOR_ID } from '../../api/aggregator';
import { METRICS_SERVER_ID } from '../../metrics-server/metrics-server';
import { METRICS_SERVER_BY_DEFAULT } from '../../controlplane/managed';
import type { Scenario } from '../types';

export const METRICS_SERVER_IMAGE = 'registry.k8s.io/metrics-server/metrics-server:v0.8.0';
const NS = 'kube-system';
const LABELS = { 'k8s-app': 'metrics-server' };

/** The container args of the release manifest. */
export const METRICS_SERVER_ARGS = [
  '--cert-dir=/tmp',
  '--secure-port=10250',
  '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
  '--kubelet-use-node-status-port',
  '--metric-resolution=15s'
];

export function metricsServerObjects(): KubeObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'metrics-server', namespace: NS, labels: { ...LABELS } },
      spec: {
        selector: { ...LABELS },
        ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 'https' }]
      }
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'metrics-server', namespace: NS, labels: { ...LABELS } },
      spec: {
        selector: { matchLabels: { ...LABELS } },
        strategy: { rollingUpdate: { maxUnavailable: 0 } },
        template: {
          metadata: { labels: { ...LABELS } },
          spec: {
            containers: [
              {
                name: 'metrics-server',
                image: METRICS_SERVER_IMAGE,
                imagePullPolicy: 'IfNotPresent',
                args: [...METRICS_SERVER_ARGS],
                ports: [{ containerPort: 10250, name: 'https', protocol: 'TCP' }],
                livenessProbe: {
                  failureThreshold: 3,
                  httpGet: { path: '/livez', port: 'https', scheme: 'HTTPS' },
                  periodSeconds: 10
                },
                readinessProbe: {
                  failureThreshold: 3,
                  httpGet: { path: '/readyz', port: 'https', scheme: 'HTTPS' },
                  initialDelaySeconds: 20,
                  periodSeconds: 10
                },
                resources: { requests: { cpu: '100m', memory: '200Mi' } },
                securityContext: {
                  allowPrivilegeEscalation: false,
                  capabilities: { drop: ['ALL'] },
                  readOnlyRootFilesystem: true,
                  runAsNonRoot: true,
                  runAsUser: 1000,
                  seccompProfile: { type: 'RuntimeDefault' }
                },
                volumeMounts: [{ mountPath: '/tmp', name: 'tmp-dir' }]
              }
            ],
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            priorityClassName: 'system-cluster-critical',
            serviceAccountName: 'metrics-server',
            volumes: [{ emptyDir: {}, name: 'tmp-dir' }]
          }
        }
      }
    },
    {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1beta1.metrics.k8s.io', labels: { ...LABELS } },
      spec: {
        service: { name: 'metrics-server', namespace: NS },
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        insecureSkipTLSVerify: true,
        groupPriorityMinimum: 100,
        versionPriority: 100
      }
    }
  ];
}

/**
 * On when the scenario says so; a managed provider that deploys metrics-server by default (AKS,
 * `METRICS_SERVER_BY_DEFAULT` in controlplane/managed.ts) has it unless the scenario turns it off.
 */
function enabled(scenario: Scenario): boolean {
  const p = scenario.config.managed;
  return scenario.spec.addons?.metricsServer ?? (p ? METRICS_SERVER_BY_DEFAULT[p] : false);
}

/** The addon's objects, applied with the installer's (empty when the scenario does not enable it). */
export const metricsServerObjectSet: BootstrapObjects = (_cluster, scenario) =>
  enabled(scenario) ? metricsServerObjects() : [];

/** The addon's processes. */
export const metricsServerStep: BootstrapStep = (cluster, scenario) => {
  if (!enabled(scenario)) return;
  cluster.addComponent(AGGREGATOR_ID, {});
  cluster.addComponent(METRICS_SERVER_ID, {});
};
