/**
 * Active/standby control plane (component kind `leader-election`): one kube-scheduler and one
 * kube-controller-manager candidate per control-plane node, electing leaders through Leases. The
 * cluster's single `kube-scheduler` / `kube-controller-manager` components stand for "whichever
 * instance leads": while no instance leads they are stopped, and a new leader starts them again
 * (a standby starts its informers and controllers when it acquires the Lease).
 */
import { FaultError, defineComponent, defineFault, type Cluster, type Component } from '../cluster';
import type { Kubelet } from '../node/kubelet';
import { powerOff, powerOn } from '../node/nodeshutdown';
import type { SimEvent } from '../engine/engine';
import type { KubeObject } from '../api/types';
import { LEADER_ELECTION, tryAcquireOrRenew, type Candidate } from './leaderelection';

export const LE_ID = 'leader-election';
export const LE_KIND = 'leader-election';
export const ELECTED = ['kube-scheduler', 'kube-controller-manager'] as const;

export interface LeaderElectionArgs {
  /** Control-plane node names, e.g. control-plane-1..3. */
  hosts: string[];
}

interface State {
  candidates: Candidate[];
  /** Per candidate: bumped on restart so a tick chain from before the power-off ends. */
  epochs: number[];
  /** Components this module stopped because no instance led; restarted on the next acquire. */
  stoppedByElection: Record<string, boolean>;
}

interface Stoppable extends Component {
  stop(): void;
  restart?(): void;
  resume?(): void;
  readonly running: boolean;
}

export class LeaderElection implements Component {
  readonly id = LE_ID;
  readonly kind = LE_KIND;
  state: State;

  constructor(
    private cluster: Cluster,
    readonly args: LeaderElectionArgs
  ) {
    const candidates: Candidate[] = [];
    for (const lease of ELECTED) {
      for (const host of args.hosts) {
        candidates.push({
          lease,
          host,
          // Drawn in start(): a restore rebuilds components and must not consume random numbers.
          identity: '',
          alive: true,
          leading: false,
          lastRenew: null,
          observedRecord: '',
          observedTime: 0
        });
      }
    }
    this.state = { candidates, epochs: candidates.map(() => 0), stoppedByElection: {} };
  }

  start(): void {
    for (const c of this.state.candidates) c.identity = `${c.host}_${this.cluster.engine.random.uid()}`;
    // Instances start one after another in host order, so the first host wins the first election.
    this.state.candidates.forEach((_, i) => this.cluster.engine.schedule(0, this.id, 'tick', [i, 0]));
  }

  getState(): unknown {
    return structuredClone(this.state);
  }

  setState(s: unknown): void {
    this.state = structuredClone(s) as State;
  }

  /** The identity leading `lease` now, if any. */
  leader(lease: string): Candidate | undefined {
    return this.state.candidates.find((c) => c.lease === lease && c.leading);
  }

  handle(ev: SimEvent): void {
    if (ev.type !== 'tick') return;
    const [i, epoch] = ev.data as [number, number];
    const c = this.state.candidates[i];
    if (!c?.alive || this.state.epochs[i] !== epoch) return;
    const now = this.cluster.now;
    const outcome = tryAcquireOrRenew(this.cluster, c);
    if (c.leading) {
      if (outcome === 'renewed' || outcome === 'acquired') c.lastRenew = now;
      else if (outcome === 'held-by-other' || now - (c.lastRenew ?? now) >= LEADER_ELECTION.renewDeadlineMs) {
        // "failed to renew lease ...: timed out waiting for the condition" → leaderelection lost.
        this.lose(c);
      }
    } else if (outcome === 'acquired') {
      c.leading = true;
      c.lastRenew = now;
      this.event(c, 'became leader');
      this.apply(c.lease);
    }
    this.cluster.engine.schedule(this.period(c), this.id, 'tick', [i, epoch]);
  }

  /** Leaders renew every retryPeriod; candidates poll with JitterUntil(retryPeriod, 1.2). */
  private period(c: Candidate): number {
    if (c.leading) return LEADER_ELECTION.retryPeriodMs;
    const jitter = this.cluster.engine.random.next() * LEADER_ELECTION.jitterFactor;
    return Math.round(LEADER_ELECTION.retryPeriodMs * (1 + jitter));
  }

  private lose(c: Candidate): void {
    c.leading = false;
    c.lastRenew = null;
    this.event(c, 'stopped leading');
    // "leaderelection lost" ends the process; the kubelet restarts it with a new identity, so the
    // Lease it held is taken back only after it expires, like anyone else's.
    c.identity = `${c.host}_${this.cluster.engine.random.uid()}`;
    this.apply(c.lease);
  }

