/**
 * Scheduler throughput with the default profile (pods/s), for 500 nodes / 15,000 pods and for
 * 5,000 nodes / 150,000 pods (the official scalability limits). Each pod goes through the full
 * cycle: PreFilter, Filter over percentageOfNodesToScore's share, PreScore, Score, Normalize,
 * selectHost and the bind into the cache. Run alone: `npx tsx bench/scheduler.ts`.
 */
import type { KubeObject } from '../src/lib/sim/api/types';
import { Random } from '../src/lib/sim/engine/random';
import { SchedulerCache } from '../src/lib/sim/scheduler/cache';
import { defaultSchedulerConfig } from '../src/lib/sim/scheduler/config';
import { Framework } from '../src/lib/sim/scheduler/framework';
import { newPodInfo } from '../src/lib/sim/scheduler/nodeinfo';
import { scheduleOne } from '../src/lib/sim/scheduler/schedule-one';

const ZONES = ['zone-a', 'zone-b', 'zone-c'];
/** Issue #21: pods per CPU second with the default profile, at every size. */
export const TARGET_PODS_PER_CPU_SECOND = 15_000;

function makeNode(i: number): KubeObject {
  const name = `node-${i}`;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': ZONES[i % ZONES.length] }
    },
    spec: {},
    status: {
      allocatable: { cpu: '32', memory: '128Gi', 'ephemeral-storage': '200Gi', pods: '110' },
      images: [{ names: ['registry.k8s.io/pause:3.10'], sizeBytes: 320_000 }]
    }
  };
}

function makePod(i: number, rnd: Random): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace: 'default', labels: { app: `app-${i % 50}` } },
    spec: {
      priority: 0,
      containers: [
        {
          name: 'app',
          image: `registry.example/app-${i % 50}:1.0`,
          resources: {
            requests: { cpu: `${100 + rnd.int(5) * 100}m`, memory: `${128 * (1 + rnd.int(4))}Mi` }
          }
        }
      ]
    }
  };
}

interface Figures {
  nodes: number;
  pods: number;
  scheduled: number;
  seconds: number;
  cpuSeconds: number;
  peakRssMiB: number;
  peakHeapMiB: number;
}

function measure(numNodes: number, numPods: number): Figures {
  const rnd = new Random(42);
  const cache = new SchedulerCache({ minor: 35 });
  for (let i = 0; i < numNodes; i++) cache.upsertNode(makeNode(i));
  const fw = new Framework(defaultSchedulerConfig().profiles[0], 35);
  const pods: KubeObject[] = [];
  for (let i = 0; i < numPods; i++) pods.push(makePod(i, rnd));
  let peakHeap = process.memoryUsage().heapUsed;
  let next = 0;
  let scheduled = 0;
  const started = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < numPods; i++) {
    const r = scheduleOne(fw, cache.handle, newPodInfo(pods[i]), {
      nextStartNodeIndex: next,
      minor: 35,
      randomInt: (n) => rnd.int(n),
      explain: false,
      now: 0,
      bind: (p, node) => {
        cache.assume(p, node);
        return null;
      }
    });
    next = r.nextStartNodeIndex;
    if (r.selectedNode) scheduled++;
    if ((i & 4095) === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  return {
    nodes: numNodes,
    pods: numPods,
    scheduled,
    seconds,
    cpuSeconds,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    peakHeapMiB: peakHeap / 2 ** 20
  };
}

export async function run(): Promise<string[]> {
  const lines: string[] = [];
  const sizes = (process.env.SCHEDULER_BENCH_SIZES ?? '500x15000,5000x150000').split(',');
  for (const size of sizes) {
    const [n, p] = size.split('x').map(Number);
    const f = measure(n, p);
    // CPU time is reported too: on a shared machine wall time also measures the neighbours.
    const perCpu = Math.round(f.scheduled / f.cpuSeconds);
    lines.push(
      `default profile, ${f.nodes} nodes / ${f.pods} pods: ${f.scheduled} scheduled in ${f.seconds.toFixed(2)} s wall ` +
        `(${f.cpuSeconds.toFixed(2)} s CPU) = ${Math.round(f.scheduled / f.seconds)} pods/s wall, ` +
        `${perCpu} pods/s CPU (target ≥ ${TARGET_PODS_PER_CPU_SECOND.toLocaleString('en')}: ${perCpu >= TARGET_PODS_PER_CPU_SECOND ? 'met' : 'NOT met'}) ` +
        `(peak RSS ${f.peakRssMiB.toFixed(0)} MiB, peak heap ${f.peakHeapMiB.toFixed(0)} MiB)`
    );
  }
  return lines;
}

if (import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  for (const line of await run()) console.log(line);
}
