import { describe, expect, it } from 'vitest';
import { defaultSchedulerConfig, mergePluginSet, parseSchedulerConfig, SchedulerConfigError } from './config';

function errorsOf(yaml: string): string[] {
  try {
    parseSchedulerConfig(yaml);
  } catch (e) {
    if (e instanceof SchedulerConfigError) return e.errors;
    throw e;
  }
  return [];
}

const header = 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n';

describe('KubeSchedulerConfiguration defaults', () => {
  const p = defaultSchedulerConfig().profiles[0];
  it('has one default-scheduler profile with the v1 default plugins', () => {
    expect(p.schedulerName).toBe('default-scheduler');
    expect(p.plugins.queueSort).toEqual(['PrioritySort']);
    expect(p.plugins.filter).toEqual([
      'NodeUnschedulable',
      'NodeName',
      'TaintToleration',
      'NodeAffinity',
      'NodePorts',
      'NodeResourcesFit',
      'VolumeRestrictions',
      'NodeVolumeLimits',
      'VolumeBinding',
      'VolumeZone',
      'PodTopologySpread',
      'InterPodAffinity'
    ]);
    expect(p.plugins.postFilter).toEqual(['DefaultPreemption']);
    expect(p.plugins.bind).toEqual(['DefaultBinder']);
  });
  it('weighs scores as default_plugins.go', () => {
    expect(p.weights).toEqual({
      TaintToleration: 3,
      NodeAffinity: 2,
      NodeResourcesFit: 1,
      PodTopologySpread: 2,
      InterPodAffinity: 2,
      NodeResourcesBalancedAllocation: 1,
      ImageLocality: 1
    });
  });
  it('defaults the plugin args and the backoff', () => {
    const c = defaultSchedulerConfig();
    expect([c.podInitialBackoffSeconds, c.podMaxBackoffSeconds]).toEqual([1, 10]);
    expect(p.args.NodeResourcesFit).toEqual({
      scoringStrategy: {
        type: 'LeastAllocated',
        resources: [
          { name: 'cpu', weight: 1 },
          { name: 'memory', weight: 1 }
        ]
      }
    });
    expect(p.args.DefaultPreemption).toEqual({
      minCandidateNodesPercentage: 10,
      minCandidateNodesAbsolute: 100
    });
    expect(p.args.InterPodAffinity).toEqual({
      hardPodAffinityWeight: 1,
      ignorePreferredTermsOfExistingPods: false
    });
  });
});

describe('plugin set merging', () => {
  it('mergePluginSet keeps the default order, replaces in place and appends the rest', () => {
    const merged = mergePluginSet(
      { enabled: [{ name: 'A' }, { name: 'B' }, { name: 'C' }], disabled: [] },
      { enabled: [{ name: 'D' }, { name: 'B', weight: 7 }], disabled: [{ name: 'C' }] }
    );
    expect(merged.enabled).toEqual([{ name: 'A' }, { name: 'B', weight: 7 }, { name: 'D' }]);
  });

  it('score disabled "*" then one plugin with a weight', () => {
    const c = parseSchedulerConfig(
      header +
        `profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled: [{name: "*"}]
      enabled: [{name: NodeResourcesFit, weight: 5}]
`
    );
    expect(c.profiles[0].plugins.score).toEqual(['NodeResourcesFit']);
    expect(c.profiles[0].weights).toEqual({ NodeResourcesFit: 5 });
    expect(c.profiles[0].plugins.filter).toContain('TaintToleration');
  });

  it('an explicitly re-configured multiPoint plugin moves first at that point', () => {
    const c = parseSchedulerConfig(
      header + 'profiles:\n- plugins:\n    score:\n      enabled: [{name: ImageLocality, weight: 10}]\n'
    );
    expect(c.profiles[0].plugins.score[0]).toBe('ImageLocality');
    expect(c.profiles[0].plugins.score).toHaveLength(7);
    expect(c.profiles[0].weights.ImageLocality).toBe(10);
  });

  it('disabling at one point keeps the plugin at the others', () => {
    const c = parseSchedulerConfig(
      header + 'profiles:\n- plugins:\n    filter:\n      disabled: [{name: TaintToleration}]\n'
    );
    expect(c.profiles[0].plugins.filter).not.toContain('TaintToleration');
    expect(c.profiles[0].plugins.score).toContain('TaintToleration');
  });

  it('multiPoint disabled removes a plugin everywhere', () => {
    const c = parseSchedulerConfig(
      header +
        'profiles:\n- plugins:\n    multiPoint:\n      disabled: [{name: NodeResourcesBalancedAllocation}]\n'
    );
    expect(c.profiles[0].plugins.preScore).not.toContain('NodeResourcesBalancedAllocation');
    expect(c.profiles[0].plugins.score).not.toContain('NodeResourcesBalancedAllocation');
  });

  it('several profiles and pluginConfig args', () => {
    const c = parseSchedulerConfig(
      header +
        `percentageOfNodesToScore: 30
profiles:
- schedulerName: default-scheduler
- schedulerName: bin-packing
  percentageOfNodesToScore: 100
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
`
    );
    expect(c.percentageOfNodesToScore).toBe(30);
    expect(c.profiles.map((p) => p.schedulerName)).toEqual(['default-scheduler', 'bin-packing']);
    expect(c.profiles[1].percentageOfNodesToScore).toBe(100);
    expect(c.profiles[1].args.NodeResourcesFit).toEqual({
      scoringStrategy: {
        type: 'MostAllocated',
        resources: [
          { name: 'cpu', weight: 1 },
          { name: 'memory', weight: 1 }
        ]
      }
    });
  });
});

