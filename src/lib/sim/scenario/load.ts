/**
 * Scenario files: a `kind: Scenario` document (cluster shape, settings, faults) followed by
 * ordinary Kubernetes objects. `loadScenario` parses and checks everything — YAML, schema,
 * quantities, fault targets, and the objects through a dry run of admission — and throws a
 * ScenarioError naming file, line and field for every problem, so a bad file never starts.
 */
import { Cluster } from '../cluster';
import { parseQuantity } from '../api/quantity';
import { parseDuration } from '../engine/duration';
import {
  applyManifests,
  checkManifestDoc,
  ManifestError,
  parseYamlDocuments,
  type ManifestIssue,
  type ParsedManifest
} from '../manifests';
import { checkSchema, scenarioSchema } from '../schemas';
import { checkScenarioSpec } from './checks';
import { scenarioConfig } from './config';
import { ScenarioError } from './errors';
import { buildKubeletArgs } from './nodes';
import type { Scenario, ScenarioSpec, ScheduledFault } from './types';
import type { ManagedProvider } from '../controlplane/managed';

/**
 * In a managed cluster every node pool is the provider's (its labels: flavours.ts); a pool naming
 * another provider is left as written for checkScenarioSpec to refuse. On AKS the pool created
 * with the cluster is a system pool, so the first pool is one unless some pool says its mode.
 */
function withProviderPools(spec: ScenarioSpec, p: ManagedProvider): ScenarioSpec {
  const pools = spec.nodePools ?? [];
  const modeGiven = pools.some((pool) => pool.provider?.mode !== undefined);
  return {
    ...spec,
    nodePools: pools.map((pool, i) => ({
      ...pool,
      provider: {
        ...pool.provider,
        flavour: pool.provider?.flavour ?? p,
        ...(p === 'aks' && !modeGiven && i === 0 ? { mode: 'system' as const } : {})
      }
    }))
  };
}

export const SCENARIO_API_VERSION = 'nodeplane.dev/v1alpha1';
/** `nodeplane run` without --until or spec.duration. */
export const DEFAULT_DURATION_MS = 600_000;

function toFaults(spec: ScenarioSpec): ScheduledFault[] {
  return (spec.faults ?? [])
    .map((f) => {
      const params: Record<string, unknown> = {};
      if (f.amount !== undefined) params.amount = f.amount;
      if (f.mode !== undefined) params.mode = f.mode;
      return {
        at: parseDuration(f.at),
        action: f.action,
        ...(f.target ? { target: f.target } : {}),
        ...(Object.keys(params).length ? { params } : {})
      };
    })
    .map((f, i) => ({ f, i }))
    .sort((a, b) => a.f.at - b.f.at || a.i - b.i)
    .map(({ f }) => f);
}

export function loadScenario(text: string, fileName: string): Scenario {
  const { docs, issues } = parseYamlDocuments(text, fileName);
  if (issues.length) throw new ScenarioError(issues);
  const head = docs[0];
  const value = head?.value as
    | {
        apiVersion?: string;
        kind?: string;
        metadata?: { name?: string; description?: string };
        spec?: ScenarioSpec;
      }
    | undefined;
  if (!head || !value || typeof value !== 'object' || value.kind !== 'Scenario') {
    throw new ScenarioError([
      {
        file: fileName,
        line: head?.start.line ?? 1,
        column: head?.start.column ?? 1,
        path: 'kind',
        message: `the first document must be the scenario: apiVersion: ${SCENARIO_API_VERSION}, kind: Scenario`
      }
    ]);
  }
  const at = (field: string, message: string, key = false): ManifestIssue => ({
    file: fileName,
    ...head.locate(field, { key }),
    path: field,
    message
  });
  for (const i of checkSchema(value, scenarioSchema)) {
    const p = head.locate(i.kind === 'required' ? i.path.slice(0, -1) : i.path, {
      key: i.kind === 'unknown'
    });
    issues.push({ file: fileName, ...p, path: i.field, message: i.message });
  }
  if (issues.length) throw new ScenarioError(issues);
  let spec = value.spec ?? {};
  const managed = spec.controlPlane?.managed;
  if (managed) spec = withProviderPools(spec, managed);
  for (const c of checkScenarioSpec(spec)) issues.push(at(c.field, `${c.field}: ${c.message}`));
  const objects: ParsedManifest[] = [];
  for (const d of docs.slice(1)) {
    if ((d.value as { kind?: string } | null)?.kind === 'Scenario') {
      issues.push({
        file: fileName,
        ...d.start,
        path: 'kind',
        message: 'only the first document may be a Scenario'
      });
      continue;
    }
    const m = checkManifestDoc(d, fileName, issues);
    if (m) objects.push(m);
  }
  if (issues.length) throw new ScenarioError(issues);

  const config = scenarioConfig(spec);
  const scenario: Scenario = {
    name: value.metadata!.name!,
    ...(value.metadata?.description ? { description: value.metadata.description } : {}),
    fileName,
    spec,
    config,
    duration: spec.duration !== undefined ? parseDuration(spec.duration) : DEFAULT_DURATION_MS,
    apiServers: spec.controlPlane?.apiServers ?? 1,
    etcd: {
      members: spec.controlPlane?.etcd?.members ?? 1,
      topology: spec.controlPlane?.etcd?.topology ?? 'stacked'
    },
    nodes: buildKubeletArgs(spec.nodePools ?? [], spec.kubelet?.maxPods as number | undefined),
    registryImages: (spec.registry?.images ?? []).map((i) => ({
      image: i.image,
      sizeBytes: Math.round(parseQuantity(i.size) / 1000)
    })),
    faults: toFaults(spec),
    objects
  };
  // Dry run of the objects through admission on a throwaway cluster with the same settings.
  try {
    applyManifests(new Cluster(structuredClone(config)), objects);
  } catch (e) {
    if (e instanceof ManifestError) throw new ScenarioError(e.issues);
    throw e;
  }
  return scenario;
}
