import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster';
import { ConsoleSession } from './console';
import { goldenCluster } from './testing/goldenCluster';

describe('ConsoleSession', () => {
  const cluster = goldenCluster();

  it('keeps history and prints it like bash', () => {
    const s = new ConsoleSession(cluster);
    s.exec('kubectl get nodes');
    s.exec('   ');
    s.exec('help');
    expect(s.history).toEqual(['kubectl get nodes', 'help']);
    expect(s.exec('history').stdout).toBe('    1  kubectl get nodes\n    2  help\n    3  history\n');
  });

  it('answers unknown commands like bash and quoting errors like bash', () => {
    const s = new ConsoleSession(cluster);
    expect(s.exec('foo')).toEqual({ stdout: '', stderr: 'bash: foo: command not found\n', exitCode: 127 });
    expect(s.exec('kubectl get pods -l "app=web').stderr).toBe(
      'bash: unexpected EOF while looking for matching `"\'\n'
    );
  });

  it('help lists the commands and says auth can-i always answers yes', () => {
    const out = new ConsoleSession(cluster).exec('help').stdout;
    expect(out).toContain('ssh <node>');
    expect(out).toContain('kubectl auth can-i always answers yes: Nodeplane simulates no RBAC.');
    for (const verb of [
      'get',
      'describe',
      'apply',
      'drain',
      'taint',
      'rollout',
      'top',
      'logs',
      'explain',
      'api-resources'
    ]) {
      expect(out).toMatch(new RegExp(`\\n  ${verb} `));
    }
  });

  it("help speaks the learner's language; the tools' own words and kubectl's help stay as they print", () => {
    const ru = new ConsoleSession(cluster, { lang: () => 'ru' });
    const out = ru.exec('help').stdout;
    expect(out.startsWith('Консоль Nodeplane. Команды:\n')).toBe(true);
    expect(out).toContain(
      '  ssh <узел> <команда>    выполнить одну команду на узле и вернуться (ssh worker-1 crictl ps)'
    );
    expect(out).toContain('kubectl auth can-i всегда отвечает yes: RBAC в Nodeplane не моделируется.');
    // kubectl's help is kubectl's: English, as the real binary prints it.
    expect(out).toContain('kubectl controls the simulated Kubernetes cluster.');
    expect(out).not.toContain('Nodeplane console. Commands:');
    // In a node shell and through one-shot ssh, `help` lists the node's tools in the same language.
    expect(ru.exec('ssh worker-1 help').stdout.startsWith('Команды на узле:\n')).toBe(true);
    ru.exec('ssh worker-1');
    const node = ru.exec('help').stdout;
    expect(node).toContain('  systemctl status|stop|start|restart kubelet|containerd|crio\n');
    expect(node).toContain('  clear | history | exit (выйти с узла)\n');
    expect(
      new ConsoleSession(cluster).exec('ssh worker-1 help').stdout.startsWith('Commands on the node:\n')
    ).toBe(true);
  });

  it('clear asks the UI to clear the screen', () => {
    expect(new ConsoleSession(cluster).exec('clear').action).toEqual({ type: 'clear' });
  });

  it('pipes through grep, head, tail and wc -l', () => {
    const s = new ConsoleSession(cluster);
    expect(s.exec('kubectl get nodes | grep NotReady').stdout).toBe(
      'worker-2   NotReady                   <none>          5m50s   v1.35.0\n'
    );
    expect(s.exec('kubectl get pods -A | wc -l').stdout).toBe('15\n');
    expect(s.exec('kubectl get nodes --no-headers | head -n 1').stdout).toBe(
      'cp-1       Ready                      control-plane   5m50s   v1.35.0\n'
    );
    expect(s.exec('kubectl get nodes | tail -1').stdout).toBe(
      'worker-3   Ready,SchedulingDisabled   <none>          5m50s   v1.35.0\n'
    );
    expect(s.exec('kubectl get nodes --no-headers | grep -v Ready').exitCode).toBe(1);
  });

  it('lessons can refuse commands', () => {
    const s = new ConsoleSession(cluster, {
      disabled: (argv) =>
        argv[0] === 'kubectl' && argv[1] === 'delete' ? 'This lesson disables kubectl delete.' : undefined
    });
    expect(s.exec('kubectl delete pod big-batch')).toEqual({
      stdout: '',
      stderr: 'This lesson disables kubectl delete.\n',
      exitCode: 1
    });
  });

  it('Ctrl-C stops the running watch', () => {
    const c = new Cluster();
    const s = new ConsoleSession(c);
    const r = s.exec('kubectl get pods -w');
    expect(r.watch).toBeDefined();
    expect(s.interrupt()).toBe(true);
    expect(s.interrupt()).toBe(false);
    c.api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'x' },
      spec: { containers: [{ name: 'c', image: 'i' }] }
    });
    expect(r.watch!.poll()).toBe('');
  });

  it('Tab completes commands, verbs, resource types, object names and nodes', () => {
    const s = new ConsoleSession(cluster);
    expect(s.complete('kub')).toEqual(['kubectl']);
    expect(s.complete('kubectl de')).toEqual(['delete', 'describe']);
    expect(s.complete('kubectl get dep')).toEqual(['deploy', 'deployment', 'deployments']);
    expect(s.complete('kubectl describe node work')).toEqual(['worker-1', 'worker-2', 'worker-3']);
    expect(s.complete('kubectl get pod web-7c5ddbdf54-2')).toEqual(['web-7c5ddbdf54-2xkqp']);
    expect(s.complete('kubectl get pods -n kube-sys')).toEqual(['kube-system']);
    expect(s.complete('kubectl logs -n kube-system kube-proxy-7')).toEqual(['kube-proxy-7k2xq']);
    expect(s.complete('kubectl describe no/cp')).toEqual(['no/cp-1']);
    expect(s.complete('kubectl drain w')).toEqual(['worker-1', 'worker-2', 'worker-3']);
    expect(s.complete('ssh c')).toEqual(['cp-1']);
    s.exec('ssh worker-1');
    expect(s.complete('sys')).toEqual(['systemctl']);
    expect(s.complete('systemctl st')).toEqual(['start', 'status', 'stop']);
    expect(s.complete('systemctl stop ku')).toEqual(['kubelet']);
  });
});
