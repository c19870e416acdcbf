// The etcd backup and restore drill on a kubeadm cluster, end to end through the node shell.
// upstream: kubernetes website content/en/docs/tasks/administer-cluster/configure-upgrade-etcd.md
// upstream: etcdutl/snapshot/v3_snapshot.go (restore, --bump-revision, --mark-compacted)
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { KubeObject } from '../api/types';
import { createCluster } from '../scenario';
import { ConsoleSession } from '../kubectl/console';
import { staticPods } from './staticpods';

const TLS =
  '--endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key';

function lab() {
  const { cluster } = createCluster(readFileSync('scenarios/three-nodes.yaml', 'utf8'));
  cluster.runUntil(30_000);
  const con = new ConsoleSession(cluster);
  return { cluster, con };
}

function sh(con: ConsoleSession, line: string) {
  return con.exec(line);
}

const names = (cluster: ReturnType<typeof lab>['cluster'], kind: string, ns = 'default') =>
  cluster.api
    .list<KubeObject>(kind, { namespace: ns })
    .map((o) => o.metadata.name)
    .sort();

describe('control-plane host files', () => {
  it('ssh control-plane-1 lists kubeadm manifests and etcd.yaml carries the data dir and ports', () => {
    const { con } = lab();
    expect(sh(con, 'ssh control-plane-1').exitCode).toBe(0);
    expect(sh(con, 'ls /etc/kubernetes/manifests').stdout).toBe(
      'etcd.yaml  kube-apiserver.yaml  kube-controller-manager.yaml  kube-scheduler.yaml\n'
    );
    const etcd = sh(con, 'cat /etc/kubernetes/manifests/etcd.yaml').stdout;
    expect(etcd).toContain('    - --data-dir=/var/lib/etcd\n');
    expect(etcd).toContain('    - --listen-client-urls=https://127.0.0.1:2379,https://10.0.0.10:2379\n');
    expect(etcd).toContain('    - --listen-metrics-urls=http://127.0.0.1:2381\n');
    expect(etcd).toContain('  priorityClassName: system-node-critical\n');
    expect(sh(con, 'cat /etc/kubernetes/manifests/kube-apiserver.yaml').stdout).toContain(
      '    - --secure-port=6443\n'
    );
    expect(sh(con, 'cat /etc/kubernetes/manifests/kube-scheduler.yaml').stdout).toContain(
      '        port: 10259\n'
    );
    expect(sh(con, 'cat /etc/kubernetes/manifests/kube-controller-manager.yaml').stdout).toContain(
      '        port: 10257\n'
    );
  });

  it('moving etcd.yaml out stops the member; moving it back starts it', () => {
    const { cluster, con } = lab();
    sh(con, 'ssh control-plane-1');
    sh(con, 'sudo mv /etc/kubernetes/manifests/etcd.yaml /root/');
    cluster.advance(2_000);
    expect(cluster.etcd.members[0].running).toBe(false);
    expect(cluster.etcd.hasQuorum()).toBe(false);
    sh(con, 'mv /root/etcd.yaml /etc/kubernetes/manifests/');
    cluster.advance(2_000);
    expect(cluster.etcd.members[0].running).toBe(true);
  });
});

describe('etcdctl', () => {
  it('member list, endpoint status and health print as etcd v3.6 does', () => {
    const { con } = lab();
    sh(con, 'ssh control-plane-1');
    const list = sh(con, `ETCDCTL_API=3 etcdctl ${TLS} member list`);
    expect(list.stderr).toBe('');
    expect(list.stdout).toMatch(
      /^[0-9a-f]+, started, control-plane-1, https:\/\/10\.0\.0\.10:2380, https:\/\/10\.0\.0\.10:2379, false\n$/
    );
    const tableOut = sh(con, `etcdctl ${TLS} member list -w table`).stdout.split('\n');
    expect(tableOut[1]).toMatch(
      /^\|\s+ID\s+\| STATUS {2}\|\s+NAME\s+\|\s+PEER ADDRS\s+\|\s+CLIENT ADDRS\s+\| IS LEARNER \|$/
    );
    expect(tableOut[3]).toMatch(/\| {6}false \|$/);
    const health = sh(con, `etcdctl ${TLS} endpoint health`);
    expect(health.stderr).toMatch(
      /^https:\/\/127\.0\.0\.1:2379 is healthy: successfully committed proposal: took = [\d.]+ms\n$/
    );
    const status = sh(con, `etcdctl ${TLS} endpoint status`);
    expect(status.stdout).toMatch(
      /^https:\/\/127\.0\.0\.1:2379, [0-9a-f]+, 3\.6\.5, [\d.]+ kB, true, false, \d+, \d+, \d+, \n$/
    );
  });

  it('refuses a client without the etcd CA and certificate, as TLS does', () => {
    const { con } = lab();
    sh(con, 'ssh control-plane-1');
    const plain = sh(con, 'etcdctl member list');
    expect(plain.exitCode).toBe(1);
    expect(plain.stderr).toContain('error reading server preface: EOF');
    expect(plain.stderr.endsWith('Error: context deadline exceeded\n')).toBe(true);
    const noCert = sh(
      con,
      'etcdctl --endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt member list'
    );
    expect(noCert.stderr).toContain('remote error: tls: certificate required');
    const missing = sh(con, 'etcdctl --cacert=/etc/kubernetes/pki/ca.pem member list');
    expect(missing.stderr).toBe('Error: open /etc/kubernetes/pki/ca.pem: no such file or directory\n');
  });

  it('get --prefix --keys-only walks the real key layout', () => {
    const { con } = lab();
    sh(con, 'ssh control-plane-1');
    const out = sh(con, `etcdctl ${TLS} get /registry/minions --prefix --keys-only`).stdout;
    expect(out).toBe(
      '/registry/minions/control-plane-1\n\n/registry/minions/worker-1\n\n/registry/minions/worker-2\n\n/registry/minions/worker-3\n\n'
    );
    const deploy = sh(con, `etcdctl ${TLS} get /registry/deployments/default/web --keys-only`).stdout;
    expect(deploy).toBe('/registry/deployments/default/web\n\n');
    const leases = sh(
      con,
      `etcdctl ${TLS} get /registry/leases/kube-node-lease/ --prefix --keys-only`
    ).stdout;
    expect(leases).toContain('/registry/leases/kube-node-lease/worker-1\n');
  });

  it('etcdctl snapshot restore is gone in 3.6', () => {
    const { con } = lab();
    sh(con, 'ssh control-plane-1');
    const r = sh(con, 'etcdctl snapshot restore /root/snap.db --data-dir /var/lib/etcd-from-backup');
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('Error: unknown flag: --data-dir');
    expect(r.stderr).toContain('COMMANDS:\n\tsave\tStores an etcd node backend snapshot to a given file\n');
  });
});

