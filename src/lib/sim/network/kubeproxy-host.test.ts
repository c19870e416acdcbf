// kube-proxy as a systemd unit on the node (spec.network.kubeProxy.deployment: systemd).
// upstream: cmd/kube-proxy/app/server.go (--config is read once, when the process starts;
// "Version info"), cmd/kube-proxy/app/server_linux.go ("Using iptables Proxier", "Using ipvs
// Proxier", "Using nftables Proxier"), pkg/proxy/apis/config/validation/validation.go (the
// Unsupported value error), component-base/cli/run.go ("command failed" err=...).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { ConsoleSession } from '../kubectl/console';
import { networkModel } from '../observe/network';
import { createCluster, loadScenario, ScenarioError } from '../scenario';
import { kubeProxyOf } from './kubeproxy';

const scenario = readFileSync(
  new URL('../../../../scenarios/kube-proxy-systemd.yaml', import.meta.url),
  'utf8'
);

const lab = () => {
  const cluster = createCluster(scenario, { fileName: 'kube-proxy-systemd.yaml' }).cluster;
  cluster.runUntil(60_000);
  return { cluster, sh: new ConsoleSession(cluster, {}) };
};
const programmed = (c: Cluster, node: string) => kubeProxyOf(c, node)!.state.programmedMode;

