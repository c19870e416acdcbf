import { readFileSync } from 'node:fs';
import { createCluster } from '../../scenario';
import { describe, expect, it } from 'vitest';
import { Cluster, addTestComponent, addTestFault } from '../../cluster';
import type { KubeObject } from '../../api/types';
import type { CriContainer, JournalEntry, NodeHostView } from '../cri';
import type { NodeHost } from '../host';
import { setTestDataplane } from '../../network/dataplane';
import { ConsoleSession } from '../../kubectl/console';

const GIB = 2 ** 30;

/** A host view as the node module exposes it, with state the test controls. */
function fakeHost(node: string) {
  const state = {
    kubeletRunning: true,
    runtimeRunning: true,
    kubeletSince: 5_000,
    journal: [] as JournalEntry[],
    containers: [] as CriContainer[]
  };
  const view: NodeHostView = {
    nodeName: node,
    runtimeName: 'containerd',
    runtimeVersion: '2.1.4',
    get runtimeRunning() {
      return state.runtimeRunning;
    },
    get kubeletRunning() {
      return state.kubeletRunning;
    },
    cniConfig: {},
    images: () => [
      {
        repository: 'registry.k8s.io/pause',
        tag: '3.10',
        id: '873ed75102791e5b0b8a7fcd41606c92fcec98d56d05ead4ac5131650004c136',
        sizeBytes: 320_368
      },
      {
        repository: 'docker.io/library/nginx',
        tag: '1.27',
        id: '9bea9f2796e236cb18c2b3ad561ff29f655d1001f9ec7247a0bc5e08d25652a1',
        sizeBytes: 72_225_394
      }
    ],
    sandboxes: () => [
      {
        id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
        podName: 'web',
        podNamespace: 'default',
        podUid: 'uid-web',
        state: 'SANDBOX_READY',
        createdAt: 30_000,
        attempt: 0,
        ip: '10.244.1.5'
      }
    ],
    containers: () => state.containers,
    journal: (unit) => state.journal.filter((e) => e.unit === unit),
    memory: () => ({ total: 4 * GIB, used: GIB, available: 3 * GIB }),
    disk: () => ({ total: 50 * GIB, used: 12 * GIB, available: 38 * GIB, imagefsUsed: 72_545_762 }),
    pid: (unit) => (unit === 'kubelet' ? 1042 : unit === 'containerd' ? 871 : undefined),
    unitSince: (unit) => (unit === 'kubelet' ? state.kubeletSince : 2_000)
  };
  return { state, view };
}

const hosts = new Map<string, ReturnType<typeof fakeHost>>();
addTestComponent('shell-test-kubelet', (c, args: { node: string }) => {
  const h = fakeHost(args.node);
  hosts.set(args.node, h);
  // The shell reads the machine through its NodeHostView side: a view with a name stands in for it.
  c.addNodeHost(Object.assign(h.view, { name: args.node }) as unknown as NodeHost);
  return {
    id: `kubelet/${args.node}`,
    kind: 'shell-test-kubelet',
    args,
    handle() {},
    start() {},
    getState: () => ({}),
    setState() {}
  };
});
addTestFault('StopKubelet', 'test', (c, p) => {
  const h = hosts.get(p.target!)!;
  h.state.kubeletRunning = false;
  h.state.kubeletSince = c.engine.now;
});
addTestFault('StartKubelet', 'test', (c, p) => {
  const h = hosts.get(p.target!)!;
  h.state.kubeletRunning = true;
  h.state.kubeletSince = c.engine.now;
});

function setup() {
  const cluster = new Cluster();
  cluster.api.create<KubeObject>({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'worker-1' },
    spec: {},
    status: {
      addresses: [{ type: 'InternalIP', address: '10.0.0.11' }],
      capacity: { memory: '4Gi' },
      allocatable: { cpu: '2', memory: '4Gi' }
    }
  });
  cluster.addComponent('shell-test-kubelet', { node: 'worker-1' });
  const session = new ConsoleSession(cluster);
  session.exec('ssh worker-1');
  return { cluster, session, host: hosts.get('worker-1')!, run: (l: string) => session.exec(l) };
}

