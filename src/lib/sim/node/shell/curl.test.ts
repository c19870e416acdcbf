// /metrics of each component in a kubeadm cluster, read with curl from a control-plane host, and
// what a request without TLS verification or credentials gets.
// upstream: staging/src/k8s.io/apiserver/pkg/endpoints/metrics/metrics.go (apiserver_request_total,
//   apiserver_request_duration_seconds and its buckets)
// upstream: staging/src/k8s.io/component-base/metrics/prometheus/workqueue/metrics.go (workqueue_*)
// upstream: pkg/controller/nodelifecycle/metrics.go (node_collector_evictions_total)
// upstream: pkg/scheduler/metrics/metrics.go (scheduler_pending_pods, scheduler_schedule_attempts_total)
// upstream: pkg/kubelet/metrics/metrics.go (kubelet_node_name, kubelet_running_pods, kubelet_running_containers)
// upstream: server/storage/wal/metrics.go, server/storage/backend/metrics.go (etcd disk histograms)
// upstream: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go (forbidden message)
// upstream: kubernetes/kubernetes#138957 (kubeadm v1.35.5: the apiserver-kubelet-client certificate
//   carries no group; ClusterRoleBinding kubeadm:apiserver-kubelet-client → system:kubelet-api-admin)
// upstream: staging/src/k8s.io/kubectl/pkg/cmd/get/get.go (rawGet: `kubectl get --raw`)
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createCluster } from '../../scenario';
import { ConsoleSession } from '../../kubectl/console';
import { render } from '../../metrics/exposition';
import { targetAt } from '../../metrics/registry';
import type { Cluster } from '../../cluster';

/** What Prometheus reads from a component's /metrics (its own credentials: a bearer token). */
function page(cluster: Cluster, host: string, port: number): string {
  const t = targetAt(cluster, host, port);
  if (!t?.up) throw new Error(`nothing serves ${host}:${port}`);
  return render(t.families());
}

const CERT =
  '--cert /etc/kubernetes/pki/apiserver-kubelet-client.crt --key /etc/kubernetes/pki/apiserver-kubelet-client.key';

/**
 * three-nodes.yaml at 60 s: three workers and kubeadm's control-plane-1, whose kubelet registers
 * a Node, renews a Lease and keeps four mirror pods, so the counters count four kubelets' requests.
 */
function lab() {
  const { cluster } = createCluster(readFileSync('scenarios/three-nodes.yaml', 'utf8'));
  cluster.runUntil(60_000);
  const con = new ConsoleSession(cluster);
  con.exec('ssh control-plane-1');
  return { cluster, con };
}

