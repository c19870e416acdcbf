/**
 * The files a node's services name, rendered from the component that reads them. Upstream:
 * kubelet config file (cmd/kubelet/app/options, staging/src/k8s.io/kubelet/config/v1beta1/types.go,
 * defaults in pkg/kubelet/apis/config/v1beta1/defaults.go and eviction/defaults_linux.go), kubeadm's
 * kubelet.conf (cmd/kubeadm/app/phases/kubeconfig), KubeProxyConfiguration
 * (pkg/proxy/apis/config/v1alpha1/defaults.go); coreutils ls, cat, head and tail.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../scenario';
import { ConsoleSession } from '../../kubectl/console';
import { goDuration } from '../kubeletconfig';

const SCENARIO = `apiVersion: nodeplane.dev/v1alpha1
kind: Scenario
metadata: { name: files }
spec:
  seed: 1
  nodePools:
    - name: worker
      count: 1
      maxPods: 30
      kubeReserved: { cpu: 100m, memory: 256Mi }
      evictionHard: { memory.available: 200Mi }
`;

function shell() {
  const { cluster } = createCluster(SCENARIO, { fileName: 'files.yaml' });
  cluster.runUntil(5_000);
  const con = new ConsoleSession(cluster);
  con.exec('ssh worker-1');
  return con;
}

describe('node files', () => {
  it('/var/lib/kubelet/config.yaml is the KubeletConfiguration the kubelet runs with', () => {
    const con = shell();
    expect(con.exec('cat /var/lib/kubelet/config.yaml').stdout)
      .toBe(`apiVersion: kubelet.config.k8s.io/v1beta1
authentication:
  anonymous:
    enabled: false
  webhook:
    cacheTTL: 2m0s
    enabled: true
  x509:
    clientCAFile: /etc/kubernetes/pki/ca.crt
authorization:
  mode: Webhook
  webhook:
    cacheAuthorizedTTL: 5m0s
    cacheUnauthorizedTTL: 30s
cgroupDriver: systemd
clusterDNS:
- 10.96.0.10
clusterDomain: cluster.local
containerRuntimeEndpoint: unix:///var/run/containerd/containerd.sock
evictionHard:
  memory.available: 200Mi
evictionPressureTransitionPeriod: 5m0s
healthzBindAddress: 127.0.0.1
healthzPort: 10248
imageGCHighThresholdPercent: 85
imageGCLowThresholdPercent: 80
kind: KubeletConfiguration
kubeReserved:
  cpu: 100m
  memory: 256Mi
maxPods: 30
nodeLeaseDurationSeconds: 40
nodeStatusReportFrequency: 5m0s
nodeStatusUpdateFrequency: 10s
rotateCertificates: true
staticPodPath: /etc/kubernetes/manifests
syncFrequency: 1m0s
`);
  });

  it('head, tail and less read the same files; ls lists the directories', () => {
    const con = shell();
    expect(con.exec('head -n 2 /etc/kubernetes/kubelet.conf').stdout).toBe('apiVersion: v1\nclusters:\n');
    expect(con.exec('tail -3 /etc/kubernetes/kubelet.conf').stdout).toBe(
      '  user:\n    client-certificate: /var/lib/kubelet/pki/kubelet-client-current.pem\n    client-key: /var/lib/kubelet/pki/kubelet-client-current.pem\n'
    );
    expect(con.exec('less /var/lib/kube-proxy/config.conf | grep mode').stdout).toBe('mode: iptables\n');
    expect(con.exec('cat /etc/containerd/config.toml | head -n 1').stdout).toBe('version = 3\n');
    expect(con.exec('ls /etc/kubernetes').stdout).toBe('kubelet.conf  manifests\n');
    expect(con.exec('ls /var/lib/kubelet /etc/containerd').stdout).toBe(
      '/var/lib/kubelet:\nconfig.yaml\n\n/etc/containerd:\nconfig.toml\n'
    );
    expect(con.exec('ls -l /etc/kubernetes').stdout).toBe(
      'total 8\n-rw-r--r-- 1 root root  589 Jan  1 00:00 kubelet.conf\ndrwxr-xr-x 2 root root 4096 Jan  1 00:00 manifests\n'
    );
  });

  it('missing files and directories fail as coreutils does', () => {
    const con = shell();
    expect(con.exec('cat /etc/nope')).toMatchObject({
      stderr: 'cat: /etc/nope: No such file or directory\n',
      exitCode: 1
    });
    expect(con.exec('cat /etc/kubernetes')).toMatchObject({
      stderr: 'cat: /etc/kubernetes: Is a directory\n',
      exitCode: 1
    });
    expect(con.exec('ls /nope')).toMatchObject({
      stderr: "ls: cannot access '/nope': No such file or directory\n",
      exitCode: 2
    });
    expect(con.exec('head -z /etc/hostname')).toMatchObject({
      stderr: "head: invalid option -- 'z'\nTry 'head --help' for more information.\n",
      exitCode: 1
    });
    expect(con.exec('less')).toMatchObject({
      stderr: 'Missing filename ("less --help" for help)\n',
      exitCode: 1
    });
  });

  it('CRI-O nodes have /etc/crio/crio.conf instead of containerd config', () => {
    const { cluster } = createCluster(SCENARIO.replace('count: 1', 'count: 1\n      runtime: cri-o'), {
      fileName: 'files.yaml'
    });
    cluster.runUntil(5_000);
    const con = new ConsoleSession(cluster);
    expect(con.exec('ssh worker-1 ls /etc/crio /etc/containerd')).toMatchObject({
      stdout: '/etc/crio:\ncrio.conf\n',
      stderr: "ls: cannot access '/etc/containerd': No such file or directory\n"
    });
    // grep reads the file itself, as it does through cat and a pipe.
    expect(con.exec('ssh worker-1 grep containerRuntimeEndpoint /var/lib/kubelet/config.yaml').stdout).toBe(
      'containerRuntimeEndpoint: unix:///var/run/crio/crio.sock\n'
    );
    expect(
      con.exec('ssh worker-1 cat /var/lib/kubelet/config.yaml | grep containerRuntimeEndpoint').stdout
    ).toBe('containerRuntimeEndpoint: unix:///var/run/crio/crio.sock\n');
  });

  it("goDuration prints Go's time.Duration", () => {
    expect([0, 500, 10_000, 300_000, 90_000, 3_600_000].map(goDuration)).toEqual([
      '0s',
      '500ms',
      '10s',
      '5m0s',
      '1m30s',
      '1h0m0s'
    ]);
  });
});
