/**
 * The lab's worker loop at scale, in Node: the session host as the Web Worker runs it (tick, then
 * wait `TICK_MS`, or tick again at once while the simulation lags), every message
 * structured-cloned as postMessage does, at 60× on a scenario file. Prints the virtual speed
 * achieved over a wall window (and per 10 s), the wall time of the ticks, of the snapshots and of
 * cloning the frames it published.
 * Run alone: `npx tsx bench/lab-host.ts [scenario.yaml [wallSeconds [speed]]]`
 * (default scenarios/two-hundred-nodes.yaml, 30 s, 60×); `node --cpu-prof --import tsx …`
 * profiles it. `--jump [runs]` times a jump back at 100 nodes (below); `--settle [file [s]]` the
 * simulation alone until the cluster is up (at 200 nodes that is many minutes of CPU); `--boot
 * [file [s]]` the simulation alone over the scenario's first s virtual seconds (default 110: at
 * 200 nodes, while web's 2,200 pods start), CPU per 10 virtual s (`node --cpu-prof --import tsx
 * bench/lab-host.ts --boot` profiles that part of the boot). `--up [file [wallSeconds [speed]]]`
 * opens the lab on a recording at the virtual time the cluster is up (found first, without the
 * host) and measures the speed from there.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { SessionHost } from '../src/lib/sim/session/host';
import { DEFAULT_WARMUP_MS, type SessionMessage, type Speed } from '../src/lib/sim/session/protocol';
import { Cluster } from '../src/lib/sim/cluster';
import { createCluster } from '../src/lib/sim/scenario/bootstrap';
import { clusterUp } from '../src/lib/sim/session/warmup';
import { cpuSeconds, scenario as workloadScenario } from './workload';

const TICK_MS = 16;

export interface HostFigures {
  wallS: number;
  fromS: number;
  toS: number;
  speed: number;
  frames: number;
  /** Wall ms, summed over the window. */
  tickMs: number;
  snapshotMs: number;
  snapshots: number;
  cloneMs: number;
  longestTickMs: number;
  initMs: number;
  /** Achieved speed per 10 s of wall time. */
  windows: number[];
}

export async function measureHost(
  file: string,
  wallS: number,
  speed: Speed,
  /** Open on a recording at this virtual ms (the lab reopened on a cluster that is up) instead of the warm-up. */
  openAtMs?: number
): Promise<HostFigures> {
  const scenario = readFileSync(file, 'utf8');
  let cloneMs = 0;
  let frames = 0;
  const host = new SessionHost({
    post: (m: SessionMessage) => {
      const s = performance.now();
      structuredClone(m);
      cloneMs += performance.now() - s;
      if (m.type === 'frame') frames++;
    },
    wallClock: () => performance.now()
  });
  // Time spent in snapshots, measured around Cluster.prototype.snapshot.
  let snapshotMs = 0;
  let snapshots = 0;
  const snapshot = Cluster.prototype.snapshot;
  Cluster.prototype.snapshot = function (this: Cluster) {
    const s = performance.now();
    try {
      return snapshot.call(this);
    } finally {
      snapshotMs += performance.now() - s;
      snapshots++;
    }
  };
  let id = 0;
  const send = (command: unknown) => host.receive({ id: ++id, command });
  const i0 = performance.now();
  const fileName = basename(file);
  send({
    type: 'init',
    init:
      openAtMs === undefined
        ? { scenario, fileName, warmupMs: DEFAULT_WARMUP_MS }
        : { scenario, fileName, recording: { scenario, fileName, t: openAtMs, actions: [] } }
  });
  const initMs = performance.now() - i0;
  send({ type: 'speed', speed });
  const fromS = host.cluster!.now / 1000;
  snapshotMs = 0;
  snapshots = 0;
  cloneMs = 0;
  frames = 0;
  send({ type: 'play' });
  const start = performance.now();
  let tickMs = 0;
  let longest = 0;
  const windows: number[] = [];
  let mark: [number, number] = [start, host.cluster!.now];
  while (performance.now() - start < wallS * 1000) {
    if (performance.now() - mark[0] >= 10_000) {
      const now = performance.now();
      windows.push((host.cluster!.now - mark[1]) / (now - mark[0]));
      mark = [now, host.cluster!.now];
    }
    const s = performance.now();
    host.tick();
    const d = performance.now() - s;
    tickMs += d;
    longest = Math.max(longest, d);
    // As the worker does: the next tick at once while the simulation lags, else after TICK_MS.
    await new Promise((r) => (host.lagging ? setImmediate(r) : setTimeout(r, TICK_MS)));
  }
  const wall = (performance.now() - start) / 1000;
  const toS = host.cluster!.now / 1000;
  Cluster.prototype.snapshot = snapshot;
  return {
    wallS: wall,
    fromS,
    toS,
    speed: (toS - fromS) / wall,
    frames,
    tickMs,
    snapshotMs,
    snapshots,
    cloneMs,
    longestTickMs: longest,
    initMs,
    windows
  };
}

