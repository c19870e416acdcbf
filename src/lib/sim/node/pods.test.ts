import { describe, expect, it } from 'vitest';
import { clusterWithNode, createPod, events, pod, runWatching } from './testing';

describe('image pulls', () => {
  it('pulls in size ÷ bandwidth, serialized, with the upstream events', () => {
    const { c } = clusterWithNode({ pullBandwidth: 10_000_000 });
    createPod(c, { name: 'a', image: 'nginx:1.27' });
    createPod(c, { name: 'b', image: 'redis:7.4' });
    c.advance(20_000);
    expect(events(c, 'Pulling', 'Pod/default/a')).toEqual([[1_000, 'Pulling image "nginx:1.27"']]);
    // 72.1 MB at 10 MB/s = 7.21s; redis waits for it, then 45.8 MB = 4.58s.
    expect(events(c, 'Pulled', 'Pod/default/a')).toEqual([
      [
        8_210,
        'Successfully pulled image "nginx:1.27" in 7.21s (7.21s including waiting). Image size: 72100000 bytes.'
      ]
    ]);
    expect(events(c, 'Pulled', 'Pod/default/b')).toEqual([
      [
        12_790,
        'Successfully pulled image "redis:7.4" in 4.58s (11.79s including waiting). Image size: 45800000 bytes.'
      ]
    ]);
    expect(events(c, 'Created', 'Pod/default/a')).toEqual([[8_210, 'Created container: app']]);
    expect(events(c, 'Started', 'Pod/default/a')).toEqual([[8_210, 'Started container app']]);
    createPod(c, { name: 'c', image: 'nginx:1.27' });
    c.advance(1_000);
    expect(events(c, 'Pulled', 'Pod/default/c')).toEqual([
      [21_000, 'Container image "nginx:1.27" already present on machine']
    ]);
  });

  it('backs off a failing pull 10s, 20s, 40s ... 300s with ErrImagePull / ImagePullBackOff', () => {
    const { c } = clusterWithNode();
    createPod(c, { image: 'nginx:1.277' });
    const reasons: [number, string][] = [];
    runWatching(c, 1_300_000, () => {
      const w = pod(c)?.status?.containerStatuses?.[0]?.state?.waiting;
      if (w && reasons[reasons.length - 1]?.[1] !== w.reason) reasons.push([c.now, w.reason]);
    });
    const err =
      'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.277": failed to resolve reference "docker.io/library/nginx:1.277": docker.io/library/nginx:1.277: not found';
    const failed = events(c, 'Failed');
    expect(failed.slice(0, 4)).toEqual([
      [1_500, `Failed to pull image "nginx:1.277": ${err}`],
      [1_500, 'Error: ErrImagePull'],
      [2_500, 'Error: ImagePullBackOff'],
      [12_000, `Failed to pull image "nginx:1.277": ${err}`]
    ]);
    expect(events(c, 'BackOff')[0]).toEqual([2_500, 'Back-off pulling image "nginx:1.277"']);
    expect(c.eventLog.find((e) => e.reason === 'BackOff')!.type).toBe('Normal');
    const pulls = events(c, 'Pulling').map(([t]) => t);
    const fails = failed.filter(([, m]) => m.startsWith('Failed to pull')).map(([t]) => t);
    const gaps = pulls.slice(1).map((t, i) => (t - fails[i]) / 1000);
    expect(gaps.slice(0, 8)).toEqual([10, 20, 40, 80, 160, 300, 300, 300]);
    expect(reasons.slice(0, 4)).toEqual([
      [1_000, 'ContainerCreating'],
      [1_500, 'ErrImagePull'],
      [2_500, 'ImagePullBackOff'],
      [12_000, 'ErrImagePull']
    ]);
    expect(pod(c)!.status.phase).toBe('Pending');
    expect(pod(c)!.status.containerStatuses[0].state.waiting.message).toBe(
      'Back-off pulling image "nginx:1.277"'
    );
  });

  it('reports ErrImageNeverPull for a missing image with pull policy Never', () => {
    const { c } = clusterWithNode();
    createPod(c, { containers: [{ name: 'app', image: 'redis:8.2', imagePullPolicy: 'Never' }] });
    c.advance(2_000);
    const msg = 'Container image "redis:8.2" is not present with pull policy of Never';
    expect(events(c, 'ErrImageNeverPull')).toEqual([[1_000, msg]]);
    expect(pod(c)!.status.containerStatuses[0].state).toEqual({
      waiting: { reason: 'ErrImageNeverPull', message: msg }
    });
  });

  it('gives Docker Hub an authorization error for an unknown repository', () => {
    const { c } = clusterWithNode();
    createPod(c, { image: 'nosuchimage' });
    c.advance(2_000);
    expect(events(c, 'Failed')[0][1]).toBe(
      'Failed to pull image "nosuchimage": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/nosuchimage:latest": failed to resolve reference "docker.io/library/nosuchimage:latest": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed'
    );
  });
});

