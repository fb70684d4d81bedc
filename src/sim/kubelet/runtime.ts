/**
 * One node's container runtime (containerd) as the kubelet drives it: the images on the node and
 * an image puller. Pulls are serialized, the kubelet's default (`serializeImagePulls: true`), so a
 * pull waits for the ones queued before it, which is the "including waiting" part of the Pulled
 * message; a pod waiting for an image another pod is already pulling finds it on disk and only
 * resolves the manifest.
 */
import type { VirtualClock } from '../clock';
import type { Timings } from '../context';
import { hex64, type ResolvedImage } from './images';

export interface NodeImage {
  names: string[];
  sizeBytes: number;
}

export type PullOutcome =
  | { ok: true; pullMs: number; sizeBytes: number }
  | { ok: false; pullMs: number; error: string };

/**
 * A queued pull. Most pods of a big trace wait in some node's queue at once, so a waiting pull is a
 * small record rather than a callback: a requester's jobs add the fields it needs once the pull ends.
 */
export interface PullJob {
  readonly image: ResolvedImage;
  readonly requester: PullRequester<this>;
}

/** Who queued a pull: told when the pull finishes, in virtual time. */
export interface PullRequester<Job extends PullJob> {
  imagePulled(job: Job, outcome: PullOutcome): void;
}

/** Registry round-trips before any layer moves: token, HEAD manifest, GET manifest and config. */
const RESOLVE_MS = 250;
/** A pull of an image whose layers are all on disk (policy Always, or a pull that waited for another). */
const PRESENT_PULL_MS = 400;
/** Status node reports at most this many images (kubelet `nodeStatusMaxImages`). */
const NODE_STATUS_MAX_IMAGES = 50;

export class ContainerRuntime {
  private readonly images = new Map<string, NodeImage>();
  /** Images on the node only because a pull the simulator assumed would succeed put them there (see `ResolvedImage.assumedPull`). */
  private readonly assumedImages = new Set<string>();
  private readonly queue: PullJob[] = [];
  private pulling = false;

  constructor(
    private readonly clock: VirtualClock,
    private readonly timings: Timings,
    initialImages: readonly NodeImage[],
    private readonly onImagesChanged: () => void,
  ) {
    for (const image of initialImages) {
      for (const name of image.names) if (!name.includes('@')) this.images.set(name, image);
    }
  }

  hasImage(image: ResolvedImage): boolean {
    return this.images.has(image.name);
  }

  /** Whether the node has this image only thanks to an assumed pull, not from its start (a twin node's images are real). */
  hasAssumedImage(image: ResolvedImage): boolean {
    return this.assumedImages.has(image.name);
  }

  /** Queue a pull; its requester's `imagePulled` is called when it finishes. */
  pull(job: PullJob): void {
    this.queue.push(job);
    if (!this.pulling) this.pullNext();
  }

  /** The images as node status lists them: largest first, at most 50. */
  nodeImages(): NodeImage[] {
    const unique = new Set(this.images.values());
    return [...unique].sort((a, b) => b.sizeBytes - a.sizeBytes).slice(0, NODE_STATUS_MAX_IMAGES);
  }

  /** A container id as containerd reports it in pod status. */
  containerId(podUid: string, containerName: string, attempt: number): string {
    return hex64(`${podUid}/${containerName}/${attempt}`, 'containerd://');
  }

  private pullNext(): void {
    const job = this.queue.shift();
    if (!job) {
      this.pulling = false;
      return;
    }
    this.pulling = true;
    const random = this.clock.random;
    const { failure, sizeBytes } = job.image;
    let pullMs: number;
    if (failure) pullMs = Math.round(random.around(RESOLVE_MS * 2, 0.5));
    else if (this.hasImage(job.image)) pullMs = Math.round(random.around(PRESENT_PULL_MS, 0.4));
    else pullMs = Math.round(random.around(RESOLVE_MS, 0.4) + random.around((sizeBytes / 1_000_000) * this.timings.pullMsPerMB, 0.3));
    this.clock.after(pullMs, () => {
      if (failure) job.requester.imagePulled(job, { ok: false, pullMs, error: failure.message });
      else {
        this.store(job.image);
        job.requester.imagePulled(job, { ok: true, pullMs, sizeBytes });
      }
      this.pullNext();
    });
  }

  private store(image: ResolvedImage): void {
    const name = image.name;
    if (this.images.has(name)) return;
    if (image.assumedPull !== undefined) this.assumedImages.add(name);
    const names = image.reference.digest ? [image.id] : [image.id, name];
    this.images.set(name, { names, sizeBytes: image.sizeBytes });
    this.onImagesChanged();
  }
}
