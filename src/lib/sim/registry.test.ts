import { describe, expect, it } from 'vitest';
import { Cluster, knownFaults } from './cluster';
import { COMPONENTS, FAULTS, faultTargetKind, scenarioFaultActions } from './registry';
import { SCENARIO_FAULT_ACTIONS } from './schemas/scenario';

describe('the registry', () => {
  it("is the scenario schema's list of fault actions (the editor's copy must not drift)", () => {
    expect([...SCENARIO_FAULT_ACTIONS].sort()).toEqual(scenarioFaultActions().sort());
  });

  it('names every fault once, with the target it takes', () => {
    expect(knownFaults().map((f) => f.action)).toEqual([...FAULTS().keys()].sort());
    expect(faultTargetKind('StopKubelet')).toBe('node');
    expect(faultTargetKind('StopEtcdMember')).toBe('etcdMember');
    expect(faultTargetKind('SetProxyMode')).toBe('nodeOrAll');
    expect(faultTargetKind('NoSuchFault')).toBeUndefined();
  });

  it('builds every component kind a scenario uses, and refuses an unknown one by name', () => {
    expect([...COMPONENTS().keys()]).toEqual(
      expect.arrayContaining([
        'kubelet',
        'kube-scheduler',
        'kube-controller-manager',
        'kube-proxy',
        'scenario'
      ])
    );
    const c = new Cluster();
    expect(c.addComponent('kube-scheduler', {}).kind).toBe('kube-scheduler');
    expect(() => c.addComponent('kube-nonsense', {})).toThrow('unknown component kind "kube-nonsense"');
  });
});