describe('/metrics pages', () => {
  it('kube-controller-manager :10257', () => {
    expect(page(lab().cluster, 'control-plane-1', 10257)).toBe(
      [
        "# HELP leader_election_master_status [ALPHA] Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
        '# TYPE leader_election_master_status gauge',
        'leader_election_master_status{name="kube-controller-manager"} 1',
        '# HELP workqueue_adds_total [ALPHA] Total number of adds handled by workqueue',
        '# TYPE workqueue_adds_total counter',
        'workqueue_adds_total{name="daemonset"} 52',
        'workqueue_adds_total{name="deployment"} 24',
        'workqueue_adds_total{name="disruption"} 10',
        // A pod update queues its Services only when it may change an endpoint or the Services
        // that select it (GetServicesToUpdateOnPodChange), and the EndpointSlice controller's own
        // slice writes queue nothing (endpointSliceTracker.ShouldSync): pkg/controller/endpoint,
        // pkg/controller/endpointslice/endpointslice_controller.go.
        'workqueue_adds_total{name="endpoint"} 7',
        'workqueue_adds_total{name="endpoint_slice"} 7',
        'workqueue_adds_total{name="garbage_collector_attempt_to_delete"} 29',
        'workqueue_adds_total{name="node_lifecycle_controller"} 33',
        'workqueue_adds_total{name="noexec_taint_pod"} 59',
        'workqueue_adds_total{name="replicaset"} 33',
        '# HELP workqueue_depth [ALPHA] Current depth of workqueue',
        '# TYPE workqueue_depth gauge',
        'workqueue_depth{name="daemonset"} 0',
        'workqueue_depth{name="deployment"} 0',
        'workqueue_depth{name="disruption"} 0',
        'workqueue_depth{name="endpoint"} 0',
        'workqueue_depth{name="endpoint_slice"} 0',
        'workqueue_depth{name="garbage_collector_attempt_to_delete"} 0',
        'workqueue_depth{name="node_lifecycle_controller"} 0',
        'workqueue_depth{name="noexec_taint_pod"} 0',
        'workqueue_depth{name="replicaset"} 0'
      ].join('\n') + '\n'
    );
  });

  it('kube-scheduler :10259', () => {
    expect(page(lab().cluster, 'control-plane-1', 10259)).toBe(
      [
        "# HELP leader_election_master_status [ALPHA] Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
        '# TYPE leader_election_master_status gauge',
        'leader_election_master_status{name="kube-scheduler"} 1',
        "# HELP scheduler_pending_pods [STABLE] Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that the scheduler attempted to schedule and failed; 'gated' is the number of unschedulable pods that the scheduler never attempted to schedule because they are gated.",
        '# TYPE scheduler_pending_pods gauge',
        'scheduler_pending_pods{queue="active"} 0',
        'scheduler_pending_pods{queue="backoff"} 0',
        'scheduler_pending_pods{queue="gated"} 0',
        'scheduler_pending_pods{queue="unschedulable"} 0',
        "# HELP scheduler_schedule_attempts_total [STABLE] Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem.",
        '# TYPE scheduler_schedule_attempts_total counter',
        'scheduler_schedule_attempts_total{profile="default-scheduler",result="scheduled"} 17'
      ].join('\n') + '\n'
    );
  });

  it("a worker's kubelet :10250, reached at the node's address", () => {
    expect(lab().con.exec(`curl -sk ${CERT} https://10.0.0.11:10250/metrics`).stdout).toBe(
      [
        "# HELP kubelet_node_name [ALPHA] The node's name. The count is always 1.",
        '# TYPE kubelet_node_name gauge',
        'kubelet_node_name{node="worker-1"} 1',
        '# HELP kubelet_running_containers [ALPHA] Number of containers currently running',
        '# TYPE kubelet_running_containers gauge',
        'kubelet_running_containers{container_state="running"} 4',
        '# HELP kubelet_running_pods [ALPHA] Number of pods that have a running pod sandbox',
        '# TYPE kubelet_running_pods gauge',
        'kubelet_running_pods 4'
      ].join('\n') + '\n'
    );
  });

  it('etcd :2381 (plain HTTP on 127.0.0.1)', () => {
    expect(lab().con.exec('curl -s http://127.0.0.1:2381/metrics').stdout).toBe(
      [
        '# HELP etcd_disk_backend_commit_duration_seconds The latency distributions of commit called by backend.',
        '# TYPE etcd_disk_backend_commit_duration_seconds histogram',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="0.001"} 0',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="0.002"} 0',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="0.004"} 345',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="0.008"} 345',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="0.016"} 345',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="0.032"} 345',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="0.064"} 345',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="0.128"} 345',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="0.256"} 345',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="0.512"} 345',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="1.024"} 345',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="2.048"} 345',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="4.096"} 345',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="8.192"} 345',
        'etcd_disk_backend_commit_duration_seconds_bucket{le="+Inf"} 345',
        'etcd_disk_backend_commit_duration_seconds_sum 1.0350000000000001',
        'etcd_disk_backend_commit_duration_seconds_count 345',
        '# HELP etcd_disk_wal_fsync_duration_seconds The latency distributions of fsync called by WAL.',
        '# TYPE etcd_disk_wal_fsync_duration_seconds histogram',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="0.001"} 0',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="0.002"} 345',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="0.004"} 345',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="0.008"} 345',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="0.016"} 345',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="0.032"} 345',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="0.064"} 345',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="0.128"} 345',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="0.256"} 345',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="0.512"} 345',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="1.024"} 345',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="2.048"} 345',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="4.096"} 345',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="8.192"} 345',
        'etcd_disk_wal_fsync_duration_seconds_bucket{le="+Inf"} 345',
        'etcd_disk_wal_fsync_duration_seconds_sum 0.5175000000000001',
        'etcd_disk_wal_fsync_duration_seconds_count 345',
        '# HELP etcd_mvcc_db_total_size_in_bytes Total size of the underlying database physically allocated in bytes.',
        '# TYPE etcd_mvcc_db_total_size_in_bytes gauge',
        'etcd_mvcc_db_total_size_in_bytes 147456',
        '# HELP etcd_server_has_leader Whether or not a leader exists. 1 is existence, 0 is not.',
        '# TYPE etcd_server_has_leader gauge',
        'etcd_server_has_leader 1',
        '# HELP etcd_server_is_leader Whether or not this member is a leader. 1 if is, 0 otherwise.',
        '# TYPE etcd_server_is_leader gauge',
        'etcd_server_is_leader 1',
        '# HELP etcd_server_is_learner Whether or not this member is a learner. 1 if is, 0 otherwise.',
        '# TYPE etcd_server_is_learner gauge',
        'etcd_server_is_learner 0',
        '# HELP etcd_server_leader_changes_seen_total The number of leader changes seen.',
        '# TYPE etcd_server_leader_changes_seen_total counter',
        'etcd_server_leader_changes_seen_total 1'
      ].join('\n') + '\n'
    );
  });

  it('kube-apiserver :6443 (kubectl get --raw /metrics): request counts by code and the duration histogram with upstream buckets', () => {
    const con = lab().con;
    con.exec('exit');
    const raw = con.exec('kubectl get --raw /metrics');
    expect(raw.exitCode).toBe(0);
    const page = raw.stdout;
    const leases = page
      .split('\n')
      .filter((l) => l.includes('resource="leases"') && (!l.includes('_bucket') || l.includes('verb="PUT"')));
    expect(leases.join('\n') + '\n').toBe(
      [
        'apiserver_request_duration_seconds_sum{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="namespace",subresource="",verb="POST",version="v1"} 0.0710757507513051',
        'apiserver_request_duration_seconds_count{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="namespace",subresource="",verb="POST",version="v1"} 4',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="0.005"} 0',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="0.025"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="0.05"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="0.1"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="0.2"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="0.4"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="0.6"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="0.8"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="1"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="1.25"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="1.5"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="2"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="3"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="4"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="5"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="6"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="8"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="10"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="15"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="20"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="30"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="45"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="60"} 20',
        'apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1",le="+Inf"} 20',
        'apiserver_request_duration_seconds_sum{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1"} 0.35160249646029473',
        'apiserver_request_duration_seconds_count{component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1"} 20',
        'apiserver_request_total{code="200",component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="resource",subresource="",verb="PUT",version="v1"} 20',
        'apiserver_request_total{code="201",component="apiserver",dry_run="",group="coordination.k8s.io",resource="leases",scope="namespace",subresource="",verb="POST",version="v1"} 4'
      ].join('\n') + '\n'
    );
    expect(
      page.startsWith('# HELP apiserver_request_duration_seconds [STABLE] Response latency distribution')
    ).toBe(true);
  });
});