describe('ssh into a node', () => {
  it('changes the prompt and exit leaves', () => {
    const { session, run } = setup();
    expect(session.prompt).toBe('root@worker-1:~# ');
    expect(run('hostname').stdout).toBe('worker-1\n');
    expect(run('foo --bar')).toEqual({ stdout: '', stderr: 'bash: foo: command not found\n', exitCode: 127 });
    expect(run('exit').stdout).toBe('logout\nConnection to worker-1 closed.\n');
    expect(session.prompt).toBe('$ ');
    expect(run('ssh nope')).toEqual({
      stdout: '',
      stderr: 'ssh: Could not resolve hostname nope: Name or service not known\n',
      exitCode: 255
    });
  });
});

describe('systemctl and journalctl', () => {
  it('status of a running kubelet', () => {
    const { cluster, run } = setup();
    cluster.advance(300_000);
    const r = run('systemctl status kubelet');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      '● kubelet.service - kubelet: The Kubernetes Node Agent\n' +
        '     Loaded: loaded (/usr/lib/systemd/system/kubelet.service; enabled; preset: enabled)\n' +
        '    Drop-In: /usr/lib/systemd/system/kubelet.service.d\n' +
        '             └─10-kubeadm.conf\n' +
        '     Active: active (running) since Thu 2026-01-01 00:00:05 UTC; 4min 55s ago\n' +
        '       Docs: https://kubernetes.io/docs/\n' +
        '   Main PID: 1042 (kubelet)\n' +
        '      Tasks: 14\n' +
        '     CGroup: /system.slice/kubelet.service\n' +
        '             └─1042 /usr/bin/kubelet --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf --config=/var/lib/kubelet/config.yaml\n'
    );
  });
  it('stop applies the StopKubelet fault; status then reports inactive with exit code 3', () => {
    const { cluster, run } = setup();
    cluster.advance(60_000);
    expect(run('systemctl stop kubelet')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(cluster.faultLog).toEqual([{ t: 60_000, action: 'StopKubelet', target: 'worker-1' }]);
    cluster.advance(14_000);
    const r = run('systemctl status kubelet');
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toContain('○ kubelet.service - kubelet: The Kubernetes Node Agent\n');
    expect(r.stdout).toContain(
      '     Active: inactive (dead) since Thu 2026-01-01 00:01:00 UTC; 14s ago\n   Duration: 1min\n'
    );
    expect(r.stdout).toContain(
      '\nJan 01 00:01:00 worker-1 systemd[1]: Stopping kubelet.service - kubelet: The Kubernetes Node Agent...\n' +
        'Jan 01 00:01:00 worker-1 systemd[1]: kubelet.service: Deactivated successfully.\n' +
        'Jan 01 00:01:00 worker-1 systemd[1]: Stopped kubelet.service - kubelet: The Kubernetes Node Agent.\n'
    );
    expect(run('systemctl is-active kubelet')).toEqual({ stdout: 'inactive\n', stderr: '', exitCode: 3 });
    run('systemctl restart kubelet');
    expect(cluster.faultLog.map((f) => f.action)).toEqual(['StopKubelet', 'StartKubelet']);
  });
  it('a restarted kubelet logs under a new PID, after systemd says it started', () => {
    const { cluster, host, run } = setup();
    host.state.journal.push({
      t: 1_000,
      unit: 'kubelet',
      level: 'I',
      source: 'server.go:529',
      message: '"Kubelet version"'
    });
    cluster.advance(60_000);
    run('systemctl restart kubelet');
    host.state.journal.push({
      t: 60_000,
      unit: 'kubelet',
      level: 'I',
      source: 'server.go:529',
      message: '"Kubelet version"'
    });
    const lines = run('journalctl -u kubelet').stdout.split('\n');
    const pids = lines.map((l) => /kubelet\[(\d+)\]/.exec(l)?.[1]).filter(Boolean);
    expect(pids).toHaveLength(2);
    expect(pids[1]).toBe('1042');
    expect(pids[0]).not.toBe('1042');
    expect(lines.slice(1, 5).map((l) => l.replace(/^.*?: /, ''))).toEqual([
      'Stopping kubelet.service - kubelet: The Kubernetes Node Agent...',
      'kubelet.service: Deactivated successfully.',
      'Stopped kubelet.service - kubelet: The Kubernetes Node Agent.',
      'Started kubelet.service - kubelet: The Kubernetes Node Agent.'
    ]);
  });
  it('units of the other runtime are not installed', () => {
    const { run } = setup();
    expect(run('systemctl status crio')).toEqual({
      stdout: '',
      stderr: 'Unit crio.service could not be found.\n',
      exitCode: 4
    });
    expect(run('systemctl stop crio').stderr).toBe(
      'Failed to stop crio.service: Unit crio.service not loaded.\n'
    );
  });
  it('journalctl prints klog lines under the journald prefix, filters --since and follows', () => {
    const { cluster, host, run } = setup();
    host.state.journal.push(
      {
        t: 10_000,
        unit: 'kubelet',
        level: 'I',
        source: 'kubelet_node_status.go:78',
        message: '"Successfully registered node" node="worker-1"'
      },
      {
        t: 200_500,
        unit: 'kubelet',
        level: 'E',
        source: 'controller.go:145',
        message:
          '"Failed to update lease" err="Put \\"https://10.0.0.10:6443\\": dial tcp 10.0.0.10:6443: i/o timeout"'
      }
    );
    cluster.advance(300_000);
    expect(run('journalctl -u kubelet').stdout).toBe(
      'Jan 01 00:00:10 worker-1 kubelet[1042]: I0101 00:00:10.000000    1042 kubelet_node_status.go:78] "Successfully registered node" node="worker-1"\n' +
        'Jan 01 00:03:20 worker-1 kubelet[1042]: E0101 00:03:20.500000    1042 controller.go:145] "Failed to update lease" err="Put \\"https://10.0.0.10:6443\\": dial tcp 10.0.0.10:6443: i/o timeout"\n'
    );
    expect(run('journalctl -u kubelet --since "2 min ago"').stdout).toMatch(
      /^Jan 01 00:03:20 .*i\/o timeout"\n$/
    );
    expect(run('journalctl -u containerd')).toEqual({
      stdout: '-- No entries --\n',
      stderr: '',
      exitCode: 0
    });
    const f = run('journalctl -u kubelet -f');
    host.state.journal.push({
      t: 300_000,
      unit: 'kubelet',
      level: 'W',
      source: 'x.go:1',
      message: '"later"'
    });
    expect(f.watch!.poll()).toBe(
      'Jan 01 00:05:00 worker-1 kubelet[1042]: W0101 00:05:00.000000    1042 x.go:1] "later"\n'
    );
  });
});

