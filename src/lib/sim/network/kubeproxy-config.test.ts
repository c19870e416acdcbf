// upstream: cmd/kubeadm/app/phases/addons/proxy/manifests.go (the kube-system/kube-proxy
// ConfigMap, data keys config.conf and kubeconfig.conf, mounted at /var/lib/kube-proxy by the
// kube-proxy DaemonSet), pkg/proxy/apis/config/validation/validation.go (the supported modes on
// Linux) and staging/src/k8s.io/kubectl/pkg/polymorphichelpers/objectrestarter.go (rollout
// restart: the kubectl.kubernetes.io/restartedAt template annotation).
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

const DELETE_POD = 'kubectl -n kube-system delete pod -l k8s-app=kube-proxy --field-selector spec.nodeName=';

// kubeadm's control-plane-1 runs a kube-proxy pod too (the DaemonSet tolerates every taint).
const NODES = ['control-plane-1', 'worker-1', 'worker-2', 'worker-3'];
const modes = (c: ReturnType<typeof cluster>) => NODES.map((n) => kubeProxyOf(c, n)!.state.mode);

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
    expect(modes(c)).toEqual(['iptables', 'iptables', 'iptables', 'iptables']);
  });

  it('kubectl edit of mode, then a new kube-proxy pod on a node, switches that node only', () => {
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
    expect(modes(c)).toEqual(['iptables', 'iptables', 'iptables', 'iptables']);
    expect(sh.exec(`${DELETE_POD}worker-1`).exitCode).toBe(0);
    c.runUntil(40_000);
    expect(modes(c)).toEqual(['iptables', 'nftables', 'iptables', 'iptables']);
    const kp = kubeProxyOf(c, 'worker-1')!;
    expect(kp.state.cleanups.at(-1)).toMatchObject({ from: 'iptables', to: 'nftables' });
    sh.exec('ssh worker-1');
    expect(sh.exec('nft list ruleset').stdout).toContain('table ip kube-proxy');
  });

  it('an unsupported mode: kube-proxy exits with its validation error and its old rules stay', () => {
    const c = cluster();
    const sh = new ConsoleSession(c, {});
    const opened = sh.exec('kubectl edit cm/kube-proxy -n kube-system');
    const yaml = opened.action!.yaml!;
    saveEdit(c, opened.action!.ref!, yaml, yaml.replace('mode: ""', 'mode: userspace'));
    sh.exec(`${DELETE_POD}worker-2`);
    c.runUntil(40_000);
    expect(kubeProxyOf(c, 'worker-2')!.state).toMatchObject({ mode: 'iptables', stopped: true });
    expect(kubeProxyOf(c, 'worker-2')!.state.configError).toBe(
      'KubeProxyConfiguration.mode: Unsupported value: "userspace": supported values: "iptables", "ipvs", "nftables"'
    );
  });

  it('SetProxyMode on all nodes is the same change: config.conf says the new mode', () => {
    const c = cluster();
    c.applyFault('SetProxyMode', { target: 'all', mode: 'ipvs' } as never);
    c.runUntil(32_000);
    expect(modes(c)).toEqual(['ipvs', 'ipvs', 'ipvs', 'ipvs']);
    expect(configConf(c).mode).toBe('ipvs');
    // A later restart reads ipvs back and stays there.
    const sh = new ConsoleSession(c, {});
    sh.exec(`${DELETE_POD}worker-3`);
    c.runUntil(40_000);
    expect(kubeProxyOf(c, 'worker-3')!.state.mode).toBe('ipvs');
  });

  it('kubectl apply of an edited config.conf, then a rollout restart, switches every node', () => {
    const c = cluster();
    let buffer = '';
    const sh = new ConsoleSession(c, { files: { 'kube-proxy.yaml': '' }, editorBuffer: () => buffer });
    const before = sh.exec('kubectl -n kube-system get pods -l k8s-app=kube-proxy -o name').stdout;
    expect(before.trim().split('\n')).toHaveLength(4);
    const cm = c.api.get<KubeObject>('ConfigMap', 'kube-system', 'kube-proxy');
    const data = cm.data as Record<string, string>;
    const edited = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kube-proxy', namespace: 'kube-system', labels: { app: 'kube-proxy' } },
      data: { ...data, 'config.conf': data['config.conf'].replace('mode: ""', 'mode: ipvs') }
    };
    buffer = JSON.stringify(edited);
    const applied = sh.exec('kubectl apply -f -');
    expect(applied.stdout).toBe('configmap/kube-proxy configured\n');
    c.runUntil(35_000);
    // Read only at start: the running processes keep iptables.
    expect(modes(c)).toEqual(['iptables', 'iptables', 'iptables', 'iptables']);
    expect(sh.exec('kubectl -n kube-system rollout restart daemonset kube-proxy').stdout).toBe(
      'daemonset.apps/kube-proxy restarted\n'
    );
    c.runUntil(90_000);
    expect(modes(c)).toEqual(['ipvs', 'ipvs', 'ipvs', 'ipvs']);
    const after = sh.exec('kubectl -n kube-system get pods -l k8s-app=kube-proxy -o name').stdout;
    expect(after.trim().split('\n')).toHaveLength(4);
    for (const name of before.trim().split('\n')) expect(after).not.toContain(name);
    for (const n of NODES)
      expect(kubeProxyOf(c, n)!.state.cleanups.at(-1)).toMatchObject({ from: 'iptables', to: 'ipvs' });
    expect(sh.exec('kubectl -n kube-system rollout status daemonset kube-proxy').stdout).toBe(
      'daemon set "kube-proxy" successfully rolled out\n'
    );
  });

  it("the ConfigMap has kubeadm's in-cluster kubeconfig.conf next to config.conf", () => {
    const c = cluster();
    const cm = c.api.get<KubeObject>('ConfigMap', 'kube-system', 'kube-proxy');
    expect(Object.keys(cm.data as object).sort()).toEqual(['config.conf', 'kubeconfig.conf']);
    expect(cm.metadata.labels).toEqual({ app: 'kube-proxy' });
    expect(parse((cm.data as Record<string, string>)['kubeconfig.conf'])).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          cluster: {
            'certificate-authority': '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
            server: 'https://10.0.0.10:6443'
          },
          name: 'default'
        }
      ],
      contexts: [{ context: { cluster: 'default', namespace: 'default', user: 'default' }, name: 'default' }],
      'current-context': 'default',
      users: [{ name: 'default', user: { tokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token' } }]
    });
  });

  it("the DaemonSet is kubeadm's: k8s-app=kube-proxy, system-node-critical, host network, tolerates all", () => {
    const c = cluster();
    const ds = c.api.get<KubeObject>('DaemonSet', 'kube-system', 'kube-proxy');
    expect(ds.metadata.labels).toEqual({ 'k8s-app': 'kube-proxy' });
    const spec = ds.spec!.template.spec;
    expect(spec).toMatchObject({
      priorityClassName: 'system-node-critical',
      hostNetwork: true,
      serviceAccountName: 'kube-proxy',
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }, { operator: 'Exists' }]
    });
    expect(spec.containers[0]).toMatchObject({
      name: 'kube-proxy',
      image: 'registry.k8s.io/kube-proxy:v1.35.0',
      command: [
        '/usr/local/bin/kube-proxy',
        '--config=/var/lib/kube-proxy/config.conf',
        '--hostname-override=$(NODE_NAME)'
      ]
    });
    expect(spec.volumes[0]).toMatchObject({ name: 'kube-proxy', configMap: { name: 'kube-proxy' } });
    // One pod per node, on the node's own address (host network).
    const pods = c.api
      .list<KubeObject>('Pod', { namespace: 'kube-system' })
      .filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-proxy');
    expect(pods.map((p) => [p.spec!.nodeName, p.status?.podIP]).sort()).toEqual([
      ['control-plane-1', '10.0.0.10'],
      ['worker-1', '10.0.0.11'],
      ['worker-2', '10.0.0.12'],
      ['worker-3', '10.0.0.13']
    ]);
  });
});