describe('container restarts', () => {
  it('CrashLoopBackOff: first restart at once, then 10s, 20s ... capped at 300s, reset after 10 min running', () => {
    const { c } = clusterWithNode();
    createPod(c, { annotations: { 'nodeplane.dev/crash-after': '5s' } });
    c.advance(3_000_000);
    const starts = events(c, 'Started').map(([t]) => t);
    const exits = starts.map((t) => t + 5_000);
    const waits = starts.slice(1).map((t, i) => (t - exits[i]) / 1000);
    expect(waits.slice(0, 9)).toEqual([0, 10, 20, 40, 80, 160, 300, 300, 300]);
    const st = pod(c)!.status.containerStatuses[0];
    expect(st.lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(pod(c)!.status.phase).toBe('Running');
    const uid = pod(c)!.metadata.uid;
    // Pulled at 2.442s, crashes at 7.442s (restarted at once) and 12.442s (back-off 10s).
    expect(events(c, 'BackOff')[0]).toEqual([
      12_442,
      `Back-off restarting failed container app in pod web_default(${uid})`
    ]);
  });

  it('shows the CrashLoopBackOff waiting message with the current delay', () => {
    const { c } = clusterWithNode();
    const p = createPod(c, { annotations: { 'nodeplane.dev/crash-after': '5s' } });
    const seen: string[] = [];
    runWatching(c, 120_000, () => {
      const w = pod(c)?.status?.containerStatuses?.[0]?.state?.waiting;
      if (w?.reason === 'CrashLoopBackOff' && seen[seen.length - 1] !== w.message) seen.push(w.message);
    });
    const id = `pod=web_default(${p.metadata.uid})`;
    expect(seen.slice(0, 3)).toEqual([
      `back-off 10s restarting failed container=app ${id}`,
      `back-off 20s restarting failed container=app ${id}`,
      `back-off 40s restarting failed container=app ${id}`
    ]);
  });

  it('resets the back-off when the container ran longer than 10 minutes', () => {
    const { c, k } = clusterWithNode();
    createPod(c, { annotations: { 'nodeplane.dev/crash-after': '5s' } });
    c.advance(200_000);
    const started = events(c, 'Started').length;
    expect(started).toBe(6);
    // Swap the workload for one that crashes after 11 min: the next restart is immediate.
    const ann = { ...pod(c)!.metadata.annotations, 'nodeplane.dev/crash-after': '11m' };
    const cur = pod(c)!;
    c.api.update({ ...cur, metadata: { ...cur.metadata, annotations: ann } });
    c.advance(1_800_000);
    const starts = events(c, 'Started').map(([t]) => t);
    const exitGap = (i: number, runMs: number) => (starts[i + 1] - (starts[i] + runMs)) / 1000;
    // Before the change the delay had grown to 80s.
    expect(exitGap(4, 5_000)).toBe(80);
    const firstLong = starts.findIndex((t) => t > 200_000);
    // Each 11-minute run outlived 2 × 300s since the last back-off bump: the restart is immediate.
    expect(exitGap(firstLong, 660_000)).toBe(0);
    expect(exitGap(firstLong + 1, 660_000)).toBe(0);
    void k;
  });

  it('restartPolicy Never: a completed pod is Succeeded, a failed one Failed', () => {
    const { c } = clusterWithNode();
    createPod(c, {
      name: 'ok',
      annotations: { 'nodeplane.dev/complete-after': '3s' },
      spec: { restartPolicy: 'Never' }
    });
    createPod(c, {
      name: 'bad',
      annotations: { 'nodeplane.dev/crash-after': '3s', 'nodeplane.dev/exit-code': '2' },
      spec: { restartPolicy: 'Never' }
    });
    c.advance(10_000);
    expect(pod(c, 'ok')!.status.phase).toBe('Succeeded');
    expect(pod(c, 'ok')!.status.containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed'
    });
    expect(pod(c, 'bad')!.status.phase).toBe('Failed');
    expect(pod(c, 'bad')!.status.containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 2,
      reason: 'Error'
    });
  });

  it('OOMKills a container whose memory grows past its limit', () => {
    const { c } = clusterWithNode();
    createPod(c, {
      annotations: { 'nodeplane.dev/memory-usage': '100Mi+10Mi/s' },
      containers: [{ name: 'app', image: 'nginx:1.27', resources: { limits: { memory: '200Mi' } } }]
    });
    c.advance(20_000);
    const st = pod(c)!.status.containerStatuses[0];
    expect(st.lastState.terminated).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
    expect(st.restartCount).toBe(1);
  });
});

