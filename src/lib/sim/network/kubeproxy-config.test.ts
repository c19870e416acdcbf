// upstream: cmd/kubeadm/app/phases/addons/proxy/manifests.go (the kube-system/kube-proxy
// ConfigMap, data key config.conf, mounted at /var/lib/kube-proxy) and
// pkg/proxy/apis/config/validation/validation.go (the supported modes on Linux).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { ConsoleSession } from '../kubectl/console';
import { saveEdit } from '../kubectl/commands/edit';
import { createCluster } from '../scenario/bootstrap';
import { kubeProxyOf } from './index';

const scenario = readFileSync(new URL('../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');

function cluster() {
  const c = createCluster(scenario, { fileName: 'three-nodes.yaml' }).cluster;
  c.runUntil(30_000);
  return c;
}

const modes = (c: ReturnType<typeof cluster>) =>
  ['worker-1', 'worker-2', 'worker-3'].map((n) => kubeProxyOf(c, n)!.state.mode);

function configConf(c: ReturnType<typeof cluster>): Record<string, unknown> {
  const cm = c.api.get<KubeObject>('ConfigMap', 'kube-system', 'kube-proxy');
  return parse((cm.data as Record<string, string>)['config.conf']) as Record<string, unknown>;
}

describe('the kube-proxy ConfigMap', () => {
  it('exists from the start with a KubeProxyConfiguration in config.conf (mode "" = iptables)', () => {
    const c = cluster();
    const cfg = configConf(c);
    expect(cfg).toMatchObject({
      apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
      kind: 'KubeProxyConfiguration',
      mode: '',
      clusterCIDR: '10.244.0.0/16'
    });
    expect(modes(c)).toEqual(['iptables', 'iptables', 'iptables']);
  });

  it('kubectl edit of mode, then a restart of kube-proxy on a node, switches that node only', () => {
    const c = cluster();
    const sh = new ConsoleSession(c, {});
    const opened = sh.exec('kubectl edit configmap kube-proxy -n kube-system');
    expect(opened.action).toMatchObject({
      type: 'edit',
      ref: { kind: 'ConfigMap', namespace: 'kube-system', name: 'kube-proxy' }
    });
    const yaml = opened.action!.yaml!;
    expect(yaml).toContain('mode: ""');
    const saved = saveEdit(c, opened.action!.ref!, yaml, yaml.replace('mode: ""', 'mode: nftables'));
    expect(saved.stdout).toBe('configmap/kube-proxy edited\n');
    // kube-proxy reads its config when it starts: nothing changes until a restart.
    c.runUntil(31_000);
    expect(modes(c)).toEqual(['iptables', 'iptables', 'iptables']);
    sh.exec('ssh worker-1');
    expect(sh.exec('systemctl restart kube-proxy').exitCode).toBe(0);
    c.runUntil(33_000);
    expect(modes(c)).toEqual(['nftables', 'iptables', 'iptables']);
    const kp = kubeProxyOf(c, 'worker-1')!;
    expect(kp.state.cleanups.at(-1)).toEqual({ t: 30_000 + 1_000, from: 'iptables', to: 'nftables' });
    expect(sh.exec('nft list ruleset').stdout).toContain('table ip kube-proxy');
  });

  it('an unsupported mode: kube-proxy exits with its validation error and its old rules stay', () => {
    const c = cluster();
    const sh = new ConsoleSession(c, {});
    const opened = sh.exec('kubectl edit cm/kube-proxy -n kube-system');
    const yaml = opened.action!.yaml!;
    saveEdit(c, opened.action!.ref!, yaml, yaml.replace('mode: ""', 'mode: userspace'));
    sh.exec('ssh worker-2');
    sh.exec('systemctl restart kube-proxy');
    c.runUntil(32_000);
    expect(kubeProxyOf(c, 'worker-2')!.state).toMatchObject({ mode: 'iptables', stopped: true });
    expect(kubeProxyOf(c, 'worker-2')!.state.configError).toBe(
      'KubeProxyConfiguration.mode: Unsupported value: "userspace": supported values: "iptables", "ipvs", "nftables"'
    );
  });

  it('SetProxyMode on all nodes is the same change: config.conf says the new mode', () => {
    const c = cluster();
    c.applyFault('SetProxyMode', { target: 'all', mode: 'ipvs' } as never);
    c.runUntil(32_000);
    expect(modes(c)).toEqual(['ipvs', 'ipvs', 'ipvs']);
    expect(configConf(c).mode).toBe('ipvs');
    // A later restart reads ipvs back and stays there.
    const sh = new ConsoleSession(c, {});
    sh.exec('ssh worker-3');
    sh.exec('systemctl restart kube-proxy');
    c.runUntil(34_000);
    expect(kubeProxyOf(c, 'worker-3')!.state.mode).toBe('ipvs');
  });
});
