/**
 * The simulator as lessons use it: build the lesson's cluster from its scenario, run console
 * commands, apply YAML. Shared by the lesson player and `nodeplane lessons check`.
 */
import { ConsoleSession } from '../sim/kubectl/console';
import { applyManifests, parseManifests } from '../sim/manifests';
import { createCluster } from '../sim/scenario/bootstrap';
import type { Cluster } from '../sim/cluster';
import type { LessonRuntime } from './session';

/** One console per cluster, as in the lab: `ssh worker-1` in one step, `systemctl ...` in the next. */
const consoles = new WeakMap<Cluster, ConsoleSession>();

export const simRuntime: LessonRuntime = {
  createCluster(scenarioText, fileName) {
    return createCluster(scenarioText, { fileName }).cluster;
  },
  runCommand(cluster, line, files) {
    let console = consoles.get(cluster);
    if (!console) consoles.set(cluster, (console = new ConsoleSession(cluster, { files })));
    const r = console.exec(line);
    r.watch?.stop();
    return { output: r.stdout + r.stderr, exitCode: r.exitCode };
  },
  applyYaml(cluster, yamlText, fileName) {
    applyManifests(cluster, parseManifests(yamlText, fileName).objects);
  }
};
