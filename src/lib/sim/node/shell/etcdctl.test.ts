// etcdctl / etcdutl on a three-member stacked control plane, and kubelet mirror pods.
// upstream: etcdctl/ctlv3/command/printer.go, printer_simple.go (rows, health lines)
// upstream: etcdutl/etcdutl/snapshot_command.go (restore flags and their errors)
// upstream: pkg/kubelet/pod/mirror_client.go (mirror pods need the Node; config.mirror annotation)
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { KubeObject } from '../../api/types';
import { createCluster } from '../../scenario';
import { ConsoleSession } from '../../kubectl/console';
import { goFloat } from '../../etcd/metrics';
import { humanizeBytes, table } from './etcdctl';

const TLS =
  '--endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/healthcheck-client.crt --key=/etc/kubernetes/pki/etcd/healthcheck-client.key';

function ha() {
  const { cluster } = createCluster(readFileSync('scenarios/ha-failover.yaml', 'utf8'));
  cluster.runUntil(20_000);
  return { cluster, con: new ConsoleSession(cluster) };
}

describe('etcdctl on three members', () => {
  it('lists the three kubeadm members and their endpoints', () => {
    const { con } = ha();
    con.exec('ssh control-plane-2');
    const rows = con.exec(`etcdctl ${TLS} member list`).stdout.trim().split('\n');
    expect(rows.map((r) => r.split(', ').slice(1))).toEqual([
      ['started', 'control-plane-1', 'https://10.0.0.2:2380', 'https://10.0.0.2:2379', 'false'],
      ['started', 'control-plane-2', 'https://10.0.0.3:2380', 'https://10.0.0.3:2379', 'false'],
      ['started', 'control-plane-3', 'https://10.0.0.4:2380', 'https://10.0.0.4:2379', 'false']
    ]);
    const status = con.exec(`etcdctl ${TLS} endpoint status --cluster -w table`).stdout.split('\n');
    expect(status[1]).toBe(
      '|       ENDPOINT        |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS |'
    );
    expect(status.slice(3, 6).map((l) => l.split('|')[5].trim())).toEqual(['true', 'false', 'false']);
  });

  it('reports the stopped member and the lost quorum as etcdctl does', () => {
    const { cluster, con } = ha();
    con.exec('ssh control-plane-1');
    cluster.applyFault('StopEtcdMember', { target: 'etcd-1' });
    const one = con.exec(`etcdctl ${TLS} endpoint health --cluster`);
    expect(one.exitCode).toBe(1);
    expect(one.stderr).toContain(
      'https://10.0.0.3:2379 is unhealthy: failed to commit proposal: context deadline exceeded\n'
    );
    expect(one.stderr).toMatch(
      /https:\/\/10\.0\.0\.2:2379 is healthy: successfully committed proposal: took = /
    );
    expect(one.stderr.endsWith('Error: unhealthy cluster\n')).toBe(true);
    expect(con.exec(`etcdctl ${TLS.replace('127.0.0.1', '10.0.0.3')} member list`).stderr).toContain(
      'dial tcp 10.0.0.3:2379: connect: connection refused'
    );
    cluster.applyFault('StopEtcdMember', { target: 'etcd-2' });
    const none = con.exec(`etcdctl ${TLS} member list`);
    expect(none.exitCode).toBe(1);
    expect(none.stderr.endsWith('Error: context deadline exceeded\n')).toBe(true);
    expect(con.exec(`etcdctl ${TLS} get /registry/pods --prefix --keys-only`).stderr).toContain(
      'Error: context deadline exceeded'
    );
    // A serializable read is served by the member alone.
    expect(
      con.exec(`etcdctl ${TLS} get /registry/namespaces/default --keys-only --consistency=s`).stdout
    ).toBe('/registry/namespaces/default\n\n');
  });

  it('etcdutl refuses bad input and changes nothing', () => {
    const { con } = ha();
    con.exec('ssh control-plane-1');
    expect(con.exec('etcdutl snapshot status /root/none.db').stderr).toBe(
      'Error: stat /root/none.db: no such file or directory\n'
    );
    expect(con.exec('etcdutl snapshot status /etc/kubernetes/manifests/etcd.yaml').stderr).toBe(
      'Error: invalid database\n'
    );
    con.exec(`etcdctl ${TLS} snapshot save /root/snap.db`);
    expect(con.exec('etcdutl snapshot restore /root/snap.db --data-dir /var/lib/etcd').stderr).toBe(
      'Error: data-dir "/var/lib/etcd" not empty or could not be read\n'
    );
    expect(
      con.exec('etcdutl snapshot restore /root/snap.db --data-dir /root/x --bump-revision 10').stderr
    ).toBe('Error: --mark-compacted required if --bump-revision > 0\n');
    expect(
      con.exec(
        'etcdutl snapshot restore /root/snap.db --name a --initial-cluster b=http://x:2380 --data-dir /root/x'
      ).stderr
    ).toBe('Error: couldn\'t find local name "a" in the initial cluster configuration\n');
    expect(con.exec('ls /root').stdout).toBe('snap.db\n');
    expect(con.exec(`etcdctl ${TLS} snapshot save /nowhere/snap.db`).stderr).toBe(
      'Error: could not open /nowhere/snap.db.part (open /nowhere/snap.db.part: no such file or directory)\n'
    );
  });
});