describe('the restore drill', () => {
  it('brings back the snapshot state: later objects gone, deleted ones back, replicas as saved', () => {
    const { cluster, con } = lab();
    const beforePods = names(cluster, 'Pod');
    expect(beforePods).toHaveLength(3);
    sh(con, 'ssh control-plane-1');
    const saved = sh(con, `etcdctl ${TLS} snapshot save /root/snap.db`);
    expect(saved.stdout).toBe('Snapshot saved at /root/snap.db\n');
    const rvAtSnapshot = cluster.api.resourceVersion;
    expect(sh(con, 'ls -l /root').stdout).toMatch(
      /^total \d+\n-rw------- 1 root root +\d+ Jan {2}1 00:00 snap\.db\n$/
    );
    expect(sh(con, 'etcdutl snapshot status /root/snap.db -w table').stdout.split('\n')[1]).toMatch(
      // The HASH column is as wide as the hash (its digits depend on the keyspace).
      /^\| +HASH +\| REVISION \| TOTAL KEYS \| TOTAL SIZE \| VERSION \|$/
    );
    sh(con, 'exit');

    // Changes after the snapshot.
    cluster.api.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'late', namespace: 'default' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'late' } },
        template: {
          metadata: { labels: { app: 'late' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] }
        }
      }
    });
    sh(con, 'kubectl scale deployment web --replicas=1');
    sh(con, 'kubectl delete daemonset log-agent -n kube-system');
    cluster.advance(30_000);
    expect(names(cluster, 'Deployment')).toEqual(['late', 'web']);
    // kubeadm's kube-proxy and the CNI's calico-node stay; log-agent is gone.
    expect(names(cluster, 'DaemonSet', 'kube-system')).toEqual(['calico-node', 'kube-proxy']);

    sh(con, 'ssh control-plane-1');
    sh(con, 'mv /etc/kubernetes/manifests/kube-apiserver.yaml /etc/kubernetes/manifests/etcd.yaml /root/');
    cluster.advance(2_000);
    expect(sh(con, 'exit').exitCode).toBe(0);
    expect(sh(con, 'kubectl get pods').stderr).toContain('was refused');
    sh(con, 'ssh control-plane-1');
    const restore = sh(
      con,
      'etcdutl snapshot restore /root/snap.db --data-dir /var/lib/etcd-from-backup --bump-revision 1000000000 --mark-compacted'
    );
    expect(restore.exitCode).toBe(0);
    expect(restore.stderr).toContain('"msg":"restored snapshot"');
    expect(
      sh(con, 'etcdutl snapshot restore /root/snap.db --data-dir /var/lib/etcd-from-backup').stderr
    ).toBe('Error: data-dir "/var/lib/etcd-from-backup" not empty or could not be read\n');
    sh(con, "sed -i 's|path: /var/lib/etcd$|path: /var/lib/etcd-from-backup|' /root/etcd.yaml");
    expect(sh(con, 'cat /root/etcd.yaml').stdout).toContain('      path: /var/lib/etcd-from-backup\n');
    sh(con, 'mv /root/etcd.yaml /root/kube-apiserver.yaml /etc/kubernetes/manifests/');
    cluster.advance(2_000);
    expect(cluster.etcd.hasQuorum()).toBe(true);
    expect(cluster.api.resourceVersion).toBeGreaterThan(1_000_000_000 + rvAtSnapshot - 1);
    sh(con, 'exit');

    // Object by object.
    expect(names(cluster, 'Deployment')).toEqual(['web']);
    expect(cluster.api.get<KubeObject>('Deployment', 'default', 'web').spec.replicas).toBe(3);
    expect(names(cluster, 'DaemonSet', 'kube-system')).toEqual(['calico-node', 'kube-proxy', 'log-agent']);
    cluster.advance(60_000);
    const pods = cluster.api.list<KubeObject>('Pod', { namespace: 'default' });
    expect(pods.filter((p) => p.metadata.name.startsWith('late-'))).toEqual([]);
    expect(
      pods.filter((p) => p.metadata.name.startsWith('web-') && p.status?.phase === 'Running')
    ).toHaveLength(3);
    expect(staticPods(cluster)!.state.etcdDir['control-plane-1']).toBe('/var/lib/etcd-from-backup');
  });
});
