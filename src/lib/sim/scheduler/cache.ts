/**
 * The scheduler cache: NodeInfos for every node, kept incrementally from node and pod events, and
 * the Handle plugins read. It is derived data (rebuilt from the API after a restore), like the
 * informer-fed cache of kube-scheduler.
 */
import type { KubeObject } from '../api/types';
import {
  addPod,
  buildHandle,
  countAffinityPods,
  newNodeInfo,
  newPodInfo,
  nodeTreeOrder,
  removePod,
  sameToSelectors,
  sourceReaders,
  withNode,
  type SnapshotSources
} from './nodeinfo';
import type { Handle, NodeInfo, PodInfo } from './types';

export class SchedulerCache {
  private infos = new Map<string, NodeInfo>();
  /** Pods assigned to a node that is not (yet) in the cache. */
  private orphans = new Map<string, PodInfo[]>();
  private podNode = new Map<string, string>();
  private h: Handle | null = null;
  private stats: Handle['stats'] = { podsWithAffinity: 0, podsWithRequiredAntiAffinity: 0 };
  private sourceLister: (() => Partial<SnapshotSources>) | null = null;

  constructor(private sources: SnapshotSources) {}

  setSources(s: Partial<SnapshotSources>): void {
    this.sources = { ...this.sources, ...s };
    this.h = null;
  }

  /**
   * The sources changed (a Service, ReplicaSet or Namespace event): list them again with `lister`
   * when the handle is next read, not on every event (a rollout updates its ReplicaSets' status
   * once per pod).
   */
  sourcesChanged(lister: () => Partial<SnapshotSources>): void {
    this.sourceLister = lister;
  }

  get handle(): Handle {
    if (this.sourceLister) {
      const lister = this.sourceLister;
      this.sourceLister = null;
      this.sources = { ...this.sources, ...lister() };
      // Only the source readers change: the node list, images and counts stay as they are.
      if (this.h) this.h = { ...this.h, ...sourceReaders(this.sources) };
    }
    if (!this.h) {
      const nodes = [...this.infos.values()];
      this.stats = countAffinityPods(nodes);
      this.h = buildHandle(nodes, this.sources, this.stats);
    }
    return this.h;
  }

  nodeInfo(name: string): NodeInfo | undefined {
    return this.infos.get(name);
  }

  get nodeCount(): number {
    return this.infos.size;
  }

  upsertNode(node: KubeObject): void {
    const old = this.infos.get(node.metadata.name);
    let ni: NodeInfo;
    if (old) ni = withNode(old, node);
    else {
      ni = newNodeInfo(node);
      for (const p of this.orphans.get(node.metadata.name) ?? []) addPod(ni, p);
    }
    this.orphans.delete(node.metadata.name);
    if (old) {
      this.infos.set(ni.name, ni);
      if (this.h) {
        const at = this.h.columns?.position.get(ni.name);
        const i = at !== undefined && this.h.nodes[at] === old ? at : this.h.nodes.indexOf(old);
        // A heartbeat keeps the stored image list and labels (the same frozen objects): nothing to compare.
        const sameImages =
          old.node.status?.images === node.status?.images ||
          (old.images.size === ni.images.size && [...old.images.keys()].every((k) => ni.images.has(k)));
        const sameZone = old.labels === ni.labels || JSON.stringify(topo(old)) === JSON.stringify(topo(ni));
        if (i >= 0 && sameImages && sameZone) {
          this.h.nodes[i] = ni;
          this.h.nodeByName.set(ni.name, ni);
          // Logged for readers of the node's labels and pods only when those may have changed.
          const seen = old.labels === ni.labels && old.taints === ni.taints;
          this.h.columns?.write(i, ni, !seen);
        } else this.h = null;
      }
    } else {
      this.infos.set(ni.name, ni);
      this.h = null;
    }
  }

  removeNode(name: string): void {
    const old = this.infos.get(name);
    if (!old) return;
    this.infos.delete(name);
    if (old.pods.length) this.orphans.set(name, old.pods);
    this.h = null;
  }

  /** Account a pod on its node (bound, or assumed by the scheduler before the bind lands). */
  addPod(pod: KubeObject, nodeName: string): PodInfo {
    return this.assume(newPodInfo(pod), nodeName);
  }

  /** Account an already computed PodInfo (the scheduler's own binding: no re-parsing of requests). */
  assume(pi: PodInfo, nodeName: string): PodInfo {
    const ni = this.infos.get(nodeName);
    const version = ni?.podLabelsVersion;
    const sameNode = this.podNode.get(pi.key) === nodeName;
    // Replaced on the same node, the node's columns are written once, after the add.
    const was = this.removePod(pi.key, !(sameNode && ni));
    this.podNode.set(pi.key, nodeName);
    if (ni) {
      addPod(ni, pi);
      // An update of a pod on the same node that selectors see alike (a status write).
      const alike = sameNode && !!was && sameToSelectors(was, pi);
      if (alike) ni.podLabelsVersion = version!;
      this.h?.columns?.update(ni, !alike);
      if (pi.hasAffinityTerms) this.stats.podsWithAffinity++;
      if (pi.hasRequiredAntiAffinity) this.stats.podsWithRequiredAntiAffinity++;
    } else {
      const l = this.orphans.get(nodeName) ?? [];
      l.push(pi);
      this.orphans.set(nodeName, l);
    }
    return pi;
  }

  /**
   * Take the pod out of its node's accounting; returns what was accounted, if any. `columns`
   * false leaves the node's columns to the caller (assume rewrites them right after).
   */
  removePod(key: string, columns = true): PodInfo | undefined {
    const node = this.podNode.get(key);
    if (node === undefined) return undefined;
    this.podNode.delete(key);
    const ni = this.infos.get(node);
    const pi = ni ? removePod(ni, key) : undefined;
    if (ni && columns) this.h?.columns?.update(ni);
    if (pi?.hasAffinityTerms) this.stats.podsWithAffinity--;
    if (pi?.hasRequiredAntiAffinity) this.stats.podsWithRequiredAntiAffinity--;
    if (!ni) {
      const l = (this.orphans.get(node) ?? []).filter((p) => p.key !== key);
      this.orphans.set(node, l);
    }
    return pi;
  }

  nodeOfPod(key: string): string | undefined {
    return this.podNode.get(key);
  }

  /** Node order the scheduler walks (NodeTree). */
  orderedNodes(): NodeInfo[] {
    return nodeTreeOrder([...this.infos.values()]);
  }
}

function topo(n: NodeInfo): [string | undefined, string | undefined] {
  return [n.labels['topology.kubernetes.io/region'], n.labels['topology.kubernetes.io/zone']];
}
