/**
 * ssh as the OpenSSH client parses its command line (upstream: openssh-portable ssh.c, main():
 * getopt before and again after the destination, the rest joined as the remote command) and the
 * node's sudo and login prompts (bash's default PS1 `\u@\h:\w\$`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../scenario';
import { ConsoleSession } from '../../kubectl/console';
import { parseSsh, SSH_USAGE } from './ssh';

function lab() {
  const { cluster } = createCluster(readFileSync('scenarios/three-nodes.yaml', 'utf8'), {
    fileName: 'three-nodes.yaml'
  });
  cluster.runUntil(10_000);
  return { cluster, con: new ConsoleSession(cluster) };
}

describe('parseSsh', () => {
  it('takes the first word after the options as the destination and the rest as the command', () => {
    expect(parseSsh(['worker-1', 'crictl', 'ps'])).toEqual({
      ok: true,
      cmd: { host: 'worker-1', user: undefined, tty: false, command: 'crictl ps' }
    });
    expect(parseSsh(['user@worker-1', '--', 'journalctl', '-u', 'kubelet', '-n', '20'])).toEqual({
      ok: true,
      cmd: { host: 'worker-1', user: 'user', tty: false, command: 'journalctl -u kubelet -n 20' }
    });
    expect(parseSsh(['-l', 'user', 'worker-1', 'hostname'])).toEqual({
      ok: true,
      cmd: { host: 'worker-1', user: 'user', tty: false, command: 'hostname' }
    });
    // Options after the destination are ssh's until the first word that is not one.
    expect(
      parseSsh(['-t', '-o', 'StrictHostKeyChecking=no', 'worker-1', '-p', '22', '-i', 'id', 'df', '-h'])
    ).toEqual({
      ok: true,
      cmd: { host: 'worker-1', user: undefined, tty: true, command: 'df -h' }
    });
    expect(parseSsh(['-p2222', 'ssh://root@worker-2:22'])).toEqual({
      ok: true,
      cmd: { host: 'worker-2', user: 'root', tty: false, command: undefined }
    });
  });

  it('refuses unknown options and a missing destination with the usage', () => {
    expect(parseSsh(['-z', 'worker-1'])).toEqual({ ok: false, stderr: 'unknown option -- z\n' + SSH_USAGE });
    expect(parseSsh(['-p'])).toEqual({ ok: false, stderr: 'option requires an argument -- p\n' + SSH_USAGE });
    expect(parseSsh([])).toEqual({ ok: false, stderr: SSH_USAGE });
  });
});

describe('ssh in the console', () => {
  it('runs a one-shot command on the node and stays on the workstation', () => {
    const { cluster, con } = lab();
    const r = con.exec('ssh worker-1 sudo systemctl stop kubelet');
    expect(r).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    expect(con.prompt).toBe('$ ');
    expect(cluster.faultLog.at(-1)).toMatchObject({ action: 'StopKubelet', target: 'worker-1' });
    expect(con.exec('ssh worker-1 systemctl is-active kubelet')).toMatchObject({
      stdout: 'inactive\n',
      exitCode: 3
    });
    expect(con.exec('ssh worker-1 hostname | grep -c worker')).toMatchObject({ stdout: '1\n', exitCode: 0 });
    expect(con.exec('ssh user@worker-1 -- whoami').stdout).toBe('user\n');
  });

  it('-t says the connection closed, as OpenSSH does after a terminal session', () => {
    const { con } = lab();
    expect(con.exec('ssh -t worker-2 hostname')).toEqual({
      stdout: 'worker-2\n',
      stderr: 'Connection to worker-2 closed.\n',
      exitCode: 0
    });
  });

  it('an unknown host is not resolved (exit 255)', () => {
    const { con } = lab();
    expect(con.exec('ssh foo')).toEqual({
      stdout: '',
      stderr: 'ssh: Could not resolve hostname foo: Name or service not known\n',
      exitCode: 255
    });
    expect(con.exec('ssh foo crictl ps').exitCode).toBe(255);
    expect(con.exec('ssh -z worker-1').stderr.split('\n').slice(0, 2)).toEqual([
      'unknown option -- z',
      'usage: ssh [-46AaCfGgKkMNnqsTtVvXxYy] [-B bind_interface] [-b bind_address]'
    ]);
  });

  it('prompts: root@node:~# for root, user@node:~$ for a user, root again after sudo -i', () => {
    const { con } = lab();
    con.exec('ssh user@worker-1');
    expect(con.prompt).toBe('user@worker-1:~$ ');
    expect(con.exec('whoami').stdout).toBe('user\n');
    expect(con.exec('systemctl stop kubelet')).toEqual({
      stdout: '',
      stderr:
        "Failed to stop kubelet.service: Interactive authentication required.\nSee system logs and 'systemctl status kubelet.service' for details.\n",
      exitCode: 1
    });
    con.exec('sudo -i');
    expect(con.prompt).toBe('root@worker-1:~# ');
    expect(con.exec('pwd').stdout).toBe('/root\n');
    expect(con.exec('exit').stdout).toBe('logout\n');
    expect(con.prompt).toBe('user@worker-1:~$ ');
    expect(con.exec('exit').stdout).toBe('logout\nConnection to worker-1 closed.\n');
    expect(con.prompt).toBe('$ ');
    con.exec('ssh worker-3');
    expect(con.prompt).toBe('root@worker-3:~# ');
  });

  it('the fault panel commands change the node as the buttons do', () => {
    const { cluster, con } = lab();
    con.exec('ssh worker-1 sudo ip link set eth0 down');
    expect(cluster.partitioned.has('worker-1')).toBe(true);
    con.exec('ssh worker-1 sudo ip link set eth0 up');
    expect(cluster.partitioned.has('worker-1')).toBe(false);
    con.exec('ssh worker-1 sudo mv /etc/cni/net.d/10-calico.conflist /root/');
    expect(con.exec('ssh worker-1 ls /etc/cni/net.d').stdout).toBe('');
    con.exec('ssh worker-1 sudo mv /root/10-calico.conflist /etc/cni/net.d/');
    expect(con.exec('ssh worker-1 ls /etc/cni/net.d').stdout).toBe('10-calico.conflist  calico-kubeconfig\n');
    con.exec('ssh worker-2 sudo fallocate -l 100G /var/lib/fill.img');
    expect(con.exec('ssh worker-2 ls /var/lib').stdout).toBe('fill.img  kube-proxy  kubelet\n');
    expect(cluster.faultLog.map((f) => `${f.action} ${f.target}`)).toEqual([
      'PartitionNode worker-1',
      'HealNode worker-1',
      'RemoveCNI worker-1',
      'InstallCNI worker-1',
      'FillDisk worker-2'
    ]);
    expect(con.exec('ssh user@worker-2 rm /var/lib/fill.img').stderr).toBe(
      "rm: cannot remove '/var/lib/fill.img': Permission denied\n"
    );
  });

  it('sudo without a command prints its usage', () => {
    const { con } = lab();
    const r = con.exec('ssh worker-1 sudo');
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('usage: sudo -h | -K | -k | -V');
  });

  it('completes paths of the node files and commands after sudo', () => {
    const { con } = lab();
    con.exec('ssh worker-1');
    expect(con.complete('cat /var/lib/ku')).toEqual(['/var/lib/kube-proxy/', '/var/lib/kubelet/']);
    expect(con.complete('less /var/lib/kubelet/')).toEqual(['/var/lib/kubelet/config.yaml']);
    expect(con.complete('sudo systemc')).toEqual(['systemctl']);
  });
});