describe('mirror pods', () => {
  it('the kubelet keeps <component>-<host> in kube-system once the Node exists, and drops it with the manifest', () => {
    // upstream: pkg/kubelet/pod/mirror_client.go — the hosts' kubelets registered their Nodes.
    const { cluster, con } = ha();
    cluster.advance(20_000);
    const etcd = cluster.api.get<KubeObject>('Pod', 'kube-system', 'etcd-control-plane-2');
    expect(etcd.spec.nodeName).toBe('control-plane-2');
    expect(etcd.spec.priorityClassName).toBe('system-node-critical');
    expect(etcd.metadata.annotations?.['kubernetes.io/config.source']).toBe('file');
    expect(etcd.metadata.annotations?.['kubernetes.io/config.mirror']).toMatch(/^[0-9a-f]{32}$/);
    expect(etcd.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: 'control-plane-2' });
    expect(
      cluster.api
        .list<KubeObject>('Pod', { namespace: 'kube-system' })
        .filter((p) => p.metadata.annotations?.['kubernetes.io/config.mirror'])
        .map((p) => p.metadata.name)
        .filter((n) => n.endsWith('-control-plane-1'))
        .sort()
    ).toEqual([
      'etcd-control-plane-1',
      'kube-apiserver-control-plane-1',
      'kube-controller-manager-control-plane-1',
      'kube-scheduler-control-plane-1'
    ]);
    con.exec('ssh control-plane-2');
    con.exec('sudo mv /etc/kubernetes/manifests/etcd.yaml /root/');
    cluster.advance(2_000);
    expect(cluster.api.tryGet('Pod', 'kube-system', 'etcd-control-plane-2')).toBeUndefined();
    expect(cluster.etcd.members[1].running).toBe(false);
  });
});

describe('printers', () => {
  it('go-humanize Bytes and tablewriter', () => {
    expect([humanizeBytes(5), humanizeBytes(24_576), humanizeBytes(5_922_848), humanizeBytes(1_000)]).toEqual(
      ['5 B', '25 kB', '5.9 MB', '1.0 kB']
    );
    expect(table(['HASH', 'REVISION'], [['cf1550fb', '3']], [false, true])).toBe(
      '+----------+----------+\n|   HASH   | REVISION |\n+----------+----------+\n| cf1550fb |        3 |\n+----------+----------+\n'
    );
  });
});

// upstream: server/etcdserver/metrics.go, server/storage/mvcc/metrics.go (names and help strings);
// prometheus/common expfmt writes values with strconv.FormatFloat(v, 'g', -1, 64).
describe("etcd's metrics listener", () => {
  it('serves /metrics on http://127.0.0.1:2381 and refuses once the member stops', () => {
    const { cluster, con } = ha();
    con.exec('ssh control-plane-1');
    const page = con.exec('curl -s http://127.0.0.1:2381/metrics | grep etcd_server');
    expect(page.stdout).toBe(
      '# HELP etcd_server_has_leader Whether or not a leader exists. 1 is existence, 0 is not.\n' +
        '# TYPE etcd_server_has_leader gauge\n' +
        'etcd_server_has_leader 1\n' +
        '# HELP etcd_server_is_leader Whether or not this member is a leader. 1 if is, 0 otherwise.\n' +
        '# TYPE etcd_server_is_leader gauge\n' +
        'etcd_server_is_leader 1\n' +
        '# HELP etcd_server_is_learner Whether or not this member is a learner. 1 if is, 0 otherwise.\n' +
        '# TYPE etcd_server_is_learner gauge\n' +
        'etcd_server_is_learner 0\n' +
        '# HELP etcd_server_leader_changes_seen_total The number of leader changes seen.\n' +
        '# TYPE etcd_server_leader_changes_seen_total counter\n' +
        'etcd_server_leader_changes_seen_total 1\n'
    );
    expect(con.exec('curl -s http://127.0.0.1:2381/health').stdout).toBe('{"health":"true","reason":""}');
    expect(con.exec('curl -sk https://127.0.0.1:2381/metrics').exitCode).toBe(35);
    con.exec('mv /etc/kubernetes/manifests/etcd.yaml /root/');
    cluster.advance(2_000);
    const refused = con.exec('curl -sS http://127.0.0.1:2381/metrics');
    expect(refused.exitCode).toBe(7);
    expect(refused.stderr).toBe(
      "curl: (7) Failed to connect to 127.0.0.1 port 2381 after 0 ms: Couldn't connect to server\n"
    );
  });

  it('formats sample values as Go does', () => {
    expect([goFloat(20480), goFloat(5_922_848), goFloat(1_000_000), goFloat(0.5), goFloat(0)]).toEqual([
      '20480',
      '5.922848e+06',
      '1e+06',
      '0.5',
      '0'
    ]);
  });
});

