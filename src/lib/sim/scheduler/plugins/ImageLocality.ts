/**
 * ImageLocality (Score): favours nodes that already hold the pod's images, each image's size
 * scaled by the share of nodes that have it.
 */
import type { Plugin } from '../types';

export const Name = 'ImageLocality';
const mb = 1024 * 1024;
export const minThreshold = 23 * mb;
export const maxContainerThreshold = 1000 * mb;

/** normalizedImageName: an image without a tag or digest means `:latest`. */
export function normalizedImageName(name: string): string {
  if (name.lastIndexOf(':') <= name.lastIndexOf('/')) return name + ':latest';
  return name;
}

export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = maxContainerThreshold * numContainers;
  const sum = Math.min(Math.max(sumScores, minThreshold), maxThreshold);
  return Math.trunc((100 * (sum - minThreshold)) / (maxThreshold - minThreshold));
}

export function create(): Plugin {
  return {
    name: Name,
    score(state, pod, node, h) {
      let images = state.get(Name) as { names: string[]; count: number } | undefined;
      if (!images) {
        const containers = [...(pod.pod.spec?.initContainers ?? []), ...(pod.pod.spec?.containers ?? [])];
        images = {
          names: containers.map((c) => normalizedImageName(c.image ?? '')),
          count: containers.length
        };
        state.set(Name, images);
      }
      const total = h.nodes.length;
      let sum = 0;
      for (const img of images.names) {
        const size = node.images.get(img);
        if (size === undefined) continue;
        // scaledImageScore: the spread factor damps "node heating" by widely present images.
        const spread = (h.imageNodeCount.get(img) ?? 0) / total;
        sum += Math.trunc(size * spread);
      }
      return calculatePriority(sum, images.count);
    }
  };
}