describe('reaching /metrics on a kubeadm cluster', () => {
  it('without -k curl refuses the certificates (the CA-signed one has no 127.0.0.1 SAN; the others are self-signed)', () => {
    const { con } = lab();
    const api = con.exec('curl https://127.0.0.1:6443/metrics');
    expect(api.exitCode).toBe(60);
    expect(api.stderr.split('\n')[0]).toBe(
      'curl: (60) SSL certificate problem: unable to get local issuer certificate'
    );
    expect(
      con.exec('curl -sS --cacert /etc/kubernetes/pki/ca.crt https://127.0.0.1:6443/metrics').stderr
    ).toMatch(
      /^curl: \(60\) SSL: no alternative certificate subject name matches target host name '127\.0\.0\.1'\n/
    );
    expect(con.exec('curl -sS https://127.0.0.1:10257/metrics').stderr).toMatch(
      /^curl: \(60\) SSL certificate problem: self-signed certificate in certificate chain\n/
    );
    // -s hides the error, the exit code stays.
    expect(con.exec('curl -s https://127.0.0.1:10259/metrics')).toEqual({
      stdout: '',
      stderr: '',
      exitCode: 60
    });
  });

  it('anonymous requests are forbidden (403) by the control plane and unauthorized (401) by the kubelet', () => {
    const { con } = lab();
    const forbidden = con.exec('curl -sk https://127.0.0.1:6443/metrics').stdout;
    expect(JSON.parse(forbidden)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'forbidden: User "system:anonymous" cannot get path "/metrics"',
      reason: 'Forbidden',
      details: {},
      code: 403
    });
    expect(con.exec('curl -sk https://127.0.0.1:10257/metrics').stdout).toBe(forbidden);
    expect(con.exec('curl -sk https://127.0.0.1:10259/metrics').stdout).toBe(forbidden);
    expect(con.exec('curl -sk https://10.0.0.11:10250/metrics').stdout).toBe('Unauthorized');
    // The health endpoints are always allowed (--authorization-always-allow-paths).
    expect(con.exec('curl -sk https://127.0.0.1:10257/healthz').stdout).toBe('ok');
  });

  it("kubeadm's apiserver-kubelet-client certificate reads the kubelet's API and nothing else", () => {
    const { con } = lab();
    // system:kubelet-api-admin: nodes/metrics, nodes/proxy … on the kubelet, no non-resource paths.
    expect(con.exec(`curl -sk ${CERT} https://10.0.0.11:10250/metrics`).stdout).toContain(
      'kubelet_node_name{node="worker-1"} 1\n'
    );
    for (const port of [6443, 10257, 10259]) {
      const r = con.exec(`curl -sk ${CERT} https://127.0.0.1:${port}/metrics`);
      expect(JSON.parse(r.stdout)).toMatchObject({
        message: 'forbidden: User "kube-apiserver-kubelet-client" cannot get path "/metrics"',
        code: 403
      });
    }
    // The console's kubectl is the cluster's admin (admin.conf): it reads the API server's page,
    // and a kubelet's through the API server's node proxy.
    con.exec('exit');
    expect(con.exec('kubectl get --raw /metrics').stdout).toMatch(
      /^# HELP apiserver_request_duration_seconds/
    );
    // a web pod, log-agent and the kube-system pods on worker-1 (kube-proxy, the CNI agent); CoreDNS
    // went to control-plane-1, which its tolerations allow
    expect(con.exec('kubectl get --raw /api/v1/nodes/worker-1/proxy/metrics').stdout).toContain(
      'kubelet_running_pods 4\n'
    );
    expect(con.exec('kubectl get --raw /readyz').stdout).toBe('ok');
    expect(con.exec('kubectl get --raw /api/v1/nodes/nope/proxy/metrics').stderr).toBe(
      'Error from server (NotFound): nodes "nope" not found\n'
    );
    expect(con.exec('kubectl get --raw /nope').stderr).toBe(
      'Error from server (NotFound): the server could not find the requested resource\n'
    );
    expect(con.exec('kubectl get pods --raw /metrics').stderr).toBe(
      'error: arguments may not be passed when --raw is specified\n'
    );
  });

  it('plain HTTP to a TLS port, a port nobody listens on, a missing client certificate', () => {
    const { con } = lab();
    expect(con.exec('curl -s http://127.0.0.1:10259/metrics').stdout).toBe(
      'Client sent an HTTP request to an HTTPS server.\n'
    );
    expect(con.exec('curl -sS http://127.0.0.1:9090/metrics').stderr).toBe(
      "curl: (7) Failed to connect to 127.0.0.1 port 9090 after 0 ms: Couldn't connect to server\n"
    );
    const missing = con.exec(
      'curl -sSk --cert /root/admin.crt --key /root/admin.key https://127.0.0.1:6443/metrics'
    );
    expect(missing.exitCode).toBe(58);
    expect(missing.stderr).toContain('could not load PEM client certificate from /root/admin.crt');
  });

  it('a stopped component stops answering, and a standby reports only its leader-election status', () => {
    const { cluster, con } = lab();
    cluster.applyFault('StopScheduler', {});
    expect(con.exec(`curl -sSk ${CERT} https://127.0.0.1:10259/metrics`).exitCode).toBe(7);
    const { cluster: ha } = createCluster(readFileSync('scenarios/ha-failover.yaml', 'utf8'));
    ha.runUntil(30_000);
    expect(page(ha, 'control-plane-2', 10257)).toBe(
      [
        "# HELP leader_election_master_status [ALPHA] Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
        '# TYPE leader_election_master_status gauge',
        'leader_election_master_status{name="kube-controller-manager"} 0'
      ].join('\n') + '\n'
    );
  });
});