// upstream: etcdctl/ctlv3/command/member_command.go (add/remove/promote and their argument errors)
// upstream: etcdctl/ctlv3/command/printer_simple.go (MemberAdd "added as learner to", %16x IDs)
// upstream: server/etcdserver/api/v3rpc/rpctypes/error.go (membership errors)
describe('etcdctl member add, promote and remove', () => {
  function one() {
    const { cluster } = createCluster(readFileSync('lessons/14-watch-control-plane/scenario.yaml', 'utf8'));
    cluster.runUntil(20_000);
    const con = new ConsoleSession(cluster);
    con.exec('ssh control-plane-1');
    return { cluster, con };
  }

  it('refuses a voting member on one member (strict reconfig check) and takes a learner', () => {
    const { cluster, con } = one();
    const voter = con.exec(`etcdctl ${TLS} member add control-plane-2 --peer-urls=https://10.0.0.3:2380`);
    expect([voter.exitCode, voter.stderr]).toEqual([
      1,
      'Error: etcdserver: re-configuration failed due to not enough started members\n'
    ]);
    expect(cluster.etcd.size).toBe(1);
    const r = con.exec(`etcdctl ${TLS} member add extra --peer-urls=https://10.0.0.50:2380 --learner`);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^Member [ 0-9a-f]{16} added as learner to cluster [ 0-9a-f]{16}$/);
    expect(lines.slice(1)).toEqual([
      '',
      'ETCD_NAME="extra"',
      'ETCD_INITIAL_CLUSTER="control-plane-1=https://10.0.0.10:2380,extra=https://10.0.0.50:2380"',
      'ETCD_INITIAL_ADVERTISE_PEER_URLS="https://10.0.0.50:2380"',
      'ETCD_INITIAL_CLUSTER_STATE="existing"',
      ''
    ]);
    const rows = con.exec(`etcdctl ${TLS} member list`).stdout.trim().split('\n');
    expect(rows[1].split(', ').slice(1)).toEqual(['unstarted', '', 'https://10.0.0.50:2380', '', 'true']);
    // Quorum is still one of one: the learner does not vote.
    expect([cluster.etcd.voters, cluster.etcd.quorum, cluster.etcd.hasQuorum()]).toEqual([1, 1, true]);
    const id = rows[1].split(', ')[0];
    const second = con.exec(`etcdctl ${TLS} member add more --peer-urls=https://10.0.0.51:2380 --learner`);
    expect(second.stderr).toBe('Error: etcdserver: too many learner members in cluster\n');
    const promote = con.exec(`etcdctl ${TLS} member promote ${id}`);
    expect(promote.stderr).toBe(
      'Error: etcdserver: can only promote a learner member which is in sync with leader\n'
    );
    const removed = con.exec(`etcdctl ${TLS} member remove ${id}`);
    expect(removed.stdout).toMatch(
      new RegExp(`^Member ${id.padStart(16)} removed from cluster [ 0-9a-f]{16}\\n$`)
    );
    expect(cluster.etcd.size).toBe(1);
  });

  it('gives etcdctl’s errors for missing and bad arguments', () => {
    const { con } = one();
    expect(con.exec(`etcdctl ${TLS} member add`).stderr).toBe('Error: member name not provided\n');
    expect(con.exec(`etcdctl ${TLS} member add x`).stderr).toBe('Error: member peer urls not provided\n');
    expect(con.exec(`etcdctl ${TLS} member remove`).stderr).toBe('Error: member ID is not provided\n');
    expect(con.exec(`etcdctl ${TLS} member promote zz`).stderr).toBe(
      'Error: bad member ID arg (strconv.ParseUint: parsing "zz": invalid syntax), expecting ID in Hex\n'
    );
    expect(con.exec(`etcdctl ${TLS} member remove 1234`).stderr).toBe(
      'Error: etcdserver: member not found\n'
    );
    expect(con.exec(`etcdctl ${TLS} member add x --peer-urls=https://10.0.0.10:2380 --learner`).stderr).toBe(
      'Error: etcdserver: Peer URLs already exists\n'
    );
  });

  it('promotes a joined learner and refuses to promote a voter', () => {
    const { cluster } = createCluster(readFileSync('scenarios/ha-failover.yaml', 'utf8'));
    cluster.runUntil(20_000);
    const con = new ConsoleSession(cluster);
    con.exec('ssh control-plane-1');
    const ids = con
      .exec(`etcdctl ${TLS} member list`)
      .stdout.trim()
      .split('\n')
      .map((r) => r.split(', ')[0]);
    expect(con.exec(`etcdctl ${TLS} member promote ${ids[1]}`).stderr).toBe(
      'Error: etcdserver: can only promote a learner member\n'
    );
    // Removing a voter from three leaves two of two: allowed while all three run.
    expect(con.exec(`etcdctl ${TLS} member remove ${ids[2]}`).exitCode).toBe(0);
    expect([cluster.etcd.voters, cluster.etcd.quorum]).toEqual([2, 2]);
    cluster.applyFault('StopEtcdMember', { target: 'etcd-1' });
    // Now 1 of 2 runs: no quorum, nothing can change the membership.
    expect(con.exec(`etcdctl ${TLS} member remove ${ids[1]}`).stderr).toContain(
      'Error: context deadline exceeded'
    );
  });
});
