/**
 * The in-tree plugin registry: names as upstream, the extension points each implements, its
 * args kind with defaults and validation (pkg/scheduler/apis/config/validation).
 */
import type { ExtensionPoint, Plugin } from './types';
import * as NodeUnschedulable from './plugins/NodeUnschedulable';
import * as NodeName from './plugins/NodeName';
import * as TaintToleration from './plugins/TaintToleration';
import * as NodeAffinity from './plugins/NodeAffinity';
import * as NodePorts from './plugins/NodePorts';
import * as NodeResourcesFit from './plugins/NodeResourcesFit';
import * as BalancedAllocation from './plugins/NodeResourcesBalancedAllocation';
import * as ImageLocality from './plugins/ImageLocality';
import * as PodTopologySpread from './plugins/PodTopologySpread';
import * as InterPodAffinity from './plugins/InterPodAffinity';
import * as DefaultPreemption from './plugins/DefaultPreemption';
import * as DefaultBinder from './plugins/DefaultBinder';
import * as Volume from './plugins/volume';

export interface PluginContext {
  minor: number;
}

export interface RegistryEntry {
  points: (ExtensionPoint | 'preEnqueue')[];
  argsKind?: string;
  defaultArgs?: () => Record<string, unknown>;
  /** Returns field errors as `<field>: <problem>` relative to the args path. */
  validate?: (args: Record<string, unknown>) => string[];
  create: (args: Record<string, unknown>, ctx: PluginContext) => Plugin;
}

const inRange = (field: string, v: unknown, lo: number, hi: number, what = ''): string[] =>
  typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi
    ? []
    : [`${field}: Invalid value: ${JSON.stringify(v)}: ${what || 'not in valid range'} [${lo}, ${hi}]`];

function validateResources(list: unknown, field: string): string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) return [`${field}: Invalid value: ${JSON.stringify(list)}: must be a list`];
  const errs: string[] = [];
  list.forEach((r: { name?: unknown; weight?: unknown }, i) => {
    if (typeof r?.name !== 'string' || !r.name) errs.push(`${field}[${i}].name: Required value`);
    errs.push(
      ...inRange(
        `${field}[${i}].weight`,
        r?.weight,
        1,
        100,
        `resource weight of ${String(r?.name)} not in valid range`
      )
    );
  });
  return errs;
}

function validateFit(a: Record<string, unknown>): string[] {
  const errs: string[] = [];
  const s = a.scoringStrategy as Record<string, unknown> | undefined;
  if (!s) return errs;
  const types = ['LeastAllocated', 'MostAllocated', 'RequestedToCapacityRatio'];
  if (!types.includes(s.type as string)) {
    errs.push(
      `scoringStrategy.type: Unsupported value: ${JSON.stringify(s.type)}: supported values: ${types.map((t) => `"${t}"`).join(', ')}`
    );
  }
  errs.push(...validateResources(s.resources, 'scoringStrategy.resources'));
  if (s.type === 'RequestedToCapacityRatio') {
    const shape = (s.requestedToCapacityRatio as { shape?: unknown } | undefined)?.shape;
    if (!Array.isArray(shape) || !shape.length) {
      errs.push(
        'scoringStrategy.requestedToCapacityRatio.shape: Required value: at least one point must be specified'
      );
    } else {
      let prev = -1;
      shape.forEach((p: { utilization?: unknown; score?: unknown }, i) => {
        const f = `scoringStrategy.requestedToCapacityRatio.shape[${i}]`;
        errs.push(...inRange(`${f}.utilization`, p?.utilization, 0, 100));
        errs.push(...inRange(`${f}.score`, p?.score, 0, 10));
        if (typeof p?.utilization === 'number' && p.utilization <= prev) {
          errs.push(
            `${f}.utilization: Invalid value: ${p.utilization}: utilization values must be sorted in increasing order`
          );
        }
        if (typeof p?.utilization === 'number') prev = p.utilization;
      });
    }
  }
  return errs;
}

function validateSpread(a: Record<string, unknown>): string[] {
  const errs: string[] = [];
  if (!['System', 'List'].includes(a.defaultingType as string)) {
    errs.push(
      `defaultingType: Unsupported value: ${JSON.stringify(a.defaultingType)}: supported values: "List", "System"`
    );
  }
  const cs = (a.defaultConstraints ?? []) as Record<string, unknown>[];
  if (a.defaultingType === 'System' && cs.length) {
    errs.push('defaultConstraints: Invalid value: when .defaultingType is "System": must be empty');
  }
  cs.forEach((c, i) => {
    const f = `defaultConstraints[${i}]`;
    if (typeof c.maxSkew !== 'number' || c.maxSkew <= 0) {
      errs.push(`${f}.maxSkew: Invalid value: ${JSON.stringify(c.maxSkew)}: must be greater than zero`);
    }
    if (!c.topologyKey) errs.push(`${f}.topologyKey: Required value: can not be empty`);
    if (!['DoNotSchedule', 'ScheduleAnyway'].includes(c.whenUnsatisfiable as string)) {
      errs.push(
        `${f}.whenUnsatisfiable: Unsupported value: ${JSON.stringify(c.whenUnsatisfiable)}: supported values: "DoNotSchedule", "ScheduleAnyway"`
      );
    }
    if (c.labelSelector)
      errs.push(
        `${f}.labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod`
      );
  });
  return errs;
}

