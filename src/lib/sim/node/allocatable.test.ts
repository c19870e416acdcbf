import { describe, expect, it } from 'vitest';
import { parseQuantity } from '../api/quantity';
import { allocatableMilli, evictionHard, formatResources } from './allocatable';
import { nodeArgs } from './testing';

describe('allocatable', () => {
  it('reproduces the reserve-compute-resources example (16 CPU / 32Gi / 100Gi)', () => {
    const args = nodeArgs('n', {
      capacity: { cpu: '16', memory: '32Gi', 'ephemeral-storage': '100Gi' },
      kubeReserved: { cpu: '1', memory: '2Gi', 'ephemeral-storage': '1Gi' },
      systemReserved: { cpu: '500m', memory: '1Gi', 'ephemeral-storage': '1Gi' },
      evictionHard: { 'memory.available': '500Mi', 'nodefs.available': '10%' }
    });
    const a = formatResources(allocatableMilli(args, 110));
    expect(a.cpu).toBe('14500m');
    expect(a['ephemeral-storage']).toBe('88Gi');
    // 32Gi − 2Gi − 1Gi − 500Mi = 29196Mi; the docs round 500Mi to 0.5Gi and print 28.5Gi.
    expect(a.memory).toBe('29196Mi');
    expect((parseQuantity(a.memory) / 1000 / 2 ** 30).toFixed(1)).toBe('28.5');
    expect(a.pods).toBe('110');
  });

  it('subtracts the default memory.available<100Mi and nodefs.available<10% without reservations', () => {
    const a = formatResources(allocatableMilli(nodeArgs('n'), 110));
    expect(a).toMatchObject({ cpu: '4', memory: '8092Mi', 'ephemeral-storage': '45Gi', pods: '110' });
  });

  it('clamps at zero', () => {
    const args = nodeArgs('n', {
      capacity: { cpu: '1', memory: '1Gi' },
      kubeReserved: { cpu: '2', memory: '2Gi' }
    });
    const a = formatResources(allocatableMilli(args, 10));
    expect(a.cpu).toBe('0');
    expect(a.memory).toBe('0');
  });

  it('applies the all-or-nothing rule once any evictionHard key is set', () => {
    expect(Object.keys(evictionHard(nodeArgs('n'))).sort()).toEqual([
      'imagefs.available',
      'imagefs.inodesFree',
      'memory.available',
      'nodefs.available',
      'nodefs.inodesFree'
    ]);
    const only = evictionHard(nodeArgs('n', { evictionHard: { 'memory.available': '1Gi' } }));
    expect(only).toEqual({ 'memory.available': { quantity: 2 ** 30 } });
  });
});