describe('crictl', () => {
  it('ps, pods and images print crictl tables', () => {
    const { cluster, host, run } = setup();
    host.state.containers.push({
      id: '4f5a6b7c8d9e0f1a2b3c4d5e6f708192',
      sandboxId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
      name: 'web',
      image: 'docker.io/library/nginx:1.27',
      imageId: 'sha256:9bea9f2796e236cb18c2b3ad561ff29f655d1001f9ec7247a0bc5e08d25652a1',
      state: 'CONTAINER_RUNNING',
      createdAt: 32_000,
      startedAt: 32_500,
      attempt: 0,
      podName: 'web',
      podNamespace: 'default',
      logs: [[33_000, 'start worker process 29']]
    });
    cluster.advance(450_000);
    expect(run('crictl ps').stdout).toBe(
      'CONTAINER           IMAGE               CREATED             STATE               NAME                ATTEMPT             POD ID              POD                 NAMESPACE\n' +
        '4f5a6b7c8d9e0       9bea9f2796e23       6 minutes ago       Running             web                 0                   a1b2c3d4e5f60       web                 default\n'
    );
    expect(run('crictl pods').stdout).toBe(
      'POD ID              CREATED             STATE               NAME                NAMESPACE           ATTEMPT             RUNTIME\n' +
        'a1b2c3d4e5f60       7 minutes ago       Ready               web                 default             0                   (default)\n'
    );
    expect(run('crictl images').stdout).toBe(
      'IMAGE                     TAG                 IMAGE ID            SIZE\n' +
        'docker.io/library/nginx   1.27                9bea9f2796e23       72.2MB\n' +
        'registry.k8s.io/pause     3.10                873ed75102791       320kB\n'
    );
    expect(run('crictl logs 4f5a').stdout).toBe('start worker process 29\n');
    expect(JSON.parse(run('crictl inspect 4f5a6b7c8d9e0').stdout).status.state).toBe('CONTAINER_RUNNING');
    host.state.runtimeRunning = false;
    expect(run('crictl ps').stderr).toBe(
      'FATA[0000] validate service connection: validate CRI v1 runtime API for endpoint "unix:///run/containerd/containerd.sock": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: no such file or directory"\n'
    );
  });
});

