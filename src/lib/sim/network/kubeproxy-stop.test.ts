import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConsoleSession } from '../kubectl/console';
import { createCluster } from '../scenario/bootstrap';
import { kubeProxyOf } from './index';

const scenario = readFileSync(new URL('../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');

describe('kube-proxy as a unit in the node shell', () => {
  it('systemctl stop/status/restart kube-proxy applies StopKubeProxy and StartKubeProxy', () => {
    const c = createCluster(scenario, { fileName: 'three-nodes.yaml' }).cluster;
    c.runUntil(30_000);
    const sh = new ConsoleSession(c, {});
    sh.exec('ssh worker-1');
    expect(sh.exec('systemctl is-active kube-proxy')).toMatchObject({ stdout: 'active\n', exitCode: 0 });
    expect(sh.exec('systemctl stop kube-proxy').exitCode).toBe(0);
    expect(kubeProxyOf(c, 'worker-1')!.state.stopped).toBe(true);
    expect(c.faultLog.at(-1)).toEqual({ t: 30_000, action: 'StopKubeProxy', target: 'worker-1' });
    const st = sh.exec('systemctl status kube-proxy');
    expect(st.exitCode).toBe(3);
    expect(st.stdout).toContain('○ kube-proxy.service - Kubernetes Kube Proxy\n');
    expect(st.stdout).toContain('     Active: inactive (dead) since Thu 2026-01-01 00:00:30 UTC; now\n');
    expect(st.stdout).toContain(
      'Jan 01 00:00:30 worker-1 systemd[1]: Stopped kube-proxy.service - Kubernetes Kube Proxy.\n'
    );
    c.runUntil(60_000);
    expect(sh.exec('systemctl restart kube-proxy').exitCode).toBe(0);
    expect(kubeProxyOf(c, 'worker-1')!.state.stopped).toBeUndefined();
    c.runUntil(61_000);
    expect(kubeProxyOf(c, 'worker-1')!.state.syncs.at(-1)).toMatchObject({ t: 60_000, full: true });
    expect(sh.exec('systemctl status kube-proxy').stdout).toContain(
      'Active: active (running) since Thu 2026-01-01 00:01:00 UTC; 1s ago'
    );
    // worker-2's kube-proxy was never touched.
    expect(kubeProxyOf(c, 'worker-2')!.state.stopped).toBeUndefined();
  });
});
