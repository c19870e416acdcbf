/**
 * ImageLocality (Score): favours nodes that already hold the pod's images, each image's size
 * scaled by the share of nodes that have it.
 */
import type { CycleState, NodeInfo, Plugin, PodInfo } from '../types';

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

interface PodImages {
  names: string[];
  count: number;
}

function imagesOf(state: CycleState, pod: PodInfo): PodImages {
  let images = state.get(Name) as PodImages | undefined;
  if (!images) {
    const containers = [...(pod.pod.spec?.initContainers ?? []), ...(pod.pod.spec?.containers ?? [])];
    images = { names: containers.map((c) => normalizedImageName(c.image ?? '')), count: containers.length };
    state.set(Name, images);
  }
  return images;
}

function score(
  images: PodImages,
  node: NodeInfo,
  nodesWithImage: Map<string, number>,
  total: number
): number {
  let sum = 0;
  for (let i = 0; i < images.names.length; i++) {
    const img = images.names[i];
    const size = node.images.get(img);
    if (size === undefined) continue;
    // scaledImageScore: the spread factor damps "node heating" by widely present images.
    sum += Math.trunc(size * ((nodesWithImage.get(img) ?? 0) / total));
  }
  return calculatePriority(sum, images.count);
}

export function create(): Plugin {
  return {
    name: Name,
    score: (state, pod, node, h) => score(imagesOf(state, pod), node, h.imageNodeCount, h.nodes.length),
    scoreAll(state, pod, nodes, out, h) {
      const images = imagesOf(state, pod);
      // Only images some node holds can add to a score; the spread factor is the same for every
      // node, so it is worked out once per image, as `score` would for each node.
      const held: string[] = [];
      const spread: number[] = [];
      for (let i = 0; i < images.names.length; i++) {
        const n = h.imageNodeCount.get(images.names[i]) ?? 0;
        if (n === 0) continue;
        held.push(images.names[i]);
        spread.push(n / h.nodes.length);
      }
      if (held.length === 0) {
        out.fill(calculatePriority(0, images.count), 0, nodes.length);
        return;
      }
      for (let i = 0; i < nodes.length; i++) {
        const have = nodes[i].images;
        let sum = 0;
        for (let j = 0; j < held.length; j++) {
          const size = have.get(held[j]);
          if (size !== undefined) sum += Math.trunc(size * spread[j]);
        }
        out[i] = calculatePriority(sum, images.count);
      }
    }
  };
}