describe('networking and system tools', () => {
  it('a fresh node before kube-proxy and the CNI', () => {
    // Nothing programmed the node yet (the double stands for a node before kube-proxy and the CNI).
    setTestDataplane(() => undefined);
    const { cluster, run } = setup();
    cluster.advance(350_000);
    expect(run('ip route').stdout).toBe(
      'default via 10.0.0.1 dev eth0 proto static \n10.0.0.0/24 dev eth0 proto kernel scope link src 10.0.0.11 \n'
    );
    expect(run('ip addr').stdout).toContain('    inet 10.0.0.11/24 brd 10.0.0.255 scope global eth0\n');
    expect(run('iptables-save').stdout).toBe(
      '# Generated by iptables-save v1.8.10 (nf_tables) on Thu Jan  1 00:05:50 2026\n*filter\n:INPUT ACCEPT [0:0]\n:FORWARD ACCEPT [0:0]\n:OUTPUT ACCEPT [0:0]\nCOMMIT\n# Completed on Thu Jan  1 00:05:50 2026\n'
    );
    expect(run('iptables -t nat -L -n').stdout.split('\n').slice(0, 3)).toEqual([
      'Chain PREROUTING (policy ACCEPT)',
      'target     prot opt source               destination         ',
      ''
    ]);
    expect(run('ipvsadm -Ln').stdout).toBe(
      'IP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n'
    );
    expect(run('nft list ruleset')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(run('ls /etc/cni/net.d')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(run('cat /etc/cni/net.d/*')).toEqual({
      stdout: '',
      stderr: "cat: '/etc/cni/net.d/*': No such file or directory\n",
      exitCode: 1
    });
  });
  it('prints what the dataplane provider renders once networking is installed', () => {
    const { run } = setup();
    setTestDataplane(() => ({
      iptablesSave: () => '*nat\nCOMMIT\n',
      iptablesList: (t, c) => `Chain ${c ?? 'ALL'} in ${t}\n`,
      ipvsadmList: () => 'ipvs\n',
      nftListRuleset: () => 'table ip kube-proxy {\n}\n',
      nftTables: () => [],
      ipRoute: () => '10.244.2.0/26 via 10.0.0.12 dev tunl0 proto bird onlink \n',
      ipAddr: () => 'addr\n',
      cniConfigFiles: () => ({ '10-calico.conflist': '{"name": "k8s-pod-network"}' })
    }));
    try {
      expect(run('ip r').stdout).toBe('10.244.2.0/26 via 10.0.0.12 dev tunl0 proto bird onlink \n');
      expect(run('iptables -t nat -L KUBE-SERVICES -n').stdout).toBe('Chain KUBE-SERVICES in nat\n');
      expect(run('nft list ruleset').stdout).toBe('table ip kube-proxy {\n}\n');
      expect(run('ls /etc/cni/net.d/').stdout).toBe('10-calico.conflist\n');
      expect(run('cat /etc/cni/net.d/10-calico.conflist').stdout).toBe('{"name": "k8s-pod-network"}\n');
    } finally {
      setTestDataplane(() => undefined);
    }
  });
  it('free and df', () => {
    const { run } = setup();
    expect(run('free -m').stdout).toBe(
      '               total        used        free      shared  buff/cache   available\n' +
        'Mem:            4096        1024        2662           2         409        3072\n' +
        'Swap:              0           0           0\n'
    );
    expect(run('df -h').stdout.split('\n').slice(0, 3)).toEqual([
      'Filesystem      Size  Used Avail Use% Mounted on',
      'tmpfs           410M  1.2M  409M   1% /run',
      '/dev/root        50G   12G   38G  24% /'
    ]);
  });
});

describe('kubectl reading through the node', () => {
  function withPod() {
    const f = setup();
    f.run('exit');
    f.cluster.api.create<KubeObject>({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web',
        namespace: 'default',
        annotations: { 'nodeplane.dev/memory-usage': '100Mi+1Mi/s,max=150Mi' }
      },
      spec: {
        nodeName: 'worker-1',
        containers: [
          { name: 'web', image: 'nginx:1.27', resources: { requests: { cpu: '200m', memory: '64Mi' } } }
        ]
      },
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'web',
            ready: true,
            restartCount: 0,
            state: { running: { startedAt: '2026-01-01T00:00:30Z' } }
          }
        ]
      }
    });
    f.host.state.containers.push({
      id: '4f5a6b7c8d9e0f1a2b3c4d5e6f708192',
      sandboxId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
      name: 'web',
      image: 'docker.io/library/nginx:1.27',
      imageId: 'sha256:9bea9f2796e236cb18c2b3ad561ff29f655d1001f9ec7247a0bc5e08d25652a1',
      state: 'CONTAINER_RUNNING',
      createdAt: 30_000,
      attempt: 0,
      podName: 'web',
      podNamespace: 'default',
      logs: [
        [30_500, '/docker-entrypoint.sh: Configuration complete; ready for start up'],
        [31_000, '10.244.1.1 - - "GET / HTTP/1.1" 200 615']
      ]
    });
    return f;
  }
  it('logs come from the runtime; a stopped kubelet refuses the connection', () => {
    const { run, host } = withPod();
    expect(run('kubectl logs web --tail 1').stdout).toBe('10.244.1.1 - - "GET / HTTP/1.1" 200 615\n');
    const f = run('kubectl logs -f web');
    host.state.containers[0].logs.push([40_000, 'later']);
    expect(f.watch!.poll()).toBe('later\n');
    host.state.kubeletRunning = false;
    expect(run('kubectl logs web').stderr).toBe(
      'Error from server: Get "https://10.0.0.11:10250/containerLogs/default/web/web": dial tcp 10.0.0.11:10250: connect: connection refused\n'
    );
  });
});

