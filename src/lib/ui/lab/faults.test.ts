import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SessionHost } from '$lib/sim/session/host';
import type { FrameMessage, SessionMessage } from '$lib/sim/session/protocol';
import type { NodeView } from '$lib/sim/observe';
import { setLocale, t } from '$lib/i18n/index.svelte';
import { clusterFaults, controlPlaneFaults, nodeFaults, sameAs } from './faults';

const THREE_NODES = readFileSync(new URL('../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');

function session() {
  const out: SessionMessage[] = [];
  const host = new SessionHost({ post: (m) => out.push(structuredClone(m)), wallClock: () => 0 });
  let id = 0;
  const send = (command: Record<string, unknown>) => host.receive({ id: ++id, command });
  send({ type: 'init', init: { scenario: THREE_NODES, fileName: 'three-nodes.yaml', warmupMs: 60_000 } });
  const nodes = new Map<string, NodeView>();
  const view = () => {
    for (const m of out)
      if (m.type === 'frame') for (const n of (m as FrameMessage).nodes ?? []) nodes.set(n.name, n);
    return [...nodes.values()];
  };
  return { host, send, view, out };
}

describe('the kube-proxy mode in the fault menu', () => {
  it('offers the other modes per node and for all nodes, each with its real command', () => {
    const { view } = session();
    const w1 = view().find((n) => n.name === 'worker-1')!;
    expect(w1.kubeProxy).toEqual({ mode: 'iptables', running: true });
    const proxy = nodeFaults(w1, 'calico').filter((f) => f.action === 'SetProxyMode');
    expect(proxy.map((f) => [f.mode, t(f.name.key, { ...f.name.args, action: t(f.key) })])).toEqual([
      ['ipvs', 'Restart kube-proxy in ipvs mode on worker-1'],
      ['nftables', 'Restart kube-proxy in nftables mode on worker-1']
    ]);
    expect(sameAs(proxy[1])).toBe(
      'kubectl edit configmap kube-proxy -n kube-system  # mode: nftables; kubectl -n kube-system delete pod -l k8s-app=kube-proxy --field-selector spec.nodeName=worker-1'
    );
    const all = clusterFaults(view());
    expect(sameAs(all[0])).toBe(
      'kubectl edit configmap kube-proxy -n kube-system  # mode: ipvs; kubectl -n kube-system rollout restart daemonset kube-proxy'
    );
    expect(all.map((f) => [f.target, f.mode])).toEqual([
      ['all', 'ipvs'],
      ['all', 'nftables']
    ]);
  });

  it('the "all nodes" control switches every node through the session, and the map shows it', () => {
    const { host, send, view, out } = session();
    send({ type: 'fault', action: 'SetProxyMode', target: 'all', mode: 'nftables' });
    expect(out.filter((m) => m.type === 'reply').at(-1)).toMatchObject({ ok: true, result: {} });
    // control-plane-1 runs kube-proxy too
    expect(view().map((n) => n.kubeProxy?.mode)).toEqual(['nftables', 'nftables', 'nftables', 'nftables']);
    expect(host.cluster!.faultLog.at(-1)).toMatchObject({ action: 'SetProxyMode', target: 'all' });
    // Recorded with its mode, so a replay redoes it.
    send({ type: 'recording' });
    const rec = (out.filter((m) => m.type === 'reply').at(-1) as { result: { actions: unknown[] } }).result;
    expect(rec.actions).toEqual([
      { kind: 'fault', action: 'SetProxyMode', target: 'all', mode: 'nftables', t: expect.any(Number) }
    ]);
    expect(clusterFaults(view()).map((f) => f.mode)).toEqual(['iptables', 'ipvs']);
  });
});

describe("fault buttons name themselves in the learner's language", () => {
  const name = (f: { key: string; name: { key: string; args: Record<string, string> } }) =>
    t(f.name.key, { ...f.name.args, action: t(f.key) });

  it('names node and control-plane faults in English and in Russian', async () => {
    const { view } = session();
    const w1 = view().find((n) => n.name === 'worker-1')!;
    await setLocale('en');
    expect(nodeFaults(w1, 'calico').map(name).slice(0, 3)).toEqual([
      'Stop kubelet on worker-1',
      'Stop container runtime on worker-1',
      'Partition node on worker-1'
    ]);
    expect(clusterFaults(view()).map(name)).toEqual([
      'Restart kube-proxy in ipvs mode on all nodes',
      'Restart kube-proxy in nftables mode on all nodes'
    ]);
    await setLocale('ru');
    expect(nodeFaults(w1, 'calico').map(name).slice(0, 3)).toEqual([
      'Остановить kubelet: worker-1',
      'Остановить среду выполнения: worker-1',
      'Изолировать узел: worker-1'
    ]);
    expect(clusterFaults(view()).map(name)[0]).toBe('Перезапустить kube-proxy в режиме ipvs на всех узлах');
    const cp = controlPlaneFaults({
      etcd: { members: [{ name: 'etcd-1', running: true }] },
      scheduler: { present: true, running: false },
      controllerManager: { present: false, running: false }
    } as unknown as Parameters<typeof controlPlaneFaults>[0]);
    expect(cp.map(name)).toEqual([
      'Остановить член etcd etcd-1',
      'Замедлить диск etcd etcd-1',
      'Вывести из строя диск etcd etcd-1',
      'Запустить планировщик'
    ]);
    expect(sameAs(cp[1])).toBe(
      '# такой команды нет: диск члена etcd-1 начинает отказывать, fsync журнала WAL длится 1,2 с'
    );
    // The "Same as:" notes are the learner's language too; the commands stay as typed.
    expect(sameAs(cp[0])).toBe('sudo mv /etc/kubernetes/manifests/etcd.yaml /root/  # на хосте etcd-1');
    expect(sameAs(clusterFaults(view())[0])).toBe(
      'kubectl edit configmap kube-proxy -n kube-system  # mode: ipvs; затем kubectl -n kube-system rollout restart daemonset kube-proxy'
    );
    await setLocale('en');
  });
});

describe('control-plane faults', () => {
  const cp = {
    apiServers: [{ name: 'kube-apiserver', running: true }],
    etcd: { members: [{ name: 'etcd-0', running: true, leader: true }], quorum: true, need: 1 },
    scheduler: { present: true, running: true },
    controllerManager: { present: true, running: true }
  };
  it('a kubeadm control plane offers its static pods to stop, each with the manifest move', () => {
    expect(controlPlaneFaults(cp).map((f) => [f.action, sameAs(f)])).toEqual([
      ['StopEtcdMember', "sudo mv /etc/kubernetes/manifests/etcd.yaml /root/  # on etcd-0's host"],
      [
        'SlowEtcdDisk',
        '# no command does this: the disk under etcd-0 starts failing, its WAL fsyncs take 1.2 s'
      ],
      [
        'FailEtcdDisk',
        '# no command does this: the disk under etcd-0 dies, its WAL writes fail with I/O errors and etcd exits'
      ],
      ['StopScheduler', 'sudo mv /etc/kubernetes/manifests/kube-scheduler.yaml /root/'],
      ['StopControllerManager', 'sudo mv /etc/kubernetes/manifests/kube-controller-manager.yaml /root/']
    ]);
  });
  it('a failing disk is offered its replacement, per member', () => {
    const slow = {
      ...cp,
      etcd: {
        ...cp.etcd,
        members: [{ name: 'etcd-0', running: true, leader: true, diskSlow: true as const }]
      }
    };
    expect(controlPlaneFaults(slow).map((f) => [f.action, f.target, sameAs(f)])[1]).toEqual([
      'FixEtcdDisk',
      'etcd-0',
      '# no command does this: the disk under etcd-0 is replaced, its fsyncs are fast again'
    ]);
  });
  it('a failed disk is offered a new disk, and a member on a new, empty disk its removal and re-addition', () => {
    const member = (extra: Record<string, true>) => ({
      ...cp,
      etcd: { ...cp.etcd, members: [{ name: 'etcd-0', running: false, leader: false, ...extra }] }
    });
    const etcdOnly = (v: typeof cp) =>
      controlPlaneFaults(v)
        .filter((f) => f.target === 'etcd-0')
        .map((f) => [f.action, sameAs(f)]);
    expect(etcdOnly(member({ diskFailed: true }))).toEqual([
      [
        'ReplaceEtcdDisk',
        '# no command does this: a new, empty disk goes in under etcd-0; etcd will not start on it while the member is still in the membership'
      ]
    ]);
    expect(etcdOnly(member({ dataLost: true }))).toEqual([
      [
        'RejoinEtcdMember',
        "# on a healthy member: etcdctl member remove with etcd-0's ID, etcdctl member add etcd-0 --peer-urls=https://<its host's IP>:2380; then start etcd on etcd-0's host"
      ]
    ]);
  });
  it('a joining learner is offered nothing until kubeadm has promoted it', () => {
    const joining = {
      ...cp,
      etcd: {
        ...cp.etcd,
        members: [
          ...cp.etcd.members,
          { name: 'etcd-1', running: false, leader: false, learner: true as const }
        ]
      }
    };
    expect(controlPlaneFaults(joining).filter((f) => f.target === 'etcd-1')).toEqual([]);
  });
  it("a managed control plane (EKS, GKE, AKS) offers none: it is the provider's", () => {
    for (const managed of ['eks', 'gke', 'aks'] as const)
      expect(controlPlaneFaults({ ...cp, managed })).toEqual([]);
  });
});

describe('the kube-proxy mode where kube-proxy is a systemd unit', () => {
  const SYSTEMD = readFileSync(
    new URL('../../../../scenarios/kube-proxy-systemd.yaml', import.meta.url),
    'utf8'
  );
  it('"Same as:" names the node file and the unit restart, and running them switches the node', async () => {
    const out: SessionMessage[] = [];
    const host = new SessionHost({ post: (m) => out.push(structuredClone(m)), wallClock: () => 0 });
    let id = 0;
    const send = (command: Record<string, unknown>) => host.receive({ id: ++id, command });
    send({
      type: 'init',
      init: { scenario: SYSTEMD, fileName: 'kube-proxy-systemd.yaml', warmupMs: 60_000 }
    });
    const nodes = new Map<string, NodeView>();
    for (const m of out)
      if (m.type === 'frame') for (const n of (m as FrameMessage).nodes ?? []) nodes.set(n.name, n);
    const w1 = nodes.get('worker-1')!;
    expect(w1.kubeProxy).toEqual({ mode: 'iptables', running: true, unit: true });
    const ipvs = nodeFaults(w1, 'calico').find((f) => f.action === 'SetProxyMode' && f.mode === 'ipvs')!;
    expect(sameAs(ipvs)).toBe(
      `ssh worker-1 "sudo sed -i 's/mode: .*/mode: ipvs/' /var/lib/kube-proxy/config.conf"  # then ssh worker-1 sudo systemctl restart kube-proxy`
    );
    expect(sameAs(clusterFaults([...nodes.values()])[0])).toBe(
      `sudo sed -i 's/mode: .*/mode: ipvs/' /var/lib/kube-proxy/config.conf  # on every node, then sudo systemctl restart kube-proxy`
    );
    await setLocale('ru');
    expect(sameAs(ipvs)).toBe(
      `ssh worker-1 "sudo sed -i 's/mode: .*/mode: ipvs/' /var/lib/kube-proxy/config.conf"  # затем ssh worker-1 sudo systemctl restart kube-proxy`
    );
    await setLocale('en');
    // The command and the note's restart, typed in the console, do what the button does.
    const { createCluster } = await import('$lib/sim/scenario');
    const { ConsoleSession } = await import('$lib/sim/kubectl/console');
    const { kubeProxyOf } = await import('$lib/sim/network/kubeproxy');
    const cluster = createCluster(SYSTEMD, { fileName: 'kube-proxy-systemd.yaml' }).cluster;
    cluster.runUntil(60_000);
    const con = new ConsoleSession(cluster, {});
    expect(con.exec(ipvs.command)).toMatchObject({ stderr: '', exitCode: 0 });
    expect(con.exec('ssh worker-1 sudo systemctl restart kube-proxy')).toMatchObject({
      stderr: '',
      exitCode: 0
    });
    cluster.runUntil(61_000);
    expect(kubeProxyOf(cluster, 'worker-1')!.state.programmedMode).toBe('ipvs');
    expect(kubeProxyOf(cluster, 'worker-2')!.state.programmedMode).toBe('iptables');
  });
});
