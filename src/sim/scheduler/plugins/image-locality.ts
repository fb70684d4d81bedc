/**
 * ImageLocality: prefers nodes that already have the pod's images, weighted by image size and by
 * how widely the image is spread (an image on every node says little), clamped between 23 MB and
 * 1000 MB per container.
 */
import type { NodeCache } from '../node-cache';
import type { NodeInfo } from '../node-info';
import type { PodSchedulingInfo } from '../pod-info';
import { MAX_NODE_SCORE } from './types';

const MAX_SCORE = MAX_NODE_SCORE;

const MB = 1024 * 1024;
const MIN_THRESHOLD = 23 * MB;
const MAX_CONTAINER_THRESHOLD = 1000 * MB;

/** `scaledImageScore`: an image's size, discounted by the share of nodes that have it. */
export function scaledImageScore(size: number, nodesWithImage: number, totalNodes: number): number {
  return Math.trunc(size * (nodesWithImage / totalNodes));
}

/** `calculatePriority`: the summed image scores, clamped and mapped onto 0–100. */
export function imageLocalityScore(sumScores: number, numContainers: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
  const clamped = Math.min(Math.max(sumScores, MIN_THRESHOLD), maxThreshold);
  return Math.trunc((MAX_SCORE * (clamped - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
}

export function scoreImageLocality(pod: PodSchedulingInfo, node: NodeInfo, cache: NodeCache): number {
  if (pod.images.length === 0) return 0;
  let sum = 0;
  for (const image of pod.images) {
    const size = node.images.get(image);
    if (size !== undefined) sum += scaledImageScore(size, cache.imageNodeCount(image), cache.nodeCount);
  }
  return imageLocalityScore(sum, pod.images.length);
}
