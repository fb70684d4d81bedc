/**
 * When a stuck rollout gives up: deployment-controller sets Progressing=False with reason
 * ProgressDeadlineExceeded once no progress was seen for `progressDeadlineSeconds` (default 600)
 * after the condition's lastUpdateTime (the last progress, or the rollout's start).
 */
import type { KubeObject } from '../../../core/k8s';
import type { ProgressDeadline } from '../../../core/journey/fit-suggestions';
import { parseTime, type DeploymentObject } from '../../controllers/controller-types';
import { hasProgressDeadline, progressDeadlineSeconds } from '../../controllers/deployment-util';

const TIMED_OUT = 'ProgressDeadlineExceeded';

export function progressDeadlineOf(scaled: KubeObject | undefined): ProgressDeadline | undefined {
  if (scaled?.kind !== 'Deployment') return undefined;
  const deployment = scaled as DeploymentObject;
  if (!hasProgressDeadline(deployment)) return undefined;
  const condition = deployment.status?.conditions?.find((c) => c.type === 'Progressing');
  const lastUpdate = parseTime(condition?.lastUpdateTime) ?? parseTime(deployment.metadata?.creationTimestamp);
  if (lastUpdate === undefined) return undefined;
  const seconds = progressDeadlineSeconds(deployment);
  const exceeded = condition?.reason === TIMED_OUT;
  // A timed-out condition was stamped when the controller noticed: that is when it fired.
  return { deployment: deployment.metadata?.name ?? '', at: exceeded ? lastUpdate : lastUpdate + seconds * 1000, seconds, exceeded };
}
