// kubeadm join --control-plane on a single-master kubeadm cluster (lesson 14's): the etcd member
// joins as a learner and is promoted, quorum grows 1 → 2, the slow disk is outvoted.
// upstream: cmd/kubeadm/app/phases/etcd/local.go (CreateStackedEtcdStaticPodManifestFile:
//   AddMemberAsLearner, --initial-cluster-state=existing, MemberPromote; CheckLocalEtcdClusterStatus)
// upstream: server/etcdserver/server.go (isReadyToAddVotingMember with --strict-reconfig-check)
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createCluster } from '../scenario';
import { ConsoleSession } from '../kubectl/console';
import { staticPods } from '../etcd/staticpods';
import { targets } from '../metrics/registry';
import { LE_ID } from './component';

const TLS =
  '--cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key';

function single() {
  const { cluster } = createCluster(readFileSync('lessons/14-watch-control-plane/scenario.yaml', 'utf8'));
  cluster.runUntil(20_000);
  const con = new ConsoleSession(cluster);
  con.exec('ssh control-plane-1');
  const list = () =>
    con
      .exec(`etcdctl ${TLS} member list`)
      .stdout.trim()
      .split('\n')
      .map((r) => r.split(', ').slice(1));
  return { cluster, con, list };
}

describe('JoinControlPlaneNode (kubeadm join --control-plane)', () => {
  it('adds the member as a learner, starts it a second later and promotes it', () => {
    const { cluster, list } = single();
    cluster.applyFault('JoinControlPlaneNode');
    // AddMemberAsLearner: in the membership, no process yet, not counted in quorum.
    expect(list()).toEqual([
      ['started', 'control-plane-1', 'https://10.0.0.10:2380', 'https://10.0.0.10:2379', 'false'],
      ['unstarted', '', 'https://10.0.0.3:2380', '', 'true']
    ]);
    expect([cluster.etcd.voters, cluster.etcd.quorum]).toEqual([1, 1]);
    cluster.runUntil(21_500);
    // The kubelet started etcd from the new etcd.yaml: a started learner.
    expect(list()[1]).toEqual([
      'started',
      'control-plane-2',
      'https://10.0.0.3:2380',
      'https://10.0.0.3:2379',
      'true'
    ]);
    cluster.runUntil(24_000);
    expect(list()[1][4]).toBe('false');
    expect([cluster.etcd.voters, cluster.etcd.quorum, cluster.etcd.faultTolerance]).toEqual([2, 2, 0]);
  });

  it('grows to three members: quorum 2, one failure tolerated, three API servers and leader election', () => {
    const { cluster, list } = single();
    cluster.applyFault('JoinControlPlaneNode');
    cluster.runUntil(25_000);
    cluster.applyFault('JoinControlPlaneNode');
    cluster.runUntil(30_000);
    expect(list().map((r) => [r[0], r[1], r[3], r[4]])).toEqual([
      ['started', 'control-plane-1', 'https://10.0.0.10:2379', 'false'],
      ['started', 'control-plane-2', 'https://10.0.0.3:2379', 'false'],
      ['started', 'control-plane-3', 'https://10.0.0.4:2379', 'false']
    ]);
    expect([cluster.etcd.voters, cluster.etcd.quorum, cluster.etcd.faultTolerance]).toEqual([3, 2, 1]);
    expect(cluster.apiServers).toEqual([
      { name: 'kube-apiserver-control-plane-1', running: true },
      { name: 'kube-apiserver-control-plane-2', running: true },
      { name: 'kube-apiserver-control-plane-3', running: true }
    ]);
    expect(cluster.component(LE_ID)).toBeDefined();
    expect(staticPods(cluster)!.hosts).toEqual(['control-plane-1', 'control-plane-2', 'control-plane-3']);
    // Prometheus scrapes the new members' metrics listeners.
    expect(
      targets(cluster)
        .filter((t) => t.job === 'etcd')
        .map((t) => [t.instance, t.up])
    ).toEqual([
      ['10.0.0.10:2381', true],
      ['10.0.0.3:2381', true],
      ['10.0.0.4:2381', true]
    ]);
  });

  it("writes the joining member's etcd.yaml with every member and --initial-cluster-state=existing", () => {
    const { cluster, con } = single();
    cluster.applyFault('JoinControlPlaneNode');
    con.exec('exit');
    con.exec('ssh control-plane-2');
    const yaml = con.exec('cat /etc/kubernetes/manifests/etcd.yaml').stdout;
    expect(yaml).toContain(
      '    - --initial-cluster=control-plane-1=https://10.0.0.10:2380,control-plane-2=https://10.0.0.3:2380\n    - --initial-cluster-state=existing\n'
    );
    expect(yaml).toContain('    - --name=control-plane-2\n');
    expect(con.exec('ls /etc/kubernetes/manifests').stdout).toBe(
      'etcd.yaml  kube-apiserver.yaml  kube-controller-manager.yaml  kube-scheduler.yaml\n'
    );
  });

  it('with three members the failing disk is outvoted: writes wait for the quorum’s fast disks', () => {
    const { cluster } = single();
    cluster.runUntil(61_000); // SlowEtcdDisk on etcd-0 at 60s
    expect(cluster.etcd.commitWaitMs()).toBe(1200);
    cluster.applyFault('JoinControlPlaneNode');
    cluster.runUntil(65_000);
    // Two voters, one slow: quorum 2 needs the slow disk too.
    expect(cluster.etcd.commitWaitMs()).toBe(1200);
    cluster.applyFault('JoinControlPlaneNode');
    cluster.runUntil(70_000);
    expect(cluster.etcd.commitWaitMs()).toBe(1.5);
  });

  it('a second join at the same moment waits for the first learner to be promoted (one learner at a time)', () => {
    const { cluster, list } = single();
    cluster.applyFault('JoinControlPlaneNode');
    cluster.applyFault('JoinControlPlaneNode');
    // The second one could not add its member yet: etcd's --max-learners is 1.
    expect(cluster.etcd.size).toBe(2);
    cluster.runUntil(30_000);
    expect(list().map((r) => [r[1], r[4]])).toEqual([
      ['control-plane-1', 'false'],
      ['control-plane-2', 'false'],
      ['control-plane-3', 'false']
    ]);
    expect([cluster.etcd.voters, cluster.etcd.quorum]).toEqual([3, 2]);
  });

  it('refuses to join while an etcd member is down, and changes nothing', () => {
    const { cluster } = createCluster(readFileSync('scenarios/ha-failover.yaml', 'utf8'));
    cluster.runUntil(20_000);
    cluster.applyFault('StopEtcdMember', { target: 'etcd-2' });
    expect(() => cluster.applyFault('JoinControlPlaneNode')).toThrow(
      'error execution phase check-etcd: etcd cluster is not healthy: failed to dial endpoint https://10.0.0.4:2379 with maintenance client: context deadline exceeded'
    );
    expect(cluster.etcd.size).toBe(3);
    expect(staticPods(cluster)!.hosts).toHaveLength(3);
    expect(() => cluster.applyFault('JoinControlPlaneNode', { target: 'control-plane-1' })).toThrow(
      'a node with name "control-plane-1" already exists in the cluster'
    );
    expect(() => cluster.applyFault('JoinControlPlaneNode', { target: 'Bad_Name' })).toThrow(
      '"Bad_Name" is not a valid node name'
    );
  });

  it('is deterministic: the same joins give the same event log after a snapshot and restore', async () => {
    const { Cluster } = await import('../cluster');
    const a = single().cluster;
    a.applyFault('JoinControlPlaneNode');
    a.runUntil(22_000);
    const snap = a.snapshot();
    const b = Cluster.restore(JSON.parse(JSON.stringify(snap)));
    a.runUntil(40_000);
    b.runUntil(40_000);
    expect(JSON.stringify(b.eventLog)).toBe(JSON.stringify(a.eventLog));
    expect(b.etcd.voters).toBe(2);
  });
});
