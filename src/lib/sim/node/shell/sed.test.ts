// GNU sed's s command and its messages (sed/compile.c: "unterminated `s' command", "unknown
// option to `s'", "unknown command: `x'", "multiple `g' options to `s' command", "number option
// to `s' command may not be zero"; sed/execute.c: "can't read F: No such file or directory",
// "couldn't open temporary file …: Permission denied"), and kube-proxy reading the file it is
// started with (cmd/kube-proxy/app/server.go: --config is read once, at start).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConsoleSession } from '../../kubectl/console';
import { kubeProxyOf } from '../../network/kubeproxy';
import { createCluster } from '../../scenario/bootstrap';
import { parseSed, runSed, type SedProgram } from './sed';

const sed = (args: string[], text: string) => runSed(parseSed(args) as SedProgram, text);

describe('sed s///', () => {
  it('replaces the first match per line, g every one, N the Nth, Ng from the Nth on', () => {
    const text = 'a a a\nb a\n';
    expect(sed(['s/a/X/'], text)).toBe('X a a\nb X\n');
    expect(sed(['s/a/X/g'], text)).toBe('X X X\nb X\n');
    expect(sed(['s/a/X/2'], text)).toBe('a X a\nb a\n');
    expect(sed(['s/a/X/2g'], text)).toBe('a X X\nb a\n');
  });

  it('I matches case-insensitively; & and \\1 in the replacement; any delimiter', () => {
    expect(sed(['s/MODE/[&]/I'], 'mode: iptables\n')).toBe('[mode]: iptables\n');
    expect(sed(['s|\\(mode\\): \\(.*\\)|\\2 \\1|'], 'mode: iptables\n')).toBe('iptables mode\n');
    expect(sed(['-E', 's#(m[a-z]+)#<\\1>#'], 'mode: x\n')).toBe('<mode>: x\n');
    expect(sed(['s/a\\/b/c/'], 'a/b\n')).toBe('c\n');
  });

  it('basic regular expressions: ( ) + ? | are literal unless escaped', () => {
    expect(sed(['s/a+/X/'], 'aa a+\n')).toBe('aa X\n');
    expect(sed(['s/a\\+/X/'], 'aa a+\n')).toBe('X a+\n');
    expect(sed(['s/(x)/y/'], '(x)\n')).toBe('y\n');
  });

  it('several commands with ; or -e; -n with p prints only the changed lines', () => {
    expect(sed(['s/a/b/;s/b/c/'], 'a\n')).toBe('c\n');
    expect(sed(['-e', 's/a/b/', '-e', 's/x/y/'], 'a x\n')).toBe('b y\n');
    expect(sed(['-n', 's/a/b/p'], 'a\nz\n')).toBe('b\n');
    expect(sed(['s/a/b/'], 'a')).toBe('b');
  });

  it("refuses bad scripts with GNU sed's messages", () => {
    expect(parseSed(['s/a/b'])).toBe("sed: -e expression #1, char 5: unterminated `s' command\n");
    expect(parseSed(['s/a/b/x', 'f'])).toBe("sed: -e expression #1, char 7: unknown option to `s'\n");
    expect(parseSed(['x/a/b/', 'f'])).toBe("sed: -e expression #1, char 1: unknown command: `x'\n");
    expect(parseSed(['s/a/b/gg', 'f'])).toBe(
      "sed: -e expression #1, char 8: multiple `g' options to `s' command\n"
    );
    expect(parseSed(['s/a/b/0', 'f'])).toBe(
      "sed: -e expression #1, char 7: number option to `s' command may not be zero\n"
    );
    expect(parseSed(['-i', 's/a/b/'])).toBe('sed: no input files\n');
    expect(parseSed(['-Q', 's/a/b/', 'f'])).toMatch(/^sed: invalid option -- 'Q'\nUsage: sed \[OPTION\]/);
    expect(parseSed([])).toMatch(/^Usage: sed \[OPTION\]\.\.\. \{script-only-if-no-other-script\}/);
  });
});