function validatePreemption(a: Record<string, unknown>): string[] {
  const errs = [
    ...inRange('minCandidateNodesPercentage', a.minCandidateNodesPercentage, 0, 100),
    ...inRange('minCandidateNodesAbsolute', a.minCandidateNodesAbsolute, 0, Number.MAX_SAFE_INTEGER)
  ];
  if (a.minCandidateNodesPercentage === 0 && a.minCandidateNodesAbsolute === 0) {
    errs.push(
      'minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute'
    );
  }
  return errs;
}

const filterOnly = (create: () => Plugin): RegistryEntry => ({ points: ['filter'], create });

export const registry: Record<string, RegistryEntry> = {
  SchedulingGates: { points: ['preEnqueue'], create: () => ({ name: 'SchedulingGates' }) },
  PrioritySort: { points: ['queueSort'], create: () => ({ name: 'PrioritySort' }) },
  NodeUnschedulable: filterOnly(NodeUnschedulable.create),
  NodeName: filterOnly(NodeName.create),
  TaintToleration: {
    points: ['filter', 'preScore', 'score'],
    create: (_a, ctx) => TaintToleration.create(undefined, ctx)
  },
  NodeAffinity: {
    points: ['preFilter', 'filter', 'preScore', 'score'],
    argsKind: 'NodeAffinityArgs',
    defaultArgs: () => ({}),
    create: (a) => NodeAffinity.create(a)
  },
  NodePorts: { points: ['preFilter', 'filter'], create: NodePorts.create },
  NodeResourcesFit: {
    points: ['preFilter', 'filter', 'preScore', 'score'],
    argsKind: 'NodeResourcesFitArgs',
    defaultArgs: () => ({
      scoringStrategy: { type: 'LeastAllocated', resources: NodeResourcesFit.defaultResources() }
    }),
    validate: validateFit,
    create: (a, ctx) => NodeResourcesFit.create(a, ctx)
  },
  ...Object.fromEntries(
    Volume.Names.map((n) => [
      n,
      { points: ['preFilter', 'filter'], create: () => Volume.create(n) } satisfies RegistryEntry
    ])
  ),
  PodTopologySpread: {
    points: ['preFilter', 'filter', 'preScore', 'score'],
    argsKind: 'PodTopologySpreadArgs',
    defaultArgs: () => ({ defaultingType: 'System' }),
    validate: validateSpread,
    create: (a) => PodTopologySpread.create(a)
  },
  InterPodAffinity: {
    points: ['preFilter', 'filter', 'preScore', 'score'],
    argsKind: 'InterPodAffinityArgs',
    defaultArgs: () => ({ hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false }),
    validate: (a) => inRange('hardPodAffinityWeight', a.hardPodAffinityWeight, 0, 100),
    create: (a) => InterPodAffinity.create(a)
  },
  DefaultPreemption: {
    points: ['postFilter'],
    argsKind: 'DefaultPreemptionArgs',
    defaultArgs: () => ({ minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 }),
    validate: validatePreemption,
    create: (a) => DefaultPreemption.create(a)
  },
  NodeResourcesBalancedAllocation: {
    points: ['preScore', 'score'],
    argsKind: 'NodeResourcesBalancedAllocationArgs',
    defaultArgs: () => ({ resources: NodeResourcesFit.defaultResources() }),
    validate: (a) => validateResources(a.resources, 'resources'),
    create: (a) => BalancedAllocation.create(a)
  },
  ImageLocality: { points: ['score'], create: ImageLocality.create },
  DefaultBinder: { points: ['bind'], create: DefaultBinder.create }
};

/** Args fields each kind accepts (strict decoding). */
export const argsFields: Record<string, string[]> = {
  NodeAffinityArgs: ['addedAffinity'],
  NodeResourcesFitArgs: ['ignoredResources', 'ignoredResourceGroups', 'scoringStrategy'],
  PodTopologySpreadArgs: ['defaultConstraints', 'defaultingType'],
  InterPodAffinityArgs: ['hardPodAffinityWeight', 'ignorePreferredTermsOfExistingPods'],
  DefaultPreemptionArgs: ['minCandidateNodesPercentage', 'minCandidateNodesAbsolute'],
  NodeResourcesBalancedAllocationArgs: ['resources']
};

/** getDefaultPlugins (pkg/scheduler/apis/config/v1/default_plugins.go): everything via multiPoint. */
export const defaultMultiPoint: { name: string; weight?: number }[] = [
  { name: 'SchedulingGates' },
  { name: 'PrioritySort' },
  { name: 'NodeUnschedulable' },
  { name: 'NodeName' },
  { name: 'TaintToleration', weight: 3 },
  { name: 'NodeAffinity', weight: 2 },
  { name: 'NodePorts' },
  { name: 'NodeResourcesFit', weight: 1 },
  { name: 'VolumeRestrictions' },
  { name: 'NodeVolumeLimits' },
  { name: 'VolumeBinding' },
  { name: 'VolumeZone' },
  { name: 'PodTopologySpread', weight: 2 },
  { name: 'InterPodAffinity', weight: 2 },
  { name: 'DefaultPreemption' },
  { name: 'NodeResourcesBalancedAllocation', weight: 1 },
  { name: 'ImageLocality', weight: 1 },
  { name: 'DefaultBinder' }
];