describe('init containers and readiness', () => {
  it('runs init containers in order before the app, then marks it ready after ready-after', () => {
    const { c } = clusterWithNode();
    createPod(c, {
      annotations: {
        'nodeplane.dev/complete-after.init-a': '2s',
        'nodeplane.dev/complete-after.init-b': '3s',
        'nodeplane.dev/ready-after': '4s'
      },
      spec: {
        initContainers: [
          { name: 'init-a', image: 'busybox:1.37' },
          { name: 'init-b', image: 'busybox:1.37' }
        ]
      }
    });
    const phases: [number, string, string][] = [];
    runWatching(c, 20_000, () => {
      const p = pod(c)!;
      const ready = p.status?.conditions?.find((x: { type: string }) => x.type === 'Ready')?.status ?? '';
      const key = `${p.status?.phase}`;
      if (phases[phases.length - 1]?.[1] !== key || phases[phases.length - 1]?.[2] !== ready)
        phases.push([c.now, key, ready]);
    });
    const started = c.eventLog.filter((e) => e.reason === 'Started').map((e) => [e.t, e.message]);
    expect(started.map(([, m]) => m)).toEqual([
      'Started container init-a',
      'Started container init-b',
      'Started container app'
    ]);
    const [a, b, app] = started.map(([t]) => t as number);
    expect(b - a).toBe(2_000);
    // init-b runs 3s, then nginx is pulled (72.1 MB at 50 MB/s = 1.442s).
    expect(app - b).toBe(3_000 + 1_442);
    expect(phases[phases.length - 1]).toEqual([app + 4_000, 'Running', 'True']);
    expect(
      pod(c)!.status.initContainerStatuses.map(
        (s: { state: { terminated: { reason: string } } }) => s.state.terminated.reason
      )
    ).toEqual(['Completed', 'Completed']);
  });
});

describe('graceful termination', () => {
  it('stops containers within the grace period, then deletes the pod with grace 0', () => {
    const { c } = clusterWithNode();
    createPod(c, { annotations: { 'nodeplane.dev/termination-delay': '4s' } });
    c.advance(10_000);
    c.api.delete('Pod', 'default', 'web');
    expect(pod(c)!.metadata.deletionTimestamp).toBeDefined();
    c.advance(3_000);
    expect(events(c, 'Killing')).toEqual([[11_000, 'Stopping container app']]);
    expect(pod(c)).toBeDefined();
    c.advance(2_000);
    expect(pod(c)).toBeUndefined();
  });

  it('kills a container that ignores SIGTERM when the grace period ends', () => {
    const { c, k } = clusterWithNode();
    createPod(c, {
      annotations: { 'nodeplane.dev/termination-delay': '5m' },
      spec: { terminationGracePeriodSeconds: 10 }
    });
    c.advance(10_000);
    c.api.delete('Pod', 'default', 'web');
    c.advance(9_000);
    expect(pod(c)).toBeDefined();
    expect(k.host.containers()[0].state).toBe('CONTAINER_RUNNING');
    c.advance(2_000);
    expect(pod(c)).toBeUndefined();
  });
});
