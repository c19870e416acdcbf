// upstream: pkg/kubelet/images/image_manager.go (ErrImagePull, ImagePullBackOff, ErrImageNeverPull)
// upstream: pkg/kubelet/images/types.go (the waiting reasons)
// upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go (CrashLoopBackOff, back-off 10 s → 5 min)
// upstream: pkg/kubelet/kubelet_pods.go (convertToAPIContainerStatuses: ContainerCreating, PodInitializing)
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { containerEventOf, containerMachine } from './container';
import { initialRecord, stepRecord } from './record';
import type { KubeObject } from '../api/types';
import type { Kubelet } from '../node/kubelet';
import { createCluster } from '../scenario';

function walk(states: Record<string, unknown>[]): string[] {
  let rec = initialRecord(containerMachine, 0);
  states.forEach((s, i) => {
    const next = containerEventOf(s)!;
    rec = stepRecord(containerMachine, rec, next.event, i + 1).record;
  });
  return rec.path.map((p) => p.value);
}

const waiting = (reason: string) => ({ waiting: { reason } });
const terminated = (reason: string) => ({ terminated: { reason, exitCode: reason === 'Completed' ? 0 : 1 } });

describe('container state machine', () => {
  it('a bad image: ContainerCreating → ErrImagePull → ImagePullBackOff → ErrImagePull', () => {
    expect(walk([waiting('ErrImagePull'), waiting('ImagePullBackOff'), waiting('ErrImagePull')])).toEqual([
      'waiting.ContainerCreating',
      'waiting.ErrImagePull',
      'waiting.ImagePullBackOff',
      'waiting.ErrImagePull'
    ]);
  });

  it('a crash loop: running → terminated.Error → CrashLoopBackOff → running → OOMKilled', () => {
    expect(
      walk([
        { running: {} },
        terminated('Error'),
        waiting('CrashLoopBackOff'),
        { running: {} },
        terminated('OOMKilled')
      ])
    ).toEqual([
      'waiting.ContainerCreating',
      'running',
      'terminated.Error',
      'waiting.CrashLoopBackOff',
      'running',
      'terminated.OOMKilled'
    ]);
  });

  it('does not take an event its state has no transition for', () => {
    const rec = initialRecord(containerMachine, 0);
    // A back-off without a failed pull first is not a kubelet transition.
    const r = stepRecord(containerMachine, rec, { type: 'PULL_BACK_OFF' }, 5);
    expect(r.moved).toBe(false);
    expect(r.record).toBe(rec);
  });

  it('names the reported state the status carries', () => {
    expect(containerEventOf({ terminated: { reason: 'Completed', exitCode: 0 } })).toEqual({
      event: { type: 'EXITED', reason: 'Completed' },
      value: 'terminated.Completed'
    });
    expect(containerEventOf(waiting('CreateContainerConfigError'))).toBeUndefined();
  });
});

/** Every app container's machine agrees with the state its kubelet last posted. */
function disagreements(text: string, file: string, until: number): string[] {
  const { cluster } = createCluster(text, { fileName: file });
  const out: string[] = [];
  for (let t = 5_000; t <= until; t += 5_000) {
    cluster.engine.runUntil(t);
    for (const k of cluster.componentsOfKind<Kubelet>('kubelet')) {
      for (const rec of Object.values(k.state.pods)) {
        if (!rec.posted) continue;
        const pod = cluster.api.tryGet<KubeObject>('Pod', rec.namespace, rec.name);
        if (!pod || pod.metadata.uid !== rec.uid) continue;
        for (const s of (pod.status?.containerStatuses ?? []) as {
          name: string;
          state: Record<string, unknown>;
        }[]) {
          const c = rec.containers.find((x) => !x.init && x.name === s.name);
          const want = containerEventOf(s.state)?.value;
          if (want && c?.machine?.value !== want)
            out.push(`${t} ${rec.key}/${s.name}: ${c?.machine?.value} ≠ ${want}`);
        }
      }
    }
  }
  return out;
}

describe('the kubelet steps the container machine with the states it posts', () => {
  it('lesson 3 (image typo, crash loop, kubelet restart): machine and status agree at every step', () => {
    const file = 'lessons/03-container-runtime/scenario.yaml';
    expect(disagreements(readFileSync(file, 'utf8'), file, 240_000)).toEqual([]);
  });

  it('an OOM-killed (restarted) and a completed container (restartPolicy Never)', () => {
    const text = `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: ends }
spec:
  seed: 1
  nodePools: [{ name: worker, count: 1 }]
---
apiVersion: v1
kind: Pod
metadata:
  name: hungry
  annotations: { nodeplane.dev/memory-usage: "10Mi+50Mi/s" }
spec:
  containers:
    - name: app
      image: busybox:1.36
      resources: { limits: { memory: 100Mi } }
---
apiVersion: v1
kind: Pod
metadata:
  name: job
  annotations: { nodeplane.dev/complete-after: "3s" }
spec:
  restartPolicy: Never
  containers: [{ name: run, image: busybox:1.36 }]
`;
    const { cluster } = createCluster(text, { fileName: 'ends.yaml' });
    cluster.engine.runUntil(60_000);
    const k = cluster.componentsOfKind<Kubelet>('kubelet')[0];
    const path = (key: string) =>
      k.state.pods[key].containers[0].machine!.path.map((p) =>
        p.detail ? `${p.value} (${p.detail})` : p.value
      );
    expect(path('default/job')).toEqual(['waiting.ContainerCreating', 'running', 'terminated.Completed']);
    // Restarted per restartPolicy Always: the status goes from running straight to the back-off,
    // the OOM kill stays in lastState.terminated.
    expect(path('default/hungry').slice(0, 4)).toEqual([
      'waiting.ContainerCreating',
      'running',
      'waiting.CrashLoopBackOff (OOMKilled)',
      'running'
    ]);
    expect(disagreements(text, 'ends.yaml', 60_000)).toEqual([]);
  });

  for (const f of readdirSync('scenarios').filter(
    (x) => x.endsWith('.yaml') && !x.startsWith('two-hundred')
  )) {
    it(`scenarios/${f}: machine and status agree`, { timeout: 60_000 }, () => {
      expect(disagreements(readFileSync(`scenarios/${f}`, 'utf8'), f, 180_000)).toEqual([]);
    });
  }
});