  private event(c: Candidate, what: string): void {
    const lease = this.cluster.api.tryGet<KubeObject>('Lease', 'kube-system', c.lease);
    if (!lease) return;
    this.cluster.recorder.event(lease, 'Normal', 'LeaderElection', `${c.identity} ${what}`, {
      component: c.lease,
      host: c.host
    });
  }

  /** Stop the component while nobody leads; start it again when someone does. */
  private apply(lease: string): void {
    const comp = this.cluster.component<Stoppable>(lease);
    if (!comp) return;
    if (!this.leader(lease)) {
      if (comp.running) {
        comp.stop();
        this.state.stoppedByElection[lease] = true;
      }
    } else if (this.state.stoppedByElection[lease]) {
      delete this.state.stoppedByElection[lease];
      if (comp.restart) comp.restart();
      else comp.resume?.();
    }
  }

  /** The control-plane node is down: its instances stop renewing and polling. */
  stopHost(host: string): void {
    const found = this.state.candidates.filter((c) => c.host === host);
    if (!found.length) throw new FaultError(`no control-plane node "${host}"`);
    for (const c of found) {
      c.alive = false;
      if (c.leading) {
        // A dead process releases nothing: the Lease simply stops being renewed.
        c.leading = false;
        c.lastRenew = null;
        this.apply(c.lease);
      }
    }
  }

  /** A control-plane host joined: its kube-scheduler and kube-controller-manager start as candidates. */
  addHost(host: string): void {
    if (this.args.hosts.includes(host)) return;
    this.args.hosts.push(host);
    for (const lease of ELECTED) {
      const i = this.state.candidates.length;
      this.state.candidates.push({
        lease,
        host,
        identity: `${host}_${this.cluster.engine.random.uid()}`,
        alive: true,
        leading: false,
        lastRenew: null,
        observedRecord: '',
        observedTime: 0
      });
      this.state.epochs.push(0);
      this.cluster.engine.schedule(0, this.id, 'tick', [i, 0]);
    }
  }

  startHost(host: string): void {
    const idx = this.state.candidates
      .map((c, i) => (c.host === host && !c.alive ? i : -1))
      .filter((i) => i >= 0);
    if (!idx.length) throw new FaultError(`no stopped control-plane node "${host}"`);
    for (const i of idx) {
      const c = this.state.candidates[i];
      c.alive = true;
      c.observedRecord = '';
      c.identity = `${c.host}_${this.cluster.engine.random.uid()}`;
      this.state.epochs[i]++;
      this.cluster.engine.schedule(0, this.id, 'tick', [i, this.state.epochs[i]]);
    }
  }
}

export const leaderElectionComponent = defineComponent(
  LE_KIND,
  (cluster: Cluster, args: LeaderElectionArgs) => new LeaderElection(cluster, args)
);

function elector(cluster: Cluster): LeaderElection {
  const le = cluster.component<LeaderElection>(LE_ID);
  if (!le) throw new FaultError('this cluster has a single control-plane node (no leader election)');
  return le;
}

/**
 * The machine's other processes: its kube-apiserver, (stacked) etcd member and its kubelet, whose
 * Node then goes NotReady and Unknown through the node lifecycle controller like any node's.
 */
function powerHost(cluster: Cluster, host: string, running: boolean): void {
  const kubelet = cluster.component<Kubelet>(`kubelet/${host}`);
  if (kubelet) {
    if (running) powerOn(kubelet);
    else if (!kubelet.host.state.poweredOff) powerOff(kubelet);
  }
  for (const a of cluster.apiServers) if (a.name === `kube-apiserver-${host}`) a.running = running;
  for (const m of cluster.etcd.members) {
    if (m.host !== host) continue;
    // A member whose disk failed (or was replaced empty) does not come back with its machine.
    if (running) {
      if (!cluster.etcd.startRefusal(m.name)) cluster.etcd.start(m.name);
    } else cluster.etcd.stop(m.name);
  }
}

export const faultStopControlPlaneNode = defineFault(
  'StopControlPlaneNode',
  'Power off a control-plane node: its kube-apiserver, stacked etcd member, kube-scheduler and kube-controller-manager stop; standbys take over when the Leases expire',
  (cluster, p) => {
    const host = String(p.target ?? '');
    elector(cluster).stopHost(host);
    powerHost(cluster, host, false);
  }
);

export const faultStartControlPlaneNode = defineFault(
  'StartControlPlaneNode',
  'Power a control-plane node back on: its processes start and its instances rejoin as candidates',
  (cluster, p) => {
    const host = String(p.target ?? '');
    elector(cluster).startHost(host);
    powerHost(cluster, host, true);
  }
);
