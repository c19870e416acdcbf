/**
 * Editing a Node's machine-level settings from the YAML editor. Capacity, kube-reserved and
 * maxPods are not API fields a client can change for good: the kubelet reports them from the
 * machine and its config on every status update. So when an edited Node changes
 * `status.capacity`, the lab asks the node plane to resize that machine through the
 * `ReconfigureNode` fault (the simulator's "resize the VM and restart the kubelet"), and refuses
 * the apply, at the capacity line, when this build has no such fault.
 */
import { knownFaults, type Cluster } from '../cluster';
import { ManifestError, type ParsedManifest } from '../manifests';
import type { KubeObject } from '../api/types';

export const RESIZE_FAULT = 'ReconfigureNode';

export interface NodeResize {
  target: string;
  capacity: Record<string, string>;
}

/** Only the resources the edit names count: dropping a line (hugepages-2Mi: "0") is not a resize. */
function same(wanted: Record<string, unknown>, live: Record<string, unknown> = {}): boolean {
  return Object.entries(wanted).every(([k, v]) => String(v) === String(live[k]));
}

/** Nodes in `objects` whose status.capacity differs from the live Node's. */
export function nodeResizes(cluster: Cluster, objects: ParsedManifest[]): NodeResize[] {
  const out: NodeResize[] = [];
  for (const m of objects) {
    if (m.obj.kind !== 'Node') continue;
    const wanted = m.obj.status?.capacity as Record<string, string> | undefined;
    if (!wanted) continue;
    const live = cluster.api.tryGet<KubeObject>('Node', undefined, m.obj.metadata.name);
    if (!live || same(wanted, live.status?.capacity)) continue;
    out.push({ target: m.obj.metadata.name, capacity: { ...(live.status?.capacity ?? {}), ...wanted } });
  }
  return out;
}

/** Throw a ManifestError at each changed capacity when the node plane cannot resize machines. */
export function checkResizable(objects: ParsedManifest[], resizes: NodeResize[]): void {
  if (!resizes.length || knownFaults().some((f) => f.action === RESIZE_FAULT)) return;
  const issues = resizes.map((r) => {
    const m = objects.find((o) => o.obj.kind === 'Node' && o.obj.metadata.name === r.target)!;
    const pos = m.locate('status.capacity', { key: true });
    return {
      file: m.file,
      line: pos.line,
      column: pos.column,
      path: 'status.capacity',
      message: `the kubelet on ${r.target} reports capacity from its machine; resizing a node is not available in this build`
    };
  });
  throw new ManifestError(issues);
}
