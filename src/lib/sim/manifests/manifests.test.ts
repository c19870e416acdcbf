import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { KIND_SCHEMAS, manifestSchema, scenarioSchema } from '../schemas';
import { applyManifests, formatApplyResult, ManifestError, parseManifests } from '.';

function issuesOf(fn: () => unknown): ManifestError['issues'] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ManifestError) return e.issues;
    throw e;
  }
  throw new Error('expected a ManifestError');
}

const WEB = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 3
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
      - name: web
        image: nginx:1.27
        resources:
          requests: { cpu: 250m, memory: 64Mi }
`;

describe('parseManifests', () => {
  it('parses every document with its start line', () => {
    const { objects } = parseManifests(WEB, 'web.yaml');
    expect(objects.map((o) => [o.obj.kind, o.doc, o.line])).toEqual([
      ['Namespace', 0, 1],
      ['Deployment', 1, 6]
    ]);
    expect(objects[1].locate('spec.template.spec.containers[0].image')).toEqual({ line: 21, column: 16 });
  });

  it('reports malformed YAML with its line', () => {
    const issues = issuesOf(() =>
      parseManifests('apiVersion: v1\nkind: Pod\nmetadata:\n  name: [web\n', 'bad.yaml')
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: 'bad.yaml', line: 5, path: '' });
    expect(issues[0].message).toMatch(/^YAML: /);
  });

  it('names an unknown field, its line and column', () => {
    const text = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: web
    image: nginx:1.27
    imagePullSecret: regcred
  foo: bar
`;
    expect(issuesOf(() => parseManifests(text, 'pod.yaml'))).toEqual([
      {
        file: 'pod.yaml',
        line: 9,
        column: 5,
        path: 'spec.containers[0].imagePullSecret',
        message: 'unknown field "spec.containers[0].imagePullSecret" (not simulated by Nodeplane)'
      },
      {
        file: 'pod.yaml',
        line: 10,
        column: 3,
        path: 'spec.foo',
        message: 'unknown field "spec.foo" (not simulated by Nodeplane)'
      }
    ]);
  });

  it('rejects a malformed quantity and an unknown kind', () => {
    const text = `apiVersion: v1
kind: Pod
metadata: { name: web }
spec:
  containers:
  - name: web
    image: nginx:1.27
    resources:
      limits:
        memory: 12 GB
---
apiVersion: v1
kind: Secret
metadata: { name: s }
`;
    const issues = issuesOf(() => parseManifests(text, 'x.yaml'));
    expect(issues.map((i) => [i.line, i.path, i.message])).toEqual([
      [
        10,
        'spec.containers[0].resources.limits[memory]',
        `spec.containers[0].resources.limits[memory]: Invalid value: "12 GB": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`
      ],
      [13, 'kind', 'no matches for kind "Secret" in version "v1"']
    ]);
  });
});

describe('applyManifests', () => {
  it('creates objects through admission and prints kubectl lines', () => {
    const c = new Cluster();
    const res = applyManifests(c, parseManifests(WEB, 'web.yaml').objects);
    expect(res.map(formatApplyResult)).toEqual(['namespace/shop created', 'deployment.apps/web created']);
    const d = c.api.get('Deployment', 'shop', 'web');
    expect(d.spec.strategy.rollingUpdate).toEqual({ maxUnavailable: '25%', maxSurge: '25%' });
    expect(applyManifests(c, parseManifests(WEB, 'web.yaml').objects).map(formatApplyResult)).toEqual([
      'namespace/shop unchanged',
      'deployment.apps/web unchanged'
    ]);
    const scaled = applyManifests(
      c,
      parseManifests(WEB.replace('replicas: 3', 'replicas: 5'), 'web.yaml').objects
    );
    expect(scaled.map(formatApplyResult)).toEqual([
      'namespace/shop unchanged',
      'deployment.apps/web configured'
    ]);
    expect(c.api.get('Deployment', 'shop', 'web').spec.replicas).toBe(5);
  });

  it('re-applies a bound pod as unchanged and a new image as configured', () => {
    const c = new Cluster();
    const pod = `apiVersion: v1
kind: Pod
metadata: { name: web }
spec:
  containers:
  - { name: web, image: nginx:1.27 }
`;
    applyManifests(c, parseManifests(pod, 'pod.yaml').objects);
    c.api.patch('Pod', 'default', 'web', { spec: { nodeName: 'worker-1' } }, { component: 'kube-scheduler' });
    expect(applyManifests(c, parseManifests(pod, 'pod.yaml').objects).map(formatApplyResult)).toEqual([
      'pod/web unchanged'
    ]);
    const res = applyManifests(
      c,
      parseManifests(pod.replace('nginx:1.27', 'nginx:1.28'), 'pod.yaml').objects
    );
    expect(res.map(formatApplyResult)).toEqual(['pod/web configured']);
    const live = c.api.get('Pod', 'default', 'web');
    expect([live.spec.nodeName, live.spec.containers[0].image]).toEqual(['worker-1', 'nginx:1.28']);
    const issues = issuesOf(() =>
      applyManifests(
        c,
        parseManifests(
          pod.replace(
            '{ name: web, image: nginx:1.27 }',
            '{ name: web, image: nginx:1.28, ports: [{ containerPort: 80 }] }'
          ),
          'pod.yaml'
        ).objects
      )
    );
    expect(issues.map((i) => [i.line, i.path])).toEqual([[4, 'spec']]);
    expect(issues[0].message).toMatch(
      /^Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than/
    );
  });

  it('applies nothing when one object is rejected, and points at the field', () => {
    const c = new Cluster();
    const text = `${WEB}---
apiVersion: v1
kind: Pod
metadata:
  name: bad
  namespace: shop
spec:
  containers:
  - name: bad
    image: busybox:1.36
    resources:
      requests:
        cpu: "-1"
`;
    const rv = c.api.resourceVersion;
    const issues = issuesOf(() => applyManifests(c, parseManifests(text, 'all.yaml').objects));
    expect(issues).toEqual([
      {
        file: 'all.yaml',
        line: 36,
        column: 14,
        path: 'spec.containers[0].resources.requests[cpu]',
        message:
          'Pod "bad" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0'
      }
    ]);
    expect(c.api.resourceVersion).toBe(rv);
    expect(c.api.tryGet('Namespace', undefined, 'shop')).toBeUndefined();
    expect(c.api.count('Deployment')).toBe(0);
  });
});

describe('schemas', () => {
  it('are valid draft-07 JSON Schema, and ajv agrees with the checker on a Pod', { timeout: 60_000 }, () => {
    const ajv = new Ajv({ strict: false });
    ajv.addFormat('quantity', true);
    ajv.addFormat('duration', true);
    for (const schema of [...Object.values(KIND_SCHEMAS), scenarioSchema, manifestSchema]) {
      expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
    }
    const pod = ajv.compile(KIND_SCHEMAS.Pod);
    const ok = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'x' },
      spec: { containers: [{ name: 'x', image: 'nginx:1.27' }] }
    };
    expect(pod(ok)).toBe(true);
    expect(pod({ ...ok, spec: { ...ok.spec, foo: 1 } })).toBe(false);
    expect(
      ajv.compile(scenarioSchema)({
        apiVersion: 'nodeplane.dev/v1alpha1',
        kind: 'Scenario',
        metadata: { name: 's' },
        spec: {}
      })
    ).toBe(true);
  });
});
