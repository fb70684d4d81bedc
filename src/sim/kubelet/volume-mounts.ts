/**
 * One pod's volumes as the kubelet's volume manager mounts them (`volumemanager/reconciler`,
 * `operationexecutor/operation_generator.go`): each volume that reads a ConfigMap or a Secret is
 * set up once; a failed SetUp is recorded as a `FailedMount` event
 * (`MountVolume.SetUp failed for volume "v" : <error>`) and retried with the operation's
 * exponential back-off (500 ms doubling to 2m2s, `nestedpendingoperations`). The pod worker's
 * sync waits for every volume (`WaitForAttachAndMount`, polled every 300 ms), so the pod stays
 * ContainerCreating until the missing object appears.
 *
 * The sync's own 2m3s timeout is not simulated: since 1.28 it records no event
 * (`wait.Interrupted`) and the next sync waits again, which is what waiting on does.
 */
import type { Volume } from 'kubernetes-types/core/v1';
import type { TimerHandle, VirtualClock } from '../clock';
import { readsObjects, volumeSetUpError, type SourceLookup } from './pod-sources';

const INITIAL_RETRY_MS = 500;
const MAX_RETRY_MS = 122_000;
/** `podAttachAndMountRetryInterval`: how often the waiting sync checks the mounts. */
const WAIT_POLL_MS = 300;

export interface VolumeMountHost {
  clock: VirtualClock;
  lookup: SourceLookup;
  failedMount(message: string): void;
  /** Every volume is mounted: the waiting sync goes on within its poll interval. */
  mounted(delayMs: number): void;
}

export class PodVolumeMounts {
  private unmounted: Volume[];
  private retryMs = INITIAL_RETRY_MS;
  private started = false;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly host: VolumeMountHost,
    volumes: readonly Volume[] | undefined,
  ) {
    this.unmounted = (volumes ?? []).filter(readsObjects);
  }

  /** Whether every volume is set up; the first call starts the mounts (and mounts what it can at once). */
  ready(): boolean {
    if (!this.started) {
      this.started = true;
      this.attempt();
    }
    return this.unmounted.length === 0;
  }

  stop(): void {
    this.host.clock.cancel(this.timer);
    this.timer = undefined;
  }

  /** One SetUp of every unmounted volume; whether all are mounted now. Failures retry after the back-off. */
  private attempt(): boolean {
    this.timer = undefined;
    const stillFailing: Volume[] = [];
    for (const volume of this.unmounted) {
      const error = volumeSetUpError(volume, this.host.lookup);
      if (error === undefined) continue;
      stillFailing.push(volume);
      this.host.failedMount(`MountVolume.SetUp failed for volume "${volume.name}" : ${error}`);
    }
    this.unmounted = stillFailing;
    if (stillFailing.length === 0) return true;
    this.timer = this.host.clock.after(this.retryMs, () => {
      if (this.attempt()) this.host.mounted(this.host.clock.random.int(1, WAIT_POLL_MS));
    });
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    return false;
  }
}
