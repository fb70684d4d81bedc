/** Secret, ServiceAccount and ResourceQuota rows: ports of `printSecret`, `printServiceAccount` and `printResourceQuota`. */
import type { ResourceQuota, Secret, ServiceAccount } from '../../core/k8s';
import { quantityString } from './quantity';
import type { PrintedRow } from './row';
import { ageOf } from './time';

/** The DATA column counts keys; the values never reach a Table. */
export function printSecret(secret: Secret, now: number): PrintedRow {
  return { cells: [secret.metadata?.name ?? '', secret.type ?? '', Object.keys(secret.data ?? {}).length, ageOf(secret, now)] };
}

export function printServiceAccount(account: ServiceAccount, now: number): PrintedRow {
  return { cells: [account.metadata?.name ?? '', (account.secrets ?? []).length, ageOf(account, now)] };
}

/** `name: used/hard` for each resource in status.hard, sorted; `limits.*` ones go to the LIMIT column. */
export function printResourceQuota(quota: ResourceQuota, now: number): PrintedRow {
  const hard = quota.status?.hard ?? {};
  const used = quota.status?.used ?? {};
  const requests: string[] = [];
  const limits: string[] = [];
  for (const resource of Object.keys(hard).sort()) {
    const pieces = resource.split('.');
    const column = pieces.length > 1 && pieces[0] === 'limits' ? limits : requests;
    column.push(`${resource}: ${quantityString(used[resource])}/${quantityString(hard[resource])}`);
  }
  return { cells: [quota.metadata?.name ?? '', requests.join(', '), limits.join(', '), ageOf(quota, now)] };
}
