/**
 * What `trace` says about the PersistentVolumeClaims a manifest applies on their own: a claim is not
 * a journey (nothing runs), but where it stands is worth a line. A claim of a WaitForFirstConsumer
 * class (kind's default `standard`) stays Pending until a pod uses it: on kind too, so the note says
 * it is the expected state and the trace does not fail for it.
 */
import type { Event, KubeObject } from '../core/k8s';
import type { StoreApi } from '../sim/store/types';
import { claimClass, isDelayBindingMode, type ClaimObject } from '../sim/storage/storage-objects';

export interface AppliedClaim {
  namespace: string;
  name: string;
}

/** Reasons the PV controller (or a provisioner) gives for a Pending claim. */
const PENDING_REASONS = ['ProvisioningFailed', 'FailedBinding', 'WaitForFirstConsumer', 'ExternalProvisioning'];

/**
 * The last pending reason the controller gave each claim, kept as the Events are written: `trace`
 * lets Events expire after 2 s of virtual time (eventTtlMs), and a journey applied beside the
 * claim can take longer than that, so reading the store at the end would lose the reason.
 */
export class ClaimEventMemory {
  private readonly latestByClaimUid = new Map<string, Event & KubeObject>();
  private readonly unsubscribe: () => void;

  constructor(private readonly store: StoreApi) {
    this.unsubscribe = store.subscribe('Event', (change) => {
      if (change.type === 'DELETED') return;
      const event = change.object as Event & KubeObject;
      if (event.involvedObject?.kind !== 'PersistentVolumeClaim' || !PENDING_REASONS.includes(event.reason ?? '')) return;
      if (event.involvedObject.uid) this.latestByClaimUid.set(event.involvedObject.uid, event);
    });
  }

  latest(claim: ClaimObject): (Event & KubeObject) | undefined {
    return this.latestByClaimUid.get(claim.metadata?.uid ?? '') ?? latestStoredClaimEvent(this.store, claim);
  }

  dispose(): void {
    this.unsubscribe();
  }
}

function latestStoredClaimEvent(store: StoreApi, claim: ClaimObject): (Event & KubeObject) | undefined {
  const events = store
    .list<Event & KubeObject>('Event', { namespace: claim.metadata?.namespace })
    .items.filter((e) => e.involvedObject.kind === 'PersistentVolumeClaim' && e.involvedObject.uid === claim.metadata?.uid && PENDING_REASONS.includes(e.reason ?? ''));
  return events.at(-1);
}

/** Every applied claim is Bound, or the controller said why it is not (yet). */
export function claimsSettled(store: StoreApi, claims: readonly AppliedClaim[], events: ClaimEventMemory): boolean {
  return claims.every((applied) => {
    const claim = store.get<ClaimObject>('PersistentVolumeClaim', applied.namespace, applied.name);
    return !claim || claim.status?.phase === 'Bound' || events.latest(claim) !== undefined;
  });
}

export function claimNotes(store: StoreApi, claims: readonly AppliedClaim[], events: ClaimEventMemory): string[] {
  const notes: string[] = [];
  for (const applied of claims) {
    const claim = store.get<ClaimObject>('PersistentVolumeClaim', applied.namespace, applied.name);
    if (!claim) continue;
    const subject = `persistentvolumeclaim/${applied.name}`;
    const phase = claim.status?.phase ?? 'Pending';
    if (phase === 'Bound') {
      notes.push(`${subject}: Bound to volume ${claim.spec?.volumeName} (${claim.status?.capacity?.storage ?? '?'}, class ${claimClass(claim) || '""'})`);
      continue;
    }
    const event = events.latest(claim);
    const words = event ? ` (${event.reason}: ${event.message})` : '';
    if (isDelayBindingMode(store, claim)) {
      notes.push(`${subject}: ${phase}${words}: class ${claimClass(claim)} binds WaitForFirstConsumer, so the claim waits for a pod that uses it; this is the expected state, on kind too`);
    } else {
      notes.push(`${subject}: ${phase}${words}`);
    }
  }
  return notes;
}