// upstream: GNU grep (src/grep.c: "FILE: No such file or directory", "Is a directory", the
// FILE: prefix with several files, exit 0 selected / 1 none / 2 error)
describe('grep on the node', () => {
  it('searches a file, names each file when there are several, and reports a missing one', () => {
    const { run } = setup();
    expect(run('grep server /etc/kubernetes/kubelet.conf').stdout).toBe(
      run('cat /etc/kubernetes/kubelet.conf')
        .stdout.split('\n')
        .filter((l) => l.includes('server'))
        .map((l) => l + '\n')
        .join('')
    );
    expect(run('grep -c worker /etc/hostname')).toEqual({ stdout: '1\n', stderr: '', exitCode: 0 });
    expect(run('grep -n worker /etc/hostname /etc/kubernetes/kubelet.conf').stdout.split('\n')[0]).toBe(
      '/etc/hostname:1:worker-1'
    );
    expect(run('grep nothing-here /etc/hostname')).toEqual({ stdout: '', stderr: '', exitCode: 1 });
    expect(run('grep worker /etc/nope')).toEqual({
      stdout: '',
      stderr: 'grep: /etc/nope: No such file or directory\n',
      exitCode: 2
    });
    expect(run('grep worker /etc/nope /etc/hostname')).toEqual({
      stdout: '/etc/hostname:worker-1\n',
      stderr: 'grep: /etc/nope: No such file or directory\n',
      exitCode: 2
    });
    expect(run('grep -q worker /etc/nope /etc/hostname').exitCode).toBe(0);
    expect(run('grep worker /etc/kubernetes')).toEqual({
      stdout: '',
      stderr: 'grep: /etc/kubernetes: Is a directory\n',
      exitCode: 2
    });
    expect(run('grep -h worker /etc/hostname /etc/hostname').stdout).toBe('worker-1\nworker-1\n');
    expect(run('grep worker /etc/hostname | wc -l').stdout).toBe('1\n');
  });

  it('expands globs in the file operands as the shell does, not in the pattern', () => {
    const { cluster } = createCluster(readFileSync('scenarios/three-nodes.yaml', 'utf8'));
    cluster.runUntil(30_000);
    const con = new ConsoleSession(cluster);
    con.exec('ssh control-plane-1');
    const run = (line: string) => con.exec(line);
    const manifests = [
      '/etc/kubernetes/manifests/etcd.yaml',
      '/etc/kubernetes/manifests/kube-apiserver.yaml',
      '/etc/kubernetes/manifests/kube-controller-manager.yaml',
      '/etc/kubernetes/manifests/kube-scheduler.yaml'
    ];
    expect(run('ls /etc/kubernetes/manifests/*.yaml').stdout).toBe(manifests.join('\n') + '\n');
    // Several files after expansion: each line is prefixed with its file.
    expect(run('grep -l image: /etc/kubernetes/manifests/*.yaml').stdout).toBe(manifests.join('\n') + '\n');
    expect(run('grep -c "kind: Pod" /etc/kubernetes/manifests/kube-*').stdout).toBe(
      manifests
        .slice(1)
        .map((m) => `${m}:1\n`)
        .join('')
    );
    // One file after expansion: no prefix.
    expect(run('grep -c "kind: Pod" /etc/kubernetes/manifests/e*').stdout).toBe('1\n');
    // The pattern is not a path: `.*` stays a regular expression.
    expect(run('grep -c k.*-scheduler /etc/kubernetes/manifests/kube-scheduler.yaml').exitCode).toBe(0);
    // No match: bash passes the word as it is, and grep reports it missing.
    expect(run('grep image /etc/kubernetes/manifests/*.json')).toMatchObject({
      stdout: '',
      stderr: 'grep: /etc/kubernetes/manifests/*.json: No such file or directory\n',
      exitCode: 2
    });
    expect(run('cat /etc/kubernetes/manifests/kube-s*').stdout).toBe(
      run('cat /etc/kubernetes/manifests/kube-scheduler.yaml').stdout
    );
    // A worker's own files, in the node shell.
    run('exit');
    run('ssh worker-1');
    const cni = run('ls /etc/cni/net.d/').stdout.trim().split(/\s+/);
    expect(cni.length).toBeGreaterThan(0);
    expect(run('grep -l . /etc/cni/net.d/*').stdout).toBe(cni.map((f) => `/etc/cni/net.d/${f}\n`).join(''));
    expect(run('grep -L . /etc/cni/net.d/*')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
});
