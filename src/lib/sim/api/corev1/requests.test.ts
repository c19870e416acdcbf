// upstream: staging/src/k8s.io/component-helpers/resource/helpers_test.go
// (TestPodResourceRequests: restartable init containers, overhead, non-missing requests; TestPodResourceLimits)
import { describe, expect, it } from 'vitest';
import { podLimits, podRequests } from './requests';

const c = (cpu?: string, mem?: string, restartPolicy?: string) => ({
  ...(restartPolicy ? { restartPolicy } : {}),
  resources: { requests: { ...(cpu ? { cpu } : {}), ...(mem ? { memory: mem } : {}) } }
});

describe('podRequests', () => {
  it('sums the containers', () => {
    expect(podRequests({ spec: { containers: [c('1'), c('500m')] } })).toEqual({ cpu: 1500 });
  });
  it('a regular init container larger than the containers sets the request', () => {
    expect(podRequests({ spec: { containers: [c('1')], initContainers: [c('2')] } })).toEqual({ cpu: 2000 });
  });
  it('a restartable init container adds to the containers', () => {
    expect(
      podRequests({ spec: { containers: [c('1')], initContainers: [c('1', undefined, 'Always')] } })
    ).toEqual({
      cpu: 2000
    });
  });
  it('a regular init container after a sidecar runs next to it', () => {
    // sidecar 1 + init 2 = 3 during init; after init: containers 1 + sidecar 1 = 2.
    expect(
      podRequests({ spec: { containers: [c('1')], initContainers: [c('1', undefined, 'Always'), c('2')] } })
    ).toEqual({ cpu: 3000 });
  });
  it('multiple restartable and regular init containers', () => {
    // phases: s1=1, i1+s1=1+1=2, s1+s2=3, i2+s1+s2=5+3=8; running: 1+1+2=4 -> max 8
    expect(
      podRequests({
        spec: {
          containers: [c('1')],
          initContainers: [c('1', undefined, 'Always'), c('1'), c('2', undefined, 'Always'), c('5')]
        }
      })
    ).toEqual({ cpu: 8000 });
  });
  it('adds the pod overhead', () => {
    expect(
      podRequests({ spec: { containers: [c('1', '1Gi')], overhead: { cpu: '250m', memory: '120Mi' } } })
    ).toEqual({ cpu: 1250, memory: (1024 + 120) * 1024 * 1024 * 1000 });
  });
  it('non-missing requests fill only what a container does not request', () => {
    const nonMissing = { cpu: 100, memory: 200 * 1024 * 1024 * 1000 };
    expect(podRequests({ spec: { containers: [c('0'), {}] } }, { nonMissing }).cpu).toBe(100);
    expect(podRequests({ spec: { containers: [{}] } }, { nonMissing })).toEqual(nonMissing);
  });
});

describe('podLimits', () => {
  it('adds overhead only to limits that are set', () => {
    expect(
      podLimits({
        spec: {
          containers: [{ resources: { limits: { cpu: '1' } } }],
          overhead: { cpu: '100m', memory: '10Mi' }
        }
      })
    ).toEqual({ cpu: 1100 });
  });
});
