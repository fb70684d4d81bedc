/**
 * Where an Event goes in the journey: which object, which stage. Events that restate a state
 * change (Scheduled, Started, BackOff …) merge into the stage the state derives, under the same
 * key, so that a stage has one entry whether the event or the object change arrives first.
 */
import { FAILURE_WAITING_REASONS, waitingKey, waitingStageKind } from './derive-pod';
import { scalingKey, scalingTitle } from './derive-workload';
import { missingDependency } from './dependencies';
import {
  isImageAlreadyPresent,
  parseContainerMessage,
  parseErrorReason,
  parseImage,
  parsePodMessage,
  parseScaling,
  parseScheduledNode,
  type NormalizedEvent,
} from './events';
import type { Component, StageKind } from './types';

export interface EventPlacement {
  /** Another object than the involved one: the pod a ReplicaSet's "Created pod: x" names. */
  redirect?: { kind: 'Pod'; name: string };
  key: string;
  kind: StageKind;
  component: Component;
  title: string;
  container?: string;
  warning: boolean;
  /**
   * `repeat`: one stage for all occurrences, `count` follows the event's count.
   * `occurrence`: the n-th occurrence is its own stage (each container start is one).
   */
  counting: 'repeat' | 'occurrence';
  /** The object the event is about when it is not the stage's own (`PersistentVolumeClaim www-web-0` on its pod): the message names it first. */
  subject?: string;
  /** Restates what another event or the state already says better ("Error: ErrImagePull"): evidence only, never the message. */
  secondary?: boolean;
}

function other(ev: NormalizedEvent): EventPlacement {
  return {
    key: `event:${ev.name}`,
    kind: 'event',
    component: ev.component || 'kube-apiserver',
    title: `${ev.reason}`,
    container: ev.container,
    warning: ev.type === 'Warning',
    counting: 'repeat',
  };
}

