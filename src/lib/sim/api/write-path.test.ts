/**
 * The API server's write path shares what a write did not change with the stored version and
 * copies only what it keeps from the request. These tests pin the rules that makes observable:
 * a status write keeps the stored spec and labels (upstream: pkg/registry/core/pod/strategy.go,
 * podStatusStrategy.PrepareForUpdate sets newPod.Spec = oldPod.Spec), a spec write keeps the
 * stored status (podStrategy.PrepareForUpdate), the caller's object is never stored or frozen, and
 * bad input still gets the validation error, not a write into a frozen object.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { ApiError } from './errors';
import { clone, deepFreeze, sameJson, type KubeObject } from './types';
import { validateLabels } from './admission/validation/names';

const pod = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
  status: { phase: 'Pending' }
});

describe('sameJson', () => {
  // Every pair is compared against JSON.stringify itself.
  const values: unknown[] = [
    undefined,
    null,
    0,
    -0,
    1,
    NaN,
    Infinity,
    '1',
    '',
    true,
    false,
    [],
    {},
    [undefined],
    [null],
    [1, 2],
    [2, 1],
    { a: 1 },
    { a: 1, b: undefined },
    { b: undefined, a: 1 },
    { a: 1, b: 2 },
    { b: 2, a: 1 },
    { a: { b: [1, { c: 'x' }] } },
    { a: { b: [1, { c: 'y' }] } },
    { a: () => 1 },
    { a: new Date(0) },
    { a: '1970-01-01T00:00:00.000Z' },
    { 2: 'x', 1: 'y' },
    { 1: 'y', 2: 'x' }
  ];
  it('is JSON.stringify equality for every pair of sample values', () => {
    for (const a of values)
      for (const b of values)
        expect([a, b, sameJson(a, b)]).toEqual([a, b, JSON.stringify(a) === JSON.stringify(b)]);
  });
});

describe('the write path', () => {
  it('a status write keeps the stored spec and labels as they are and copies the status it writes', () => {
    const c = new Cluster();
    const stored = c.api.create(pod('a'));
    const next = clone(stored);
    next.spec.containers[0].image = 'ignored:1';
    next.metadata.labels = { app: 'ignored' };
    next.status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    const written = c.api.update(next, undefined, { subresource: 'status' });
    expect(written.spec).toBe(stored.spec);
    expect(written.metadata.labels).toBe(stored.metadata.labels);
    expect(written.status).toEqual({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] });
    expect(written.metadata.resourceVersion).toBe(String(Number(stored.metadata.resourceVersion) + 1));
    // The caller's object is its own: not stored, not frozen.
    expect(written.status).not.toBe(next.status);
    expect(Object.isFrozen(next.status)).toBe(false);
    next.status.phase = 'Failed';
    expect(c.api.get('Pod', 'default', 'a').status.phase).toBe('Running');
  });

  it('a spec write keeps the stored status; a patch of labels keeps the stored spec', () => {
    const c = new Cluster();
    const stored = c.api.create(pod('a'));
    const next = clone(stored);
    next.status = { phase: 'Succeeded' };
    next.metadata.labels = { app: 'web', tier: 'front' };
    const written = c.api.update(next);
    expect(written.status).toBe(stored.status);
    expect(written.spec).toBe(stored.spec);
    const patched = c.api.patch<KubeObject>('Pod', 'default', 'a', { metadata: { labels: { tier: null } } });
    expect(patched.metadata.labels).toEqual({ app: 'web' });
    expect(patched.spec).toBe(stored.spec);
    expect(patched.status).toBe(stored.status);
  });

  it('a patch that changes the spec is admitted and validated as a fresh copy (422, not a TypeError)', () => {
    const c = new Cluster();
    c.api.create(pod('a'));
    let err: unknown;
    try {
      // Defaulting would set the port's hostPort for a host-network pod: the merged spec must be
      // the server's own copy, whatever the patch left untouched.
      c.api.patch('Pod', 'default', 'a', { spec: { hostNetwork: true } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(422);
    expect((err as ApiError).message).toContain(
      'Pod "a" is invalid: spec: Forbidden: pod updates may not change fields'
    );
    expect(c.api.get('Pod', 'default', 'a').spec.hostNetwork).toBeUndefined();
  });

  it('a node status patch keeps the untouched parts of the status as the stored objects', () => {
    const c = new Cluster();
    const node = c.api.create<KubeObject>({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      spec: {},
      status: { capacity: { cpu: '4' }, conditions: [{ type: 'Ready', status: 'False' }] }
    });
    const written = c.api.patch<KubeObject>(
      'Node',
      undefined,
      'n1',
      { status: { capacity: { cpu: '8' } } },
      undefined,
      {
        subresource: 'status'
      }
    );
    expect(written.status.capacity).toEqual({ cpu: '8' });
    expect(written.status.conditions).toBe(node.status.conditions);
    expect(written.spec).toBe(node.spec);
  });

  it("a patch's frozen parts are stored as they are, its mutable ones as copies, with the same values either way", () => {
    const c = new Cluster();
    c.api.create<KubeObject>({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      spec: {},
      status: { images: [{ names: ['a:1'], sizeBytes: 1 }] }
    });
    // The kubelet's kept status body is deep-frozen; its conditions are built fresh for each sync.
    const images = deepFreeze([{ names: ['nginx:1.27', 'nginx@sha256:0'], sizeBytes: 70_000_000 }]);
    const nodeInfo = deepFreeze({ bootID: 'b1', kubeletVersion: 'v1.35.0' });
    const conditions = [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }];
    const status = { images, nodeInfo, conditions };
    const expected = clone(status);
    const written = c.api.patch<KubeObject>('Node', undefined, 'n1', { status }, undefined, {
      subresource: 'status'
    });
    expect(written.status).toEqual(expected);
    expect(written.status.images).toBe(images);
    // An object in a merge patch merges into the stored one: a new object with the same values.
    expect(written.status.nodeInfo).toEqual(nodeInfo);
    expect(written.status.conditions).not.toBe(conditions);
    conditions[0].status = 'False';
    expect(c.api.get<KubeObject>('Node', undefined, 'n1').status.conditions[0].status).toBe('True');
    // The next report with the same frozen list writes it again as it is.
    const again = c.api.patch<KubeObject>(
      'Node',
      undefined,
      'n1',
      { status: { images, conditions: [{ type: 'Ready', status: 'True' }] } },
      undefined,
      { subresource: 'status' }
    );
    expect(again.status.images).toBe(images);
    expect(again.status.nodeInfo).toBe(written.status.nodeInfo);
  });
});

describe('pod update validation (upstream: pkg/apis/core/validation/validation.go, ValidatePodUpdate)', () => {
  const FORBIDDEN =
    'Pod "a" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';
  function errorOf(fn: () => unknown): string {
    try {
      fn();
    } catch (e) {
      return (e as Error).message;
    }
    return '';
  }
  function setup(spec: Record<string, unknown> = {}) {
    const c = new Cluster();
    const p = pod('a');
    Object.assign(p.spec, spec);
    return { c, stored: c.api.create(p) };
  }

  it('forbids removing a toleration, allows adding one', () => {
    const { c, stored } = setup({ tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }] });
    const fewer = clone(stored);
    // DefaultTolerationSeconds puts its own two back on every update; a user's one stays gone.
    fewer.spec.tolerations.shift();
    expect(errorOf(() => c.api.update(fewer))).toBe(FORBIDDEN);
    const more = clone(stored);
    more.spec.tolerations.push({ key: 'disk', operator: 'Exists', effect: 'NoSchedule' });
    expect(c.api.update(more).spec.tolerations).toHaveLength(4);
  });

  it('lets activeDeadlineSeconds go down, not up', () => {
    const { c, stored } = setup({ activeDeadlineSeconds: 60 });
    const up = clone(stored);
    up.spec.activeDeadlineSeconds = 120;
    expect(errorOf(() => c.api.update(up))).toBe(
      'Pod "a" is invalid: spec.activeDeadlineSeconds: Invalid value: 120: must be less than or equal to previous value'
    );
    const down = clone(stored);
    down.spec.activeDeadlineSeconds = 30;
    expect(c.api.update(down).spec.activeDeadlineSeconds).toBe(30);
  });

  it('lets scheduling gates be removed, not added', () => {
    const { c, stored } = setup({ schedulingGates: [{ name: 'example.com/a' }, { name: 'example.com/b' }] });
    const fewer = clone(stored);
    fewer.spec.schedulingGates = [{ name: 'example.com/b' }];
    const written = c.api.update(fewer);
    expect(written.spec.schedulingGates).toEqual([{ name: 'example.com/b' }]);
    const more = clone(written);
    more.spec.schedulingGates.push({ name: 'example.com/c' });
    expect(errorOf(() => c.api.update(more))).toBe(FORBIDDEN);
  });

  it('binds once: spec.nodeName set on an unbound pod, never changed after', () => {
    const { c } = setup();
    const bound = c.api.patch<KubeObject>('Pod', 'default', 'a', { spec: { nodeName: 'worker-1' } });
    expect(bound.spec.nodeName).toBe('worker-1');
    // The containers the bind did not touch are the stored ones.
    expect(bound.spec.containers).toBe(c.api.get<KubeObject>('Pod', 'default', 'a').spec.containers);
    expect(errorOf(() => c.api.patch('Pod', 'default', 'a', { spec: { nodeName: 'worker-2' } }))).toBe(
      FORBIDDEN
    );
  });

  it("reports a stored label map's problems every time (only passes are remembered)", () => {
    const bad = deepFreeze({ 'a/b/c': 'x' });
    const first = validateLabels('metadata.labels', bad);
    expect(first).toHaveLength(1);
    expect(validateLabels('metadata.labels', bad)).toEqual(first);
    const good = deepFreeze({ app: 'web' });
    expect(validateLabels('metadata.labels', good)).toEqual([]);
    expect(validateLabels('metadata.labels', good)).toEqual([]);
  });
});

describe('metadata.generation', () => {
  // pkg/registry/coordination/lease/strategy.go: PrepareForCreate and PrepareForUpdate set no
  // generation; pkg/registry/apps/deployment/strategy.go sets 1 and counts spec changes.
  it('is not kept for a Lease, and counts a Deployment’s spec changes', () => {
    const c = new Cluster();
    const lease = c.api.create<KubeObject>({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'w1', namespace: 'kube-node-lease' },
      spec: { holderIdentity: 'w1', leaseDurationSeconds: 40 }
    });
    expect(lease.metadata.generation).toBeUndefined();
    const renewed = c.api.update<KubeObject>({ ...lease, spec: { ...lease.spec, leaseDurationSeconds: 41 } });
    expect(renewed.metadata.generation).toBeUndefined();
    const deploy = c.api.create<KubeObject>({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] }
        }
      }
    });
    expect(deploy.metadata.generation).toBe(1);
    expect(
      c.api.update<KubeObject>({ ...deploy, spec: { ...deploy.spec, replicas: 2 } }).metadata.generation
    ).toBe(2);
  });
});
