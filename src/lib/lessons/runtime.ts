/**
 * The simulator as lessons use it: build the lesson's cluster from its scenario, run console
 * commands, apply YAML. Shared by the lesson player and `nodeplane lessons check`.
 */
import { ConsoleSession } from '../sim/kubectl/console';
import { applyManifests, parseManifests } from '../sim/manifests';
import { createCluster } from '../sim/scenario/bootstrap';
import '../sim/scenario/components';
import type { LessonRuntime } from './session';

export const simRuntime: LessonRuntime = {
  createCluster(scenarioText, fileName) {
    return createCluster(scenarioText, { fileName }).cluster;
  },
  runCommand(cluster, line, files) {
    const r = new ConsoleSession(cluster, { files }).exec(line);
    return { output: r.stdout + r.stderr, exitCode: r.exitCode };
  },
  applyYaml(cluster, yamlText, fileName) {
    applyManifests(cluster, parseManifests(yamlText, fileName).objects);
  }
};