/** The virtual ms at which the scenario's cluster is up (every node Ready, no pod Pending), in 10 s steps. */
export function upAtMs(file: string): number {
  const { cluster } = createCluster(readFileSync(file, 'utf8'), { fileName: basename(file) });
  while (!clusterUp(cluster) && cluster.now < 900_000) cluster.runUntil(cluster.now + 10_000);
  return cluster.now;
}

/**
 * The simulation alone, no host: CPU per 10 virtual s from the scenario's start until every node
 * is Ready and no pod is Pending, then a steady window. Virtual s per CPU s is what 60× needs
 * (60 at least, with the page's and the frames' share on top).
 */
export function settleFigures(file: string, steadyS: number): string {
  const scenario = readFileSync(file, 'utf8');
  const c0 = cpuSeconds();
  const { cluster } = createCluster(scenario, { fileName: basename(file) });
  const lines = [`built in ${(cpuSeconds() - c0).toFixed(1)} s CPU`];
  let t = cpuSeconds();
  while (!clusterUp(cluster) && cluster.now < 900_000) {
    cluster.runUntil(cluster.now + 10_000);
    const c = cpuSeconds();
    lines.push(`t=${cluster.now / 1000}s: ${(10 / (c - t)).toFixed(1)} virtual s per CPU s`);
    t = c;
  }
  const up = cluster.now;
  const s0 = cpuSeconds();
  cluster.runUntil(up + steadyS * 1000);
  const steady = steadyS / (cpuSeconds() - s0);
  lines.push(
    `up at ${up / 1000} s after ${(s0 - c0).toFixed(1)} s CPU; steady ${steadyS} virtual s: ${steady.toFixed(0)} virtual s per CPU s`
  );
  return lines.join('\n');
}

/** The simulation alone over the first `untilS` virtual seconds: CPU s per 10 virtual s and in all. */
export function bootFigures(file: string, untilS: number): string {
  const scenario = readFileSync(file, 'utf8');
  const c0 = cpuSeconds();
  const { cluster } = createCluster(scenario, { fileName: basename(file) });
  const parts = [`built ${(cpuSeconds() - c0).toFixed(1)}`];
  let t = cpuSeconds();
  while (cluster.now < untilS * 1000) {
    cluster.runUntil(Math.min(cluster.now + 10_000, untilS * 1000));
    const c = cpuSeconds();
    parts.push(`${cluster.now / 1000}: ${(c - t).toFixed(1)}`);
    t = c;
  }
  const pods = cluster.api.list('Pod');
  const running = pods.filter((p) => p.status?.phase === 'Running').length;
  return (
    `${basename(file)}, first ${untilS} virtual s: ${(t - c0).toFixed(1)} s CPU (per 10 virtual s: ` +
    `${parts.join(', ')}); ${pods.length} pods, ${running} Running`
  );
}

/**
 * A time-travel jump as the lab's e2e test makes it (tests/e2e/lab-jump.spec.ts): 100 nodes /
 * 3,000 pods opened at 2 min, three "+1 minute", then back one minute. Wall ms of the jump's
 * parts in the host: the restore, the replay to the target, building the full frame and cloning
 * it (what postMessage does), and the frame's size as JSON. Every other run first gives the host
 * the idle time the worker gives it while paused (a spare restored ahead).
 */
