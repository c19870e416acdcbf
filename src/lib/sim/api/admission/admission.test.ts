import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import { defaultConfig } from '../../config';
import { ApiError } from '../errors';
import type { KubeObject } from '../types';
import { defaultPullPolicy } from './defaults';

const kubectl = { component: 'kubectl' };

function pod(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec };
}

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

function deployment(
  labels: Record<string, string>,
  selector: Record<string, string>,
  extra: Record<string, unknown> = {}
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      selector: { matchLabels: selector },
      template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
      ...extra
    }
  };
}

describe('defaulting', () => {
  it('fills the pod fields kube-apiserver defaults', () => {
    const c = new Cluster();
    const p = c.api.create(pod('web', { containers: [{ name: 'web', image: 'nginx:1.27' }] }), kubectl);
    expect(p.spec).toMatchObject({
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      enableServiceLinks: true,
      securityContext: {},
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority'
    });
    expect(p.spec.containers[0]).toEqual({
      name: 'web',
      image: 'nginx:1.27',
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      resources: {}
    });
    expect(p.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(p.metadata.namespace).toBe('default');
  });

  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.27', 'IfNotPresent'],
    ['localhost:5000/app', 'Always'],
    ['localhost:5000/app:v2', 'IfNotPresent'],
    ['nginx@sha256:0123abcd', 'IfNotPresent']
  ])('imagePullPolicy for %s is %s', (image, policy) => {
    expect(defaultPullPolicy(image)).toBe(policy);
  });

  it('computes qosClass and defaults requests to limits', () => {
    const c = new Cluster();
    const guaranteed = c.api.create(
      pod('g', {
        containers: [
          { name: 'a', image: 'nginx:1.27', resources: { limits: { cpu: '500m', memory: '128Mi' } } }
        ]
      })
    );
    expect(guaranteed.spec.containers[0].resources.requests).toEqual({ cpu: '500m', memory: '128Mi' });
    expect(guaranteed.status.qosClass).toBe('Guaranteed');
    const burstable = c.api.create(
      pod('b', { containers: [{ name: 'a', image: 'nginx:1.27', resources: { requests: { cpu: '100m' } } }] })
    );
    expect(burstable.status.qosClass).toBe('Burstable');
  });

  it('adds the NoExecute not-ready and unreachable tolerations with --default-*-toleration-seconds', () => {
    const config = defaultConfig();
    config.apiServer.defaultUnreachableTolerationSeconds = 60;
    const c = new Cluster(config);
    const p = c.api.create(pod('web', { containers: [{ name: 'web', image: 'nginx:1.27' }] }));
    expect(p.spec.tolerations).toEqual([
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300
      },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 60
      }
    ]);
  });

  it('keeps a pod that already tolerates unreachable', () => {
    const c = new Cluster();
    const own = {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 30
    };
    const p = c.api.create(
      pod('web', { containers: [{ name: 'web', image: 'nginx:1.27' }], tolerations: [own] })
    );
    expect(p.spec.tolerations).toEqual([
      own,
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }
    ]);
    const all = c.api.create(
      pod('tolerates-all', {
        containers: [{ name: 'web', image: 'nginx:1.27' }],
        tolerations: [{ operator: 'Exists' }]
      })
    );
    expect(all.spec.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  it('defaults Deployments, DaemonSets and Services', () => {
    const c = new Cluster();
    const d = c.api.create(deployment({ app: 'web' }, { app: 'web' }));
    expect(d.spec).toMatchObject({
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600
    });
    expect(d.spec.template.spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      terminationGracePeriodSeconds: 30
    });
    expect(d.spec.template.spec.serviceAccountName).toBeUndefined();
    const ds = c.api.create({
      ...deployment({ app: 'agent' }, { app: 'agent' }),
      kind: 'DaemonSet',
      metadata: { name: 'agent' }
    });
    expect(ds.spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 }
    });
    const svc = c.api.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }] }
    });
    // Every cluster's chain ends its mutating phase with ServiceAllocation: the ClusterIP comes from
    // the service CIDR, as kube-apiserver allocates it on create.
    const ip = (svc.spec as unknown as { clusterIP: string }).clusterIP;
    expect(ip).toMatch(/^10\.(9[6-9]|1[01]\d)\.\d+\.\d+$/);
    expect(svc.spec).toEqual({
      selector: { app: 'web' },
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
      clusterIP: ip,
      clusterIPs: [ip]
    });
  });

  it('taints a new Node not-ready:NoSchedule (TaintNodesByCondition)', () => {
    const c = new Cluster();
    const n = c.api.create<KubeObject>({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1' } });
    expect(n.spec.taints).toEqual([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
  });
});

describe('Priority', () => {
  it('resolves built-in and user classes and the global default', () => {
    const c = new Cluster();
    const critical = c.api.create(
      pod('proxy', {
        containers: [{ name: 'p', image: 'kube-proxy:v1.35.0' }],
        priorityClassName: 'system-node-critical'
      })
    );
    expect(critical.spec.priority).toBe(2000001000);
    c.api.create({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'batch' },
      value: 1000,
      globalDefault: true,
      preemptionPolicy: 'Never'
    });
    const p = c.api.create(pod('job', { containers: [{ name: 'j', image: 'busybox:1.36' }] }));
    expect(p.spec).toMatchObject({ priorityClassName: 'batch', priority: 1000, preemptionPolicy: 'Never' });
  });

  it('rejects an unknown class and a hand-written priority', () => {
    const c = new Cluster();
    const e = errorOf(() =>
      c.api.create(pod('x', { containers: [{ name: 'x', image: 'nginx:1.27' }], priorityClassName: 'gold' }))
    );
    expect(e.code).toBe(403);
    expect(e.message).toBe('pods "x" is forbidden: no PriorityClass with name gold was found');
    const e2 = errorOf(() =>
      c.api.create(pod('y', { containers: [{ name: 'y', image: 'nginx:1.27' }], priority: 10 }))
    );
    expect(e2.message).toBe(
      'pods "y" is forbidden: the integer value of priority (10) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name'
    );
  });
});

describe('validation messages', () => {
  const c = new Cluster();
  const msg = (o: KubeObject) => errorOf(() => c.api.create(o, kubectl)).message;

  it('names the missing image', () => {
    expect(msg(pod('x', { containers: [{ name: 'x' }] }))).toBe(
      'Pod "x" is invalid: spec.containers[0].image: Required value'
    );
  });

  it('rejects a negative request', () => {
    expect(
      msg(
        pod('x', { containers: [{ name: 'x', image: 'nginx:1.27', resources: { requests: { cpu: '-1' } } }] })
      )
    ).toBe(
      'Pod "x" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0'
    );
  });

  it('rejects an invalid name with the RFC 1123 subdomain message', () => {
    expect(msg(pod('Web_1', { containers: [{ name: 'web', image: 'nginx:1.27' }] }))).toBe(
      `Pod "Web_1" is invalid: metadata.name: Invalid value: "Web_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
    );
  });

  it('rejects requests above limits', () => {
    expect(
      msg(
        pod('x', {
          containers: [
            { name: 'x', image: 'nginx:1.27', resources: { requests: { cpu: '1' }, limits: { cpu: '500m' } } }
          ]
        })
      )
    ).toBe(
      'Pod "x" is invalid: spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m'
    );
  });

  it('requires extended resource requests to equal limits', () => {
    expect(
      msg(
        pod('x', {
          containers: [
            {
              name: 'x',
              image: 'cuda:12',
              resources: { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '2' } }
            }
          ]
        })
      )
    ).toBe(
      'Pod "x" is invalid: spec.containers[0].resources.requests: Invalid value: "1": must be equal to nvidia.com/gpu limit of 2'
    );
    expect(
      msg(
        pod('y', {
          containers: [{ name: 'y', image: 'cuda:12', resources: { requests: { 'nvidia.com/gpu': '1' } } }]
        })
      )
    ).toBe(
      'Pod "y" is invalid: spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources'
    );
  });

  it('lists several problems in brackets', () => {
    expect(msg(pod('x', { containers: [{ name: 'x' }], restartPolicy: 'Sometimes' }))).toBe(
      'Pod "x" is invalid: [spec.containers[0].image: Required value, spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"]'
    );
  });

  it('rejects an unknown taint effect on a Node', () => {
    expect(
      msg({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'worker-9' },
        spec: { taints: [{ key: 'gpu', value: 'true', effect: 'NoRun' }] }
      })
    ).toBe(
      'Node "worker-9" is invalid: spec.taints[0].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"'
    );
  });

  it('rejects negative node capacity', () => {
    expect(
      msg({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'worker-8' },
        status: { capacity: { cpu: '-4' } }
      })
    ).toBe(
      'Node "worker-8" is invalid: status.capacity[cpu]: Invalid value: "-4": must be greater than or equal to 0'
    );
  });

  it('requires the Deployment selector to match the template labels', () => {
    expect(msg(deployment({ app: 'web' }, { app: 'api' }))).toBe(
      'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`'
    );
    const noSelector = deployment({ app: 'web' }, {});
    delete noSelector.spec.selector;
    expect(msg(noSelector)).toBe('Deployment.apps "web" is invalid: spec.selector: Required value');
  });

  it('rejects maxSurge and maxUnavailable both 0', () => {
    expect(
      msg(
        deployment(
          { app: 'web' },
          { app: 'web' },
          { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } }
        )
      )
    ).toBe(
      'Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0'
    );
  });

  it('requires Service ports and a DNS-1035 name', () => {
    expect(
      msg({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: '1web' },
        spec: { selector: { app: 'web' } }
      })
    ).toBe(
      `Service "1web" is invalid: [metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'), spec.ports: Required value]`
    );
  });

  it('rejects a PodDisruptionBudget with both minAvailable and maxUnavailable', () => {
    expect(
      msg({
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'web' },
        spec: { minAvailable: 2, maxUnavailable: '150%', selector: { matchLabels: { app: 'web' } } }
      })
    ).toBe(
      'PodDisruptionBudget.policy "web" is invalid: [spec: Invalid value: {"minAvailable":2,"maxUnavailable":"150%"}: minAvailable and maxUnavailable cannot be both set, spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%]'
    );
  });

  it('validates tolerations', () => {
    expect(
      msg(
        pod('x', {
          containers: [{ name: 'x', image: 'nginx:1.27' }],
          tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 30 }]
        })
      )
    ).toBe(
      `Pod "x" is invalid: spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set`
    );
  });
});