const scenario = readFileSync(new URL('../../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');

describe('kube-proxy’s config.conf on a kubeadm node', () => {
  const lab = () => {
    const cluster = createCluster(scenario, { fileName: 'three-nodes.yaml' }).cluster;
    cluster.runUntil(30_000);
    return { cluster, sh: new ConsoleSession(cluster, {}) };
  };
  const modes = (c: ReturnType<typeof lab>['cluster']) =>
    ['worker-1', 'worker-2', 'worker-3'].map((n) => kubeProxyOf(c, n)!.state.programmedMode);

  it('sed without -i prints the edit and changes nothing', () => {
    const { cluster, sh } = lab();
    sh.exec('ssh worker-2');
    expect(sh.exec('cat /var/lib/kube-proxy/config.conf | grep mode:').stdout).toBe('mode: iptables\n');
    const printed = sh.exec("sed 's/mode: iptables/mode: nftables/' /var/lib/kube-proxy/config.conf");
    expect(printed.stdout).toContain('\nmode: nftables\n');
    expect(sh.exec('cat /var/lib/kube-proxy/config.conf | grep mode:').stdout).toBe('mode: iptables\n');
    cluster.runUntil(35_000);
    expect(modes(cluster)).toEqual(['iptables', 'iptables', 'iptables']);
  });

  it('sed -i is refused: the file is the kube-proxy ConfigMap as its pod mounts it (kubeadm)', () => {
    // upstream: cmd/kubeadm/app/phases/addons/proxy/manifests.go (ConfigMap kube-proxy mounted at
    // /var/lib/kube-proxy, kube-proxy started with --config=/var/lib/kube-proxy/config.conf)
    const { cluster, sh } = lab();
    sh.exec('ssh worker-1');
    expect(
      sh.exec("sudo sed -i 's/mode: iptables/mode: ipvs/' /var/lib/kube-proxy/config.conf")
    ).toMatchObject({
      stdout: '',
      stderr:
        "sed: /var/lib/kube-proxy/config.conf: kube-proxy runs in the kube-proxy DaemonSet's pod and reads this file from the kube-system/kube-proxy ConfigMap; edit it with kubectl -n kube-system edit configmap kube-proxy\n",
      exitCode: 4
    });
    expect(sh.exec('cat /var/lib/kube-proxy/config.conf | grep mode:').stdout).toBe('mode: iptables\n');
    expect(sh.exec('sudo systemctl restart kube-proxy').stderr).toContain('kube-proxy.service');
    cluster.runUntil(40_000);
    expect(modes(cluster)).toEqual(['iptables', 'iptables', 'iptables']);
  });

  it('a user without sudo, a missing file, and files the lab does not model are refused with sed’s words', () => {
    const { sh } = lab();
    sh.exec('ssh ops@worker-3');
    expect(sh.exec("sed -i 's/iptables/ipvs/' /var/lib/kube-proxy/config.conf")).toMatchObject({
      stderr: "sed: couldn't open temporary file /var/lib/kube-proxy/sedz4Qk1R: Permission denied\n",
      exitCode: 4
    });
    expect(sh.exec("sudo sed -i 's/a/b/' /etc/nope.conf")).toMatchObject({
      stderr: "sed: can't read /etc/nope.conf: No such file or directory\n",
      exitCode: 2
    });
    expect(sh.exec("sudo sed -i 's/maxPods: 110/maxPods: 20/' /var/lib/kubelet/config.yaml")).toMatchObject({
      stderr: 'sed: /var/lib/kubelet/config.yaml: editing this file is not modelled in the lab\n',
      exitCode: 4
    });
    expect(sh.exec('sudo vi /var/lib/kube-proxy/config.conf').stderr).toBe(
      "vi: no terminal editor in this console; kubectl edit opens an object in the lab's editor\n"
    );
  });

  it('the fault menu switch is the ConfigMap edit: the mounted file follows it', () => {
    const { cluster, sh } = lab();
    sh.exec('ssh worker-1');
    cluster.applyFault('SetProxyMode', { target: 'worker-1', mode: 'nftables' });
    cluster.runUntil(33_000);
    expect(modes(cluster)[0]).toBe('nftables');
    expect(sh.exec('cat /var/lib/kube-proxy/config.conf | grep mode:').stdout).toBe('mode: nftables\n');
  });
});
