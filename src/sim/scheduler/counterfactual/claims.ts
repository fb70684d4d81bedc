/**
 * The claim in the way, when VolumeBinding's PreFilter refused the pod on every node: a claim that
 * does not exist (create it: a 1Gi ReadWriteOnce claim of the default class, which provisions a
 * volume on the node the pod lands on), or an unbound claim naming a StorageClass that does not
 * exist (use the default class). The pod would then fit wherever every other filter passes.
 */
import type { KubeObject } from '../../../core/k8s';
import { claimClass, defaultStorageClass, getStorageClass, isClaimBound, type ClaimObject } from '../../storage/storage-objects';
import { F_VOLUMES } from './probe';
import type { Candidate, SuggestionInput } from './types';

const NOT_FOUND = /^persistentvolumeclaim "([^"]+)" not found$/;

function nodesWithoutVolumes(masks: Uint16Array): number {
  let count = 0;
  for (const mask of masks) if ((mask & ~F_VOLUMES) === 0) count++;
  return count;
}

function newClaim(name: string, namespace: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: namespace === 'default' ? { name } : { name, namespace },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  };
}

export function suggestClaims(input: SuggestionInput): Candidate[] {
  const { prepared, pod, probe, masks } = input;
  const rejection = prepared.volumeRejection;
  if (rejection === undefined) return [];
  const namespace = pod.metadata?.namespace ?? 'default';
  const volumes = pod.spec?.volumes ?? [];
  const nodes = nodesWithoutVolumes(masks);
  const missing = NOT_FOUND.exec(rejection)?.[1];
  if (missing !== undefined) {
    const index = volumes.findIndex((volume) => volume.persistentVolumeClaim?.claimName === missing);
    return [
      {
        kind: 'claim',
        summary: `PersistentVolumeClaim ${missing} (1Gi, ReadWriteOnce; it does not exist)`,
        path: index >= 0 ? `spec.volumes[${index}].persistentVolumeClaim.claimName` : undefined,
        edits: [{ op: 'create', object: newClaim(missing, namespace) }],
        nodes,
      },
    ];
  }
  const fallback = defaultStorageClass(probe.store);
  if (!fallback) return [];
  const out: Candidate[] = [];
  for (const volume of volumes) {
    const name = volume.persistentVolumeClaim?.claimName;
    if (name === undefined) continue;
    const claim = probe.store.get<ClaimObject>('PersistentVolumeClaim', namespace, name);
    if (!claim || isClaimBound(claim) || claim.spec?.volumeName) continue;
    const className = claimClass(claim);
    if (className === '' || getStorageClass(probe.store, className)) continue;
    const fallbackName = fallback.metadata?.name ?? '';
    out.push({
      kind: 'claim',
      summary: `storageClassName: ${fallbackName} on PersistentVolumeClaim ${name} (StorageClass ${className} does not exist)`,
      target: { kind: 'PersistentVolumeClaim', namespace, name },
      path: 'spec.storageClassName',
      edits: [{ op: 'set', path: 'spec.storageClassName', value: fallbackName }],
      nodes,
    });
  }
  return out;
}