describe('pod updates', () => {
  function setup() {
    const c = new Cluster();
    const p = c.api.create(
      pod('web', { containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] })
    );
    return { c, p };
  }

  it('allows changing the image, binding the pod and adding tolerations', () => {
    const { c } = setup();
    const a = c.api.patch('Pod', 'default', 'web', { spec: { nodeName: 'worker-1' } }, kubectl);
    expect(a.spec.nodeName).toBe('worker-1');
    const updated = structuredClone(a) as KubeObject;
    updated.spec.containers[0].image = 'nginx:1.28';
    updated.spec.tolerations.push({ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' });
    const b = c.api.update(updated, kubectl);
    expect(b.spec.containers[0].image).toBe('nginx:1.28');
    expect(b.spec.priority).toBe(0);
  });

  it('forbids other spec changes with the upstream message', () => {
    const { c, p } = setup();
    const changed = structuredClone(p) as KubeObject;
    changed.spec.containers[0].ports[0].containerPort = 8080;
    expect(errorOf(() => c.api.update(changed, kubectl)).message).toBe(
      'Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)'
    );
  });

  it('does not re-validate status-only writes', () => {
    const { c, p } = setup();
    const s = structuredClone(p) as KubeObject;
    s.status.phase = 'Running';
    expect(
      c.api.update(s, { component: 'kubelet', node: 'worker-1' }, { subresource: 'status' }).status.phase
    ).toBe('Running');
  });
});