describe('configuration errors name the field', () => {
  it.each([
    [
      'unknown plugin',
      'profiles:\n- plugins:\n    score:\n      enabled: [{name: NodeAffinity}, {name: Foo}]\n',
      'profiles[0].plugins.score.enabled[1].name: unknown plugin "Foo"'
    ],
    [
      'plugin at a point it does not implement',
      'profiles:\n- plugins:\n    filter:\n      enabled: [{name: ImageLocality}]\n',
      'profiles[0].plugins.filter.enabled[0].name: plugin "ImageLocality" does not extend filter plugin'
    ],
    [
      'bad scoring strategy',
      'profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: Foo}}\n',
      'profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value: "Foo": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"'
    ],
    [
      'unknown args field',
      'profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args: {hardPodAffinityWeigth: 3}\n',
      'profiles[0].pluginConfig[0].args.hardPodAffinityWeigth: unknown field "hardPodAffinityWeigth"'
    ],
    [
      'args out of range',
      'profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args: {hardPodAffinityWeight: 101}\n',
      'profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]'
    ],
    [
      'resource weight',
      'profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: LeastAllocated, resources: [{name: cpu, weight: 0}]}}\n',
      'profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of cpu not in valid range [1, 100]'
    ],
    [
      'shape order',
      'profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 50, score: 1}, {utilization: 10, score: 2}]}}}\n',
      'profiles[0].pluginConfig[0].args.scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 10: utilization values must be sorted in increasing order'
    ],
    [
      'duplicate profile',
      'profiles:\n- schedulerName: a\n- schedulerName: a\n',
      'profiles[1].schedulerName: Duplicate value: "a"'
    ],
    [
      'percentage',
      'percentageOfNodesToScore: 150\n',
      'percentageOfNodesToScore: Invalid value: 150: not in valid range [0-100]'
    ],
    ['unknown top-level field', 'profile: []\n', 'profile: unknown field "profile"'],
    [
      'no bind plugin',
      'profiles:\n- plugins:\n    bind:\n      disabled: [{name: "*"}]\n',
      'profiles[0].plugins.bind: Invalid value: at least one bind plugin is needed'
    ]
  ])('%s', (_n, body, want) => {
    expect(errorsOf(header + body)).toContain(want);
  });

  it('rejects another apiVersion', () => {
    expect(
      errorsOf('apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n')
    ).toEqual([
      'apiVersion: Unsupported value: "kubescheduler.config.k8s.io/v1beta3": supported values: "kubescheduler.config.k8s.io/v1"'
    ]);
  });
});
