/**
 * ControllerRevisions, as pkg/controller/history keeps them for the StatefulSet and DaemonSet
 * controllers: each revision stores a patch that re-applies one version of the owner's pod
 * template, is named `<owner>-<hash>`, and carries a revision number; rollbacks and
 * `kubectl rollout history|undo` read them.
 *
 * The hash is upstream's: FNV-1 (32 bits) over the revision's data, the collision count's decimal
 * digits appended when set, the sum's digits mapped through `rand.SafeEncodeString`. The data is
 * JSON with sorted keys, as Go's encoder writes the map upstream builds; Go's typed encoding also
 * writes some zero values (`"creationTimestamp":null`, `"resources":{}`) that the stored object
 * here does not have, so a hash matches upstream's in shape, not in value.
 */
import type { ControllerRevision, KubeObject } from '../../../core/k8s';
import { ApiError, type StoreApi } from '../../store/types';
import { canonicalJson, safeEncodeString } from '../pod-template-hash';
import { newControllerRef } from '../controller-types';

export type ControllerRevisionObject = ControllerRevision & KubeObject;

/** The label on a ControllerRevision that holds its hash. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';
/** The label on pods that names the revision they were made from (apps.ControllerRevisionHashLabelKey). */
export const POD_REVISION_LABEL = 'controller-revision-hash';

const FNV32_OFFSET_BASIS = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;
const encoder = new TextEncoder();

/** FNV-1 (multiply, then xor), 32 bits: Go's `fnv.New32`. */
function fnv32(bytes: Uint8Array, seed = FNV32_OFFSET_BASIS): number {
  let hash = seed >>> 0;
  for (let i = 0; i < bytes.length; i++) {
    hash = Math.imul(hash, FNV32_PRIME) >>> 0;
    hash ^= bytes[i];
  }
  return hash >>> 0;
}

/** `HashControllerRevision`: the hash of a revision's data, changed by `probe` (the collision count) when set. */
export function hashControllerRevision(data: unknown, probe?: number): string {
  let hash = fnv32(encoder.encode(canonicalJson(data ?? {})));
  if (probe !== undefined) hash = fnv32(encoder.encode(String(probe)), hash);
  return safeEncodeString(String(hash));
}

/** `ControllerRevisionName`: `prefix-hash`, the prefix cut to 223 bytes so the name fits in 253. */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.length > 223 ? prefix.slice(0, 223) : prefix}-${hash}`;
}

/**
 * `getPatch` of the StatefulSet and DaemonSet controllers: a strategic merge patch that replaces
 * the owner's pod template with the one it has now.
 */
export function templateReplacePatch(owner: KubeObject): Record<string, unknown> {
  const template = (owner.spec as { template?: Record<string, unknown> } | undefined)?.template ?? {};
  return { spec: { template: { ...template, $patch: 'replace' } } };
}

/** `NewControllerRevision`: owned by `parent`, labelled with the template's labels and the hash. */
export function newControllerRevision(
  parent: KubeObject,
  parentKind: { apiVersion: string; kind: string },
  templateLabels: Record<string, string> | undefined,
  data: unknown,
  revision: number,
  collisionCount?: number,
): ControllerRevisionObject {
  const hash = hashControllerRevision(data, collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(parent.metadata?.name ?? '', hash),
      namespace: parent.metadata?.namespace,
      labels: { ...templateLabels, [CONTROLLER_REVISION_HASH_LABEL]: hash },
      ownerReferences: [newControllerRef(parent, parentKind.apiVersion, parentKind.kind)],
    },
    data: data as ControllerRevision['data'],
    revision,
  };
}

/** `SortControllerRevisions`: by revision, then creation time, then name. */
export function sortControllerRevisions(revisions: readonly ControllerRevisionObject[]): ControllerRevisionObject[] {
  return [...revisions].sort(
    (a, b) =>
      a.revision - b.revision ||
      (a.metadata?.creationTimestamp ?? '').localeCompare(b.metadata?.creationTimestamp ?? '') ||
      (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
  );
}

/** `EqualRevision`: the same data (the hash labels are names, not numbers, so only the data decides). */
export function equalRevision(a: ControllerRevisionObject | undefined, b: ControllerRevisionObject | undefined): boolean {
  if (!a || !b) return a === b;
  return canonicalJson(a.data ?? null) === canonicalJson(b.data ?? null);
}

/** `FindEqualRevisions`: the revisions whose data equals `needle`'s. */
export function findEqualRevisions(revisions: readonly ControllerRevisionObject[], needle: ControllerRevisionObject): ControllerRevisionObject[] {
  return revisions.filter((revision) => equalRevision(revision, needle));
}

/** `nextRevision`: one more than the highest revision, 1 for none. */
export function nextRevision(revisions: readonly ControllerRevisionObject[]): number {
  let highest = 0;
  for (const revision of revisions) if (revision.revision > highest) highest = revision.revision;
  return highest + 1;
}

/**
 * `realHistory`: ControllerRevisions read and written through the API server as `fieldManager`.
 */
export class ControllerHistory {
  constructor(
    private readonly store: StoreApi,
    private readonly fieldManager: string,
  ) {}

  /** The revisions `parent` controls. */
  listControllerRevisions(parent: KubeObject): ControllerRevisionObject[] {
    return this.store.ownedBy<ControllerRevisionObject>('ControllerRevision', parent.metadata?.uid ?? '');
  }

  /**
   * `CreateControllerRevision`: creates `revision` under a name made from its hash. When the name is
   * taken by a revision with other data, the collision count goes up and the hash is made again; a
   * revision with the same data is returned as it is. `collisionCount` is updated in place.
   */
  createControllerRevision(parent: KubeObject, revision: ControllerRevisionObject, collisionCount: { value: number }): ControllerRevisionObject {
    for (;;) {
      const hash = hashControllerRevision(revision.data, collisionCount.value);
      const candidate: ControllerRevisionObject = {
        ...revision,
        metadata: { ...revision.metadata, name: controllerRevisionName(parent.metadata?.name ?? '', hash), labels: { ...revision.metadata?.labels, [CONTROLLER_REVISION_HASH_LABEL]: hash } },
      };
      try {
        return this.store.create('ControllerRevision', candidate, { fieldManager: this.fieldManager });
      } catch (error) {
        if (!(error instanceof ApiError && error.code === 409)) throw error;
        const existing = this.store.get<ControllerRevisionObject>('ControllerRevision', candidate.metadata?.namespace, candidate.metadata?.name ?? '');
        if (existing && equalRevision(existing, candidate)) return existing;
        collisionCount.value++;
      }
    }
  }

  /** `UpdateControllerRevision`: gives an existing revision a new number (a rollback reuses an old revision). */
  updateControllerRevision(revision: ControllerRevisionObject, newRevision: number): ControllerRevisionObject {
    if (revision.revision === newRevision) return revision;
    return this.store.mutate<ControllerRevisionObject>('ControllerRevision', revision.metadata?.namespace, revision.metadata?.name ?? '', (copy) => {
      copy.revision = newRevision;
    }, { fieldManager: this.fieldManager });
  }

  deleteControllerRevision(revision: ControllerRevisionObject): void {
    try {
      this.store.delete('ControllerRevision', revision.metadata?.namespace, revision.metadata?.name ?? '', { actor: this.fieldManager });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 404)) throw error;
    }
  }
}