export function jumpFigures(runs: number): string[] {
  const scenario = workloadScenario(100, 3000);
  const posted: SessionMessage[] = [];
  let snapshotTimes: number[] = [];
  const host = new SessionHost({
    post: (m) => {
      posted.push(m);
      if (m.type === 'frame' && m.snapshotTimes) snapshotTimes = m.snapshotTimes;
    },
    wallClock: () => performance.now()
  });
  let id = 0;
  const send = (command: unknown) => host.receive({ id: ++id, command });
  send({
    type: 'init',
    init: {
      scenario,
      fileName: 'hundred-nodes.yaml',
      recording: { scenario, fileName: 'hundred-nodes.yaml', t: 120_000, actions: [] }
    }
  });
  for (let i = 0; i < 3; i++) send({ type: 'advance', ms: 60_000 });
  let restoreMs = 0;
  const restore = Cluster.restore;
  Cluster.restore = (snap) => {
    const s = performance.now();
    try {
      return restore(snap);
    } finally {
      restoreMs += performance.now() - s;
    }
  };
  const out: string[] = [];
  for (let r = 0; r < runs; r++) {
    const from = host.cluster!.now;
    const times = snapshotTimes.map((t) => t / 1000);
    // Odd runs as the worker does them: idle time after the last command restores ahead.
    const idle = r % 2 === 1;
    const i0 = performance.now();
    if (idle) host.idle();
    const idleMs = performance.now() - i0;
    restoreMs = 0;
    posted.length = 0;
    const s = performance.now();
    const cpu0 = cpuSeconds();
    send({ type: 'jump', t: from - 60_000 });
    const total = performance.now() - s;
    const cpu = (cpuSeconds() - cpu0) * 1000;
    const frame = posted.find((m) => m.type === 'frame')!;
    const c = performance.now();
    structuredClone(frame);
    const clone = performance.now() - c;
    out.push(
      `${idle ? `with a spare restored ahead (idle ${idleMs.toFixed(0)} ms)` : 'without a spare'}: ` +
        `jump ${from / 1000} s → ${(from - 60_000) / 1000} s (snapshots ${times.join(',')}): host ${total.toFixed(0)} ms wall / ${cpu.toFixed(0)} ms CPU ` +
        `(restore ${restoreMs.toFixed(0)} ms, replay and frame ${(total - restoreMs).toFixed(0)} ms), clone ${clone.toFixed(0)} ms, ` +
        `frame ${(JSON.stringify(frame).length / 1e6).toFixed(2)} MB`
    );
    // Forward again for the next run.
    send({ type: 'advance', ms: 60_000 });
  }
  Cluster.restore = restore;
  return out;
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === '--jump') {
  for (const line of jumpFigures(Number(process.argv[3] ?? 4))) console.log(line);
} else if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === '--boot') {
  console.log(
    bootFigures(process.argv[3] ?? 'scenarios/two-hundred-nodes.yaml', Number(process.argv[4] ?? 110))
  );
} else if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === '--settle') {
  console.log(
    settleFigures(process.argv[3] ?? 'scenarios/two-hundred-nodes.yaml', Number(process.argv[4] ?? 120))
  );
} else if (import.meta.url === `file://${process.argv[1]}`) {
  // `--up`: first find when the cluster is up, then open the lab there (as a saved lab reopens).
  const up = process.argv[2] === '--up';
  const args = up ? process.argv.slice(3) : process.argv.slice(2);
  const file = args[0] ?? 'scenarios/two-hundred-nodes.yaml';
  const wallS = Number(args[1] ?? 30);
  const speed = (args[2] === 'max' ? 'max' : Number(args[2] ?? 60)) as Speed;
  const openAt = up ? upAtMs(file) : undefined;
  const f = await measureHost(file, wallS, speed, openAt);
  console.log(
    `${basename(file)} at ${speed}×: opened at ${f.fromS.toFixed(0)} s ${up ? '(the cluster up) ' : ''}after ${(f.initMs / 1000).toFixed(1)} s; ` +
      `${f.wallS.toFixed(1)} s wall → ${f.toS.toFixed(0)} s, achieved ${f.speed.toFixed(1)}×; ` +
      `per 10 s ${f.windows.map((w) => w.toFixed(1)).join(', ')}; ` +
      `ticks ${(f.tickMs / 1000).toFixed(1)} s (longest ${f.longestTickMs.toFixed(0)} ms), ` +
      `snapshots ${f.snapshots} ${(f.snapshotMs / 1000).toFixed(1)} s, frames ${f.frames} cloned in ${(f.cloneMs / 1000).toFixed(1)} s`
  );
}