function podPlacement(ev: NormalizedEvent): EventPlacement {
  const container = ev.container ?? parseContainerMessage(ev.message);
  const c = container ?? '';
  const warning = ev.type === 'Warning';
  switch (ev.reason) {
    case 'Scheduled': {
      const node = parseScheduledNode(ev.message);
      return { key: 'scheduled', kind: 'scheduled', component: 'default-scheduler', title: node ? `Bound to ${node}` : 'Scheduled', warning: false, counting: 'repeat' };
    }
    case 'FailedScheduling':
      return { key: 'failedScheduling', kind: 'failedScheduling', component: 'default-scheduler', title: 'No node fits the pod', warning: true, counting: 'repeat' };
    case 'Pulling':
      return { key: `pulling:${c}`, kind: 'pulling', component: 'kubelet', title: `Pulling image ${parseImage(ev.message) ?? ''}`.trim(), container, warning, counting: 'repeat' };
    case 'Pulled':
      if (isImageAlreadyPresent(ev.message)) {
        return { key: `imagePresent:${c}`, kind: 'imagePresent', component: 'container-runtime', title: `Image ${parseImage(ev.message) ?? ''} already present`.replace('  ', ' '), container, warning, counting: 'repeat' };
      }
      return { key: `pulled:${c}`, kind: 'pulled', component: 'container-runtime', title: `Pulled image ${parseImage(ev.message) ?? ''}`.trim(), container, warning, counting: 'repeat' };
    case 'Created':
      return { key: `containerCreated:${c}#${ev.count - 1}`, kind: 'containerCreated', component: 'container-runtime', title: `Container ${c} created`, container, warning, counting: 'occurrence' };
    case 'Started':
      return { key: `containerStarted:${c}#${ev.count - 1}`, kind: 'containerStarted', component: 'container-runtime', title: `Container ${c} started`, container, warning, counting: 'occurrence' };
    case 'Killing':
      return { key: `killing:${c}`, kind: 'killing', component: 'kubelet', title: `Stopping container ${c}`, container, warning, counting: 'repeat' };
    case 'Unhealthy':
      return { key: `unhealthy:${c}`, kind: 'unhealthy', component: 'kubelet', title: `Probe failed for ${c}`, container, warning: true, counting: 'repeat' };
    case 'BackOff':
      if (/^Back-off pulling image/.test(ev.message)) {
        return { key: waitingKey(c, 'ImagePullBackOff'), kind: 'backOff', component: 'kubelet', title: `Container ${c} waiting: ImagePullBackOff`, container, warning: true, counting: 'repeat' };
      }
      if (/^Back-off restarting failed container/.test(ev.message)) {
        return { key: waitingKey(c, 'CrashLoopBackOff'), kind: 'backOff', component: 'kubelet', title: `Container ${c} waiting: CrashLoopBackOff`, container, warning: true, counting: 'repeat' };
      }
      return { ...other(ev), kind: 'backOff', warning: true };
    case 'FailedMount': {
      const volume = /^MountVolume\.SetUp failed for volume "([^"]*)"/.exec(ev.message)?.[1];
      if (volume === undefined) return { ...other(ev), kind: 'failed', warning: true };
      return { key: `failedMount:${volume}`, kind: 'failed', component: 'kubelet', title: `MountVolume.SetUp failed for volume "${volume}"`, warning: true, counting: 'repeat' };
    }
    case 'Failed': {
      const reason = parseErrorReason(ev.message);
      if (reason && FAILURE_WAITING_REASONS.has(reason)) {
        return { key: waitingKey(c, reason), kind: waitingStageKind(reason), component: 'kubelet', title: `Container ${c} waiting: ${reason}`, container, warning: true, counting: 'repeat', secondary: true };
      }
      // The kubelet's `Error: <message>` for a container whose environment cannot be made.
      const configError = /^Error: (.*)$/s.exec(ev.message)?.[1];
      if (configError !== undefined && missingDependency('CreateContainerConfigError', configError)) {
        const reason = 'CreateContainerConfigError';
        return { key: waitingKey(c, reason), kind: 'failed', component: 'kubelet', title: `Container ${c} waiting: ${reason}`, container, warning: true, counting: 'repeat', secondary: true };
      }
      if (/^Failed to pull image/.test(ev.message)) {
        return { key: `pullFailed:${c}`, kind: 'failed', component: 'container-runtime', title: `Pulling image ${parseImage(ev.message) ?? ''} failed`.replace('  ', ' '), container, warning: true, counting: 'repeat' };
      }
      return { ...other(ev), kind: 'failed', warning: true };
    }
    default:
      return other(ev);
  }
}

/** Placement of an event about a Pod, ReplicaSet or Deployment; undefined for kinds the tracer does not follow. */
export function placeEvent(ev: NormalizedEvent): EventPlacement | undefined {
  switch (ev.involved.kind) {
    case 'Pod':
      return podPlacement(ev);
    case 'ReplicaSet': {
      const pod = parsePodMessage(ev.message);
      if (pod && ev.reason === 'SuccessfulCreate') {
        return { redirect: { kind: 'Pod', name: pod.pod }, key: 'podCreated', kind: 'podCreated', component: 'replicaset-controller', title: `Created by ReplicaSet ${ev.involved.name}`, warning: false, counting: 'repeat' };
      }
      if (pod && ev.reason === 'SuccessfulDelete') {
        return { redirect: { kind: 'Pod', name: pod.pod }, key: 'terminating', kind: 'terminating', component: 'replicaset-controller', title: 'Deletion requested', warning: false, counting: 'repeat' };
      }
      if (ev.reason === 'FailedCreate') {
        return { key: 'failedCreate', kind: 'failed', component: 'replicaset-controller', title: 'Creating a pod failed', warning: true, counting: 'repeat' };
      }
      return other(ev);
    }
    case 'Deployment': {
      const scaling = ev.reason === 'ScalingReplicaSet' ? parseScaling(ev.message) : undefined;
      if (scaling) {
        return {
          key: scalingKey(scaling.replicaSet, scaling.to),
          kind: 'scaled',
          component: 'deployment-controller',
          title: scaling.from === undefined ? `Scaled ${scaling.direction} replica set ${scaling.replicaSet} to ${scaling.to}` : scalingTitle(scaling.replicaSet, scaling.from, scaling.to),
          warning: false,
          counting: 'repeat',
        };
      }
      return other(ev);
    }
    default:
      return undefined;
  }
}