describe('kube-proxy as a host service', () => {
  it('runs on every node without a DaemonSet or ConfigMap in kube-system', () => {
    const { cluster, sh } = lab();
    expect(cluster.api.tryGet('DaemonSet', 'kube-system', 'kube-proxy')).toBeUndefined();
    expect(cluster.api.tryGet('ConfigMap', 'kube-system', 'kube-proxy')).toBeUndefined();
    expect(sh.exec('kubectl -n kube-system get pods -l k8s-app=kube-proxy')).toMatchObject({
      stdout: '',
      stderr: 'No resources found in kube-system namespace.\n'
    });
    expect([programmed(cluster, 'worker-1'), programmed(cluster, 'worker-2')]).toEqual([
      'iptables',
      'iptables'
    ]);
    sh.exec('ssh worker-1');
    const conf = sh.exec('cat /var/lib/kube-proxy/config.conf').stdout;
    expect(conf).toContain('apiVersion: kubeproxy.config.k8s.io/v1alpha1\n');
    expect(conf).toContain('kind: KubeProxyConfiguration\n');
    expect(conf).toContain('clusterCIDR: 10.244.0.0/16\n');
    expect(conf).toContain('\nmode: iptables\n');
    expect(sh.exec('cat /etc/systemd/system/kube-proxy.service').stdout).toContain(
      'ExecStart=/usr/local/bin/kube-proxy --config=/var/lib/kube-proxy/config.conf\nRestart=on-failure\nRestartSec=5\n'
    );
    const status = sh.exec('systemctl status kube-proxy');
    expect(status.exitCode).toBe(0);
    const lines = status.stdout.split('\n');
    expect(lines[0]).toBe('● kube-proxy.service - Kubernetes Kube Proxy');
    expect(lines[1]).toBe(
      '     Loaded: loaded (/etc/systemd/system/kube-proxy.service; enabled; preset: enabled)'
    );
    expect(lines[2]).toMatch(/^ {5}Active: active \(running\) since Thu 2026-01-01 00:00:00 UTC; 59s ago$/);
    expect(status.stdout).toMatch(
      /\n {13}└─\d+ \/usr\/local\/bin\/kube-proxy --config=\/var\/lib\/kube-proxy\/config\.conf\n/
    );
    expect(status.stdout).toMatch(
      /worker-1 kube-proxy\[\d+\]: I0101 00:00:00\.100000 +\d+ server_linux\.go:231\] "Using iptables Proxier"\n/
    );
  });

  it('sed -i on config.conf and systemctl restart switch that node, and only that node', () => {
    const { cluster, sh } = lab();
    sh.exec('ssh worker-1');
    expect(sh.exec(`sudo sed -i 's/mode: .*/mode: "ipvs"/' /var/lib/kube-proxy/config.conf`)).toMatchObject({
      stderr: '',
      exitCode: 0
    });
    expect(sh.exec('cat /var/lib/kube-proxy/config.conf | grep mode:').stdout).toBe('mode: "ipvs"\n');
    // Read only at start: the running process keeps its mode until the unit restarts.
    cluster.runUntil(62_000);
    expect(programmed(cluster, 'worker-1')).toBe('iptables');
    expect(sh.exec('sudo systemctl restart kube-proxy')).toMatchObject({ stderr: '', exitCode: 0 });
    cluster.runUntil(63_000);
    expect(programmed(cluster, 'worker-1')).toBe('ipvs');
    expect(programmed(cluster, 'worker-2')).toBe('iptables');
    const journal = sh.exec('journalctl -u kube-proxy -n 8').stdout.split('\n');
    expect(journal.slice(0, 4).map((l) => l.replace(/^Jan 01 00:01:02 worker-1 /, ''))).toEqual([
      'systemd[1]: Stopping kube-proxy.service - Kubernetes Kube Proxy...',
      'systemd[1]: kube-proxy.service: Deactivated successfully.',
      'systemd[1]: Stopped kube-proxy.service - Kubernetes Kube Proxy.',
      'systemd[1]: Started kube-proxy.service - Kubernetes Kube Proxy.'
    ]);
    expect(journal[5]).toMatch(
      /kube-proxy\[\d+\]: I0101 00:01:02\.000000 +\d+ server_linux\.go:231\] "Using ipvs Proxier"$/
    );
    expect(sh.exec('sudo ipvsadm -Ln').stdout).toContain('TCP  10.96.0.1:443 rr\n');
    // The network view shows each node's mode and the switch.
    const net = networkModel(cluster, { node: 'worker-1' });
    expect(net.mode).toBe('ipvs');
    expect(net.proxyModes).toEqual([
      // control-plane-1 is a Node too, with its own unit and config.conf.
      { node: 'control-plane-1', mode: 'iptables', running: true },
      { node: 'worker-1', mode: 'ipvs', running: true },
      { node: 'worker-2', mode: 'iptables', running: true }
    ]);
    expect(net.modeChanges).toEqual([{ t: 62_000, node: 'worker-1', from: 'iptables', to: 'ipvs' }]);
    // journalctl without -u on the node includes the unit too.
    expect(sh.exec('journalctl -n 3').stdout).toContain('"Starting endpoint slice config controller"');
  });

  it('a mode kube-proxy refuses: the unit fails and systemd restarts it every 5 s until the file is fixed', () => {
    const { cluster, sh } = lab();
    sh.exec('ssh worker-1');
    sh.exec(`sudo sed -i 's/mode: .*/mode: "ipvsx"/' /var/lib/kube-proxy/config.conf`);
    sh.exec('sudo systemctl restart kube-proxy');
    const status = sh.exec('systemctl status kube-proxy');
    expect(status.exitCode).toBe(3);
    expect(status.stdout).toContain(
      '     Active: activating (auto-restart) (Result: exit-code) since Thu 2026-01-01 00:01:00 UTC; now\n'
    );
    expect(status.stdout).toContain(
      'run.go:72] "command failed" err="KubeProxyConfiguration.mode: Unsupported value: \\"ipvsx\\": supported values: \\"iptables\\", \\"ipvs\\", \\"nftables\\""\n'
    );
    expect(status.stdout).toContain("systemd[1]: kube-proxy.service: Failed with result 'exit-code'.\n");
    expect(sh.exec('systemctl is-active kube-proxy')).toMatchObject({ stdout: 'activating\n', exitCode: 3 });
    cluster.runUntil(65_000);
    expect(sh.exec('journalctl -u kube-proxy -n 20').stdout).toContain(
      'Jan 01 00:01:05 worker-1 systemd[1]: kube-proxy.service: Scheduled restart job, restart counter is at 1.\n'
    );
    sh.exec(`sudo sed -i 's/mode: .*/mode: "nftables"/' /var/lib/kube-proxy/config.conf`);
    cluster.runUntil(71_000);
    expect(sh.exec('systemctl is-active kube-proxy').stdout).toBe('active\n');
    expect(programmed(cluster, 'worker-1')).toBe('nftables');
    expect(sh.exec('journalctl -u kube-proxy -n 20').stdout).toContain(
      'Jan 01 00:01:10 worker-1 systemd[1]: kube-proxy.service: Scheduled restart job, restart counter is at 2.\n'
    );
  });

  it('systemctl stop leaves the rules as they were; start does a full sync; a login that is not root is refused', () => {
    const { cluster, sh } = lab();
    sh.exec('ssh worker-2');
    expect(sh.exec('sudo systemctl stop kube-proxy').exitCode).toBe(0);
    const stopped = sh.exec('systemctl status kube-proxy');
    expect(stopped.exitCode).toBe(3);
    expect(stopped.stdout.split('\n')[0]).toBe('○ kube-proxy.service - Kubernetes Kube Proxy');
    expect(stopped.stdout).toContain('     Active: inactive (dead) since Thu 2026-01-01 00:01:00 UTC; now\n');
    expect(stopped.stdout).toContain('   Duration: 59.9s\n');
    expect(kubeProxyOf(cluster, 'worker-2')!.state.stopped).toBe(true);
    expect(networkModel(cluster, { node: 'worker-2' }).proxyModes.find((m) => m.node === 'worker-2')).toEqual(
      {
        node: 'worker-2',
        mode: 'iptables',
        running: false
      }
    );
    sh.exec('sudo systemctl start kube-proxy');
    expect(sh.exec('systemctl is-active kube-proxy').stdout).toBe('active\n');
    sh.exec('exit');
    sh.exec('ssh alice@worker-2');
    expect(sh.exec(`sed -i 's/mode: .*/mode: "ipvs"/' /var/lib/kube-proxy/config.conf`)).toMatchObject({
      stderr: "sed: couldn't open temporary file /var/lib/kube-proxy/sedz4Qk1R: Permission denied\n",
      exitCode: 4
    });
    expect(sh.exec('systemctl restart kube-proxy').stderr).toBe(
      "Failed to restart kube-proxy.service: Interactive authentication required.\nSee system logs and 'systemctl status kube-proxy.service' for details.\n"
    );
  });

  it('the fault menu switch writes the node file too; time travel keeps the file', () => {
    const { cluster, sh } = lab();
    cluster.applyFault('SetProxyMode', { target: 'all', mode: 'nftables' });
    cluster.runUntil(62_000);
    expect([programmed(cluster, 'worker-1'), programmed(cluster, 'worker-2')]).toEqual([
      'nftables',
      'nftables'
    ]);
    expect(sh.exec('ssh worker-2 cat /var/lib/kube-proxy/config.conf').stdout).toContain(
      '\nmode: "nftables"\n'
    );
    const again = Cluster.restore(JSON.parse(JSON.stringify(cluster.snapshot())));
    expect(kubeProxyOf(again, 'worker-2')!.state.host!.config).toContain('\nmode: "nftables"\n');
    again.runUntil(70_000);
    expect(programmed(again, 'worker-1')).toBe('nftables');
  });

  it('a kubeadm cluster (the default) still has no kube-proxy unit', () => {
    const three = readFileSync(new URL('../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');
    const cluster = createCluster(three, { fileName: 'three-nodes.yaml' }).cluster;
    cluster.runUntil(30_000);
    const sh = new ConsoleSession(cluster, {});
    expect(sh.exec('ssh worker-1 systemctl status kube-proxy')).toMatchObject({
      stderr: 'Unit kube-proxy.service could not be found.\n',
      exitCode: 4
    });
    expect(cluster.api.tryGet('DaemonSet', 'kube-system', 'kube-proxy')).toBeDefined();
  });

  it('an unknown deployment is refused, naming the field', () => {
    const bad = scenario.replace('deployment: systemd', 'deployment: static-pod');
    let issues: ScenarioError['issues'] = [];
    try {
      loadScenario(bad, 'bad.yaml');
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      issues = e.issues;
    }
    expect(issues.map((i) => i.path)).toContain('spec.network.kubeProxy.deployment');
  });
});

describe('help on a node with the kube-proxy unit', () => {
  it('names the unit and the file instead of the ConfigMap, in both languages', () => {
    const { sh } = lab();
    sh.exec('ssh worker-1');
    const en = sh.exec('help').stdout;
    expect(en).toContain('  systemctl status|stop|start|restart kubelet|containerd|crio|kube-proxy\n');
    expect(en).toContain(`sudo sed -i 's/mode: .*/mode: "ipvs"/' /var/lib/kube-proxy/config.conf, then\n`);
    expect(en).not.toContain('edit configmap kube-proxy');
    const ru = new ConsoleSession(lab().cluster, { lang: () => 'ru' });
    ru.exec('ssh worker-1');
    expect(ru.exec('help').stdout).toContain('kube-proxy работает на этом узле как unit systemd');
  });
});
