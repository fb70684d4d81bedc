/**
 * The TTL-after-finished controller (pkg/controller/ttlafterfinished/ttlafterfinished_controller.go):
 * deletes a Job `ttlSecondsAfterFinished` after it finished (its Complete or Failed condition's
 * lastTransitionTime), with background propagation, so its pods go with it. It records no event.
 */
import { informer, objectKey, splitKey, type SimContext } from '../../context';
import { ApiError, type StoreChange } from '../../store/types';
import { parseTime } from '../controller-types';
import { ControllerQueue } from '../work-scheduling';
import { finishedCondition, type JobObject } from '../job/job-types';

const COMPONENT = 'ttl-after-finished-controller';

/** `timeLeft`: when the Job expires, or undefined when it has no TTL or has not finished. */
export function expiresAt(job: JobObject): number | undefined {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null || job.metadata?.deletionTimestamp) return undefined;
  const finished = finishedCondition(job);
  const finishAt = parseTime(finished?.lastTransitionTime);
  return finishAt === undefined ? undefined : finishAt + ttl * 1000;
}

export class TTLAfterFinishedController {
  private readonly queue: ControllerQueue;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly ctx: SimContext) {
    this.queue = new ControllerQueue(ctx.clock, ctx.timings.controllerReaction, (key) => this.processJob(key));
  }

  start(): void {
    this.unsubscribe = informer(this.ctx, COMPONENT, 'Job', (change) => this.onJob(change));
  }

  stop(): void {
    this.unsubscribe?.();
  }

  private onJob(change: StoreChange): void {
    if (change.type === 'DELETED') return;
    if (expiresAt(change.object as JobObject) !== undefined) this.queue.add(objectKey(change.object));
  }

  /** `processJob`: delete the Job once expired, else look again when it will be. */
  processJob(key: string): void {
    const { namespace, name } = splitKey(key);
    const job = this.ctx.store.get<JobObject>('Job', namespace, name);
    if (!job) return;
    const at = expiresAt(job);
    if (at === undefined) return;
    const now = this.ctx.clock.now();
    if (at > now) {
      this.queue.addAfter(key, at - now);
      return;
    }
    try {
      this.ctx.store.delete('Job', namespace, name, { propagationPolicy: 'Background', preconditions: { uid: job.metadata?.uid }, actor: COMPONENT });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code !== 404 && error.code !== 409) this.queue.addRateLimited(key);
    }
  }
}
