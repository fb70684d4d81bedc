/**
 * A pod's PersistentVolumeClaims in its journey: the claim's events (the PV controller's and the
 * provisioner's) and its binding become stages of every pod that mounts it, so a StatefulSet pod
 * shows `claim Pending → WaitForFirstConsumer → provisioned → Bound` before it is scheduled, and a
 * pod stuck on storage shows what its claim waits for.
 */
import type { KubeObject } from '../k8s';
import type { EventPlacement } from './derive-event';
import type { NormalizedEvent } from './events';
import type { StageDraft } from './records';
import { read } from './digest';

export function claimKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

const WAITING_TITLES: Readonly<Record<string, (claim: string) => string>> = {
  WaitForFirstConsumer: (claim) => `Claim ${claim} waits for its first consumer`,
  ExternalProvisioning: (claim) => `Claim ${claim} waits for its volume to be provisioned`,
};

const EVENT_TITLES: Readonly<Record<string, (claim: string) => string>> = {
  Provisioning: (claim) => `Provisioning a volume for claim ${claim}`,
  ProvisioningSucceeded: (claim) => `Volume provisioned for claim ${claim}`,
  ProvisioningFailed: (claim) => `Provisioning a volume for claim ${claim} failed`,
  FailedBinding: (claim) => `No volume for claim ${claim}`,
  ClaimLost: (claim) => `Claim ${claim} lost its volume`,
};

/** Where an event about a claim goes in each pod that mounts it. */
export function placeClaimEvent(ev: NormalizedEvent): EventPlacement {
  const claim = ev.involved.name;
  const key = `claim:${claim}:${ev.reason}`;
  const warning = ev.type === 'Warning';
  // An external provisioner reports `<provisioner>_<pod>_<uuid>`: the journey names the provisioner.
  const component = ev.component ? ev.component.split('_')[0] : 'persistentvolume-controller';
  const waiting = WAITING_TITLES[ev.reason];
  const subject = `PersistentVolumeClaim ${claim}`;
  if (waiting) return { key, kind: 'waiting', component, title: waiting(claim), warning, counting: 'repeat', subject };
  const title = EVENT_TITLES[ev.reason]?.(claim) ?? `Claim ${claim}: ${ev.reason}`;
  return { key, kind: warning ? 'failed' : 'event', component, title, warning, counting: 'repeat', subject };
}

/** The stage of a claim's binding, once `status.phase` is Bound. */
export function claimBoundDraft(claim: KubeObject): StageDraft | undefined {
  const name = read.str(read.record(claim.metadata)?.name);
  const volume = read.str(read.record(claim.spec)?.volumeName);
  if (!name || read.str(read.record(claim.status)?.phase) !== 'Bound' || !volume) return undefined;
  return { key: `claim:${name}:Bound`, kind: 'event', component: 'persistentvolume-controller', title: `Claim ${name} Bound to volume ${volume}`, message: `PersistentVolumeClaim ${name}: Bound to volume ${volume}` };
}
