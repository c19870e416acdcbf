// upstream: cmd/kubeadm/app/phases/addons/proxy/manifests.go (kube-proxy runs in the kube-proxy
// DaemonSet's pod, not as a systemd unit) and pkg/controller/daemon/daemon_controller.go (a deleted
// daemon pod is replaced on its node).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { ConsoleSession } from '../kubectl/console';
import { createCluster } from '../scenario/bootstrap';
import { kubeProxyOf } from './index';

const scenario = readFileSync(new URL('../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');

const proxyPod = (c: ReturnType<typeof createCluster>['cluster'], node: string) =>
  c.api
    .podsOnNode<KubeObject>(node)
    .filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-proxy' && !p.metadata.deletionTimestamp);

describe('kube-proxy in its DaemonSet pod', () => {
  it('is no systemd unit on a kubeadm node', () => {
    const c = createCluster(scenario, { fileName: 'three-nodes.yaml' }).cluster;
    c.runUntil(30_000);
    const sh = new ConsoleSession(c, {});
    sh.exec('ssh worker-1');
    expect(sh.exec('systemctl status kube-proxy')).toMatchObject({
      stdout: '',
      stderr: 'Unit kube-proxy.service could not be found.\n',
      exitCode: 4
    });
    expect(sh.exec('systemctl restart kube-proxy')).toMatchObject({
      stderr: 'Failed to restart kube-proxy.service: Unit kube-proxy.service not loaded.\n',
      exitCode: 5
    });
  });

  it('a stuck kube-proxy (StopKubeProxy) starts again in the pod that replaces its deleted one', () => {
    const c = createCluster(scenario, { fileName: 'three-nodes.yaml' }).cluster;
    c.runUntil(30_000);
    c.applyFault('StopKubeProxy', { target: 'worker-1' });
    expect(kubeProxyOf(c, 'worker-1')!.state.stopped).toBe(true);
    const [old] = proxyPod(c, 'worker-1');
    // The process hangs; its pod still says Running.
    expect(old.status?.phase).toBe('Running');
    const sh = new ConsoleSession(c, {});
    expect(
      sh.exec(
        'kubectl -n kube-system delete pod -l k8s-app=kube-proxy --field-selector spec.nodeName=worker-1'
      ).stdout
    ).toBe(`pod "${old.metadata.name}" deleted from kube-system namespace\n`);
    c.runUntil(40_000);
    const [fresh] = proxyPod(c, 'worker-1');
    expect(fresh.metadata.name).not.toBe(old.metadata.name);
    expect(fresh.status?.phase).toBe('Running');
    const kp = kubeProxyOf(c, 'worker-1')!;
    expect(kp.state.stopped).toBeUndefined();
    expect(kp.state.podUID).toBe(fresh.metadata.uid);
    // The new process syncs in full as soon as its container runs.
    expect(kp.state.syncs.at(-1)).toMatchObject({ full: true });
    expect(kp.state.syncs.at(-1)!.t).toBeGreaterThan(30_000);
    // worker-2's kube-proxy was never touched.
    expect(kubeProxyOf(c, 'worker-2')!.state.stopped).toBeUndefined();
  });
});
