import { describe, expect, it } from 'vitest';
import { parseManifests } from '$lib/sim/manifests';
import { placeholderCluster } from './placeholder';
import { checkResizable, nodeResizes, RESIZE_FAULT } from './resize';

const nodeYaml = (cpu: string) => `apiVersion: v1
kind: Node
metadata:
  name: worker-1
status:
  capacity:
    cpu: "${cpu}"
    ephemeral-storage: 50Gi
    memory: 8Gi
    pods: "110"
`;

describe('Node capacity edits', () => {
  it('finds the Nodes whose status.capacity differs from the live object', () => {
    const c = placeholderCluster();
    c.runUntil(30_000);
    const live = c.api.get('Node', undefined, 'worker-1').status.capacity;
    expect(live).toEqual({
      cpu: '4',
      'ephemeral-storage': '50Gi',
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: '8Gi',
      pods: '110'
    });
    expect(nodeResizes(c, parseManifests(nodeYaml('4'), 'editor.yaml').objects)).toEqual([]);
    expect(nodeResizes(c, parseManifests(nodeYaml('8'), 'editor.yaml').objects)).toEqual([
      {
        target: 'worker-1',
        capacity: {
          cpu: '8',
          'ephemeral-storage': '50Gi',
          'hugepages-1Gi': '0',
          'hugepages-2Mi': '0',
          memory: '8Gi',
          pods: '110'
        }
      }
    ]);
  });
});

describe('Node capacity edits with the node plane resize hook', () => {
  it('a bigger cpu capacity lets the Pending pod schedule', () => {
    const c = placeholderCluster();
    c.runUntil(30_000);
    expect(c.api.get('Pod', 'default', 'big').spec.nodeName).toBeUndefined();
    const { objects } = parseManifests(nodeYaml('8'), 'editor.yaml');
    const resizes = nodeResizes(c, objects);
    checkResizable(objects, resizes);
    for (const r of resizes) c.applyFault(RESIZE_FAULT, { target: r.target, capacity: r.capacity });
    c.runUntil(120_000);
    expect(c.api.get('Node', undefined, 'worker-1').status.capacity.cpu).toBe('8');
    expect(c.api.get('Pod', 'default', 'big').spec.nodeName).toBe('worker-1');
  });
});
