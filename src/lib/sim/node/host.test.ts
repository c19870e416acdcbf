import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Cluster, type ClusterSnapshot } from '../cluster';
import { createCluster } from '../scenario/bootstrap';
import { clusterWithNode, createPod } from './testing';

const threeNodes = readFileSync(new URL('../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');

describe('the node host: the machine apart from the kubelet', () => {
  it('is found by name and carries the kubelet, the runtime and the CNI as typed components', () => {
    const { c, k } = clusterWithNode();
    const host = c.nodeHost('worker-1')!;
    expect(host.kubelet).toBe(k);
    expect(k.host).toBe(host);
    expect(c.nodeHost('nope')).toBeUndefined();
    expect(c.nodeHosts().map((h) => h.name)).toEqual(['worker-1']);
    const s = host.status();
    // containerd 2.1 for Kubernetes 1.33+; a first boot gives the daemon a pid in 300..999.
    expect(s.runtime).toMatchObject({
      name: 'containerd',
      unit: 'containerd',
      version: '2.1.4',
      running: true
    });
    expect(s.runtime.pid).toBeGreaterThanOrEqual(300);
    expect(s.runtime.pid).toBeLessThan(1000);
    expect(s.kubelet).toMatchObject({ running: true, syncing: true, registered: true, version: 'v1.35.0' });
    expect(s.kubelet.pid).toBe(host.pid('kubelet'));
    // The cluster's CNI (Calico) wrote its config to /etc/cni/net.d.
    expect(s.cni).toEqual({
      installed: true,
      plugin: 'calico',
      files: ['10-calico.conflist', 'calico-kubeconfig']
    });
    expect(s.poweredOff).toBe(false);
    expect(s.ids.machineID).toMatch(/^[0-9a-f]{32}$/);
    // No network addon in this bare cluster: no kube-proxy on the machine.
    expect(s.kubeProxy).toBeUndefined();
  });

  it('the runtime stops and starts as a service of the machine; the kubelet is unaffected', () => {
    const { c, k } = clusterWithNode();
    const host = c.nodeHost('worker-1')!;
    c.applyFault('StopRuntime', { target: 'worker-1' });
    expect(host.runtime.status()).toEqual({
      name: 'containerd',
      unit: 'containerd',
      version: '2.1.4',
      running: false,
      since: c.now
    });
    expect(host.journal('containerd').at(-1)).toMatchObject({
      source: 'service.go:211',
      message: '"Stop CRI service"'
    });
    expect(k.status().running).toBe(true);
    c.applyFault('StartRuntime', { target: 'worker-1' });
    expect(host.runtime.status().running).toBe(true);
    expect(host.journal('containerd').at(-1)!.message).toBe('"containerd successfully booted in 0.042s"');
  });

  it('RemoveCNI and InstallCNI change the host’s /etc/cni/net.d', () => {
    const { c } = clusterWithNode();
    const host = c.nodeHost('worker-1')!;
    c.applyFault('RemoveCNI', { target: 'worker-1' });
    expect(host.cni.status()).toEqual({ installed: false, plugin: 'none', files: [] });
    c.applyFault('InstallCNI', { target: 'worker-1' });
    expect(host.cni.status().plugin).toBe('calico');
  });

  it('kube-proxy on a scenario node is reached through its host', () => {
    const { cluster } = createCluster(threeNodes, { fileName: 'three-nodes.yaml' });
    cluster.runUntil(10_000);
    const host = cluster.nodeHost('worker-1')!;
    // upstream: pkg/proxy/apis/config/v1alpha1/defaults.go (the scenario's mode is iptables)
    expect(host.kubeProxy?.status()).toMatchObject({ running: true, mode: 'iptables' });
    expect(host.status().kubeProxy?.mode).toBe('iptables');
  });

  it('snapshots keep the machine next to the kubelet, and a restore puts it back', () => {
    const { c } = clusterWithNode();
    createPod(c, { name: 'web' });
    c.applyFault('FillMemory', { target: 'worker-1', amount: '1Gi' });
    c.advance(20_000);
    const snap = JSON.parse(JSON.stringify(c.snapshot())) as ClusterSnapshot;
    const kubeletState = snap.components.find((x) => x.id === 'kubelet/worker-1')!.state as object;
    expect(Object.keys(kubeletState)).not.toContain('runtime');
    expect(snap.hosts['worker-1'].system.fillMemory).toBe(2 ** 30);
    const restored = Cluster.restore(snap).nodeHost('worker-1')!;
    expect(JSON.parse(JSON.stringify(restored.state))).toEqual(snap.hosts['worker-1']);
    expect(restored.status()).toEqual(c.nodeHost('worker-1')!.status());
  });

  it('restores a snapshot taken before node hosts, when the kubelet state held the machine', () => {
    const { c } = clusterWithNode();
    createPod(c, { name: 'web' });
    c.advance(20_000);
    const snap = JSON.parse(JSON.stringify(c.snapshot())) as ClusterSnapshot;
    const host = snap.hosts['worker-1'];
    const entry = snap.components.find((x) => x.id === 'kubelet/worker-1')!;
    entry.state = { ...(entry.state as object), ...host };
    const { hosts: _hosts, ...before } = snap;
    const restored = Cluster.restore(before as ClusterSnapshot);
    expect(JSON.parse(JSON.stringify(restored.nodeHost('worker-1')!.state))).toEqual(host);
    expect(Object.keys(restored.nodeHost('worker-1')!.kubelet.state)).not.toContain('journal');
    expect(
      restored
        .nodeHost('worker-1')!
        .containers()
        .map((x) => x.name)
    ).toEqual(['app']);
  });

  it('the machine goes with its kubelet (DeleteNode)', () => {
    const { c } = clusterWithNode();
    c.applyFault('DeleteNode', { target: 'worker-1' });
    expect(c.nodeHost('worker-1')).toBeUndefined();
    expect(c.snapshot().hosts).toEqual({});
  });
});
