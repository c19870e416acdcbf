import { describe, expect, it } from 'vitest';
import { knownFaults } from '$lib/sim/cluster';
import { ManifestError, parseManifests } from '$lib/sim/manifests';
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

  it.skipIf(knownFaults().some((f) => f.action === RESIZE_FAULT))(
    'refuses at the capacity line when the node plane cannot resize machines',
    () => {
      const c = placeholderCluster();
      c.runUntil(30_000);
      const { objects } = parseManifests(nodeYaml('8'), 'editor.yaml');
      let err: unknown;
      try {
        checkResizable(objects, nodeResizes(c, objects));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ManifestError);
      expect((err as ManifestError).issues).toEqual([
        {
          file: 'editor.yaml',
          line: 6,
          column: 3,
          path: 'status.capacity',
          message:
            'the kubelet on worker-1 reports capacity from its machine; resizing a node is not available in this build'
        }
      ]);
    }
  );
});

describe('Node capacity edits with the node plane resize hook', () => {
  it.runIf(knownFaults().some((f) => f.action === RESIZE_FAULT))(
    'a bigger cpu capacity lets the Pending pod schedule',
    () => {
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
    }
  );
});
