/**
 * Conversion between a served version and the version a kind is stored in, for the kinds served
 * in more than one version (OTHER_SERVED_VERSIONS in src/sim/store/resources.ts).
 */
import type { KubeObject } from '../../core/k8s';
import { isStorageVersion } from '../store/resources';
import { ApiError, type ResourceInfo } from '../store/types';
import { horizontalPodAutoscalerFromV1, horizontalPodAutoscalerToV1 } from './autoscaling/conversion';

/** The stored object as a client of `info`'s version reads it. */
export function toServedVersion(info: ResourceInfo, stored: KubeObject): KubeObject {
  if (isStorageVersion(info)) return stored;
  if (info.kind === 'HorizontalPodAutoscaler') return horizontalPodAutoscalerToV1(stored);
  throw new Error(`no conversion from the storage version of ${info.kind} to ${info.apiVersion}`);
}

/** An object written in `info`'s version, as it is stored. */
export function toStorageVersion(info: ResourceInfo, given: KubeObject): KubeObject {
  if (isStorageVersion(info)) return given;
  if (info.kind !== 'HorizontalPodAutoscaler') throw new Error(`no conversion from ${info.apiVersion} ${info.kind} to its storage version`);
  const converted = horizontalPodAutoscalerFromV1(given);
  if (typeof converted === 'string') throw new ApiError(400, 'BadRequest', `converting (${info.apiVersion}, Kind=${info.kind}) to its storage version: ${converted}`);
  return converted;
}
