/**
 * `metadata.managedFields` entries as the store stamps them. An entry says who wrote an object,
 * how and in which second; thousands of objects written by the same manager in the same second
 * carry equal entries, so one frozen instance is shared by all of them (stored objects are
 * read-only for everyone, and a copy made for a change is a fresh, unfrozen one).
 */
import type { ManagedFieldsEntry } from '../../core/k8s';

export interface StampRequest {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  /** RFC 3339, whole seconds. */
  time: string;
  subresource?: 'status' | 'binding';
}

const EMPTY_FIELDS = Object.freeze({});

interface Stamped {
  operation: string;
  apiVersion: string;
  subresource: string;
  entry: ManagedFieldsEntry;
  /** `[entry]`, the managedFields of an object this entry alone wrote. */
  alone: readonly ManagedFieldsEntry[];
}

export class ManagedFieldStamps {
  /** Per manager, the latest entry of each operation, apiVersion and subresource it writes with. */
  private readonly latest = new Map<string, Stamped[]>();

  private lookup(request: StampRequest): Stamped {
    let variants = this.latest.get(request.manager);
    if (!variants) this.latest.set(request.manager, (variants = []));
    const subresource = request.subresource ?? '';
    let index = 0;
    while (index < variants.length) {
      const { operation, apiVersion, subresource: recorded } = variants[index];
      if (operation === request.operation && apiVersion === request.apiVersion && recorded === subresource) break;
      index++;
    }
    const cached = variants[index] as Stamped | undefined;
    if (cached && cached.entry.time === request.time) return cached;
    // Field order as the API server serialises ManagedFieldsEntry; only the status subresource is recorded.
    const entry: ManagedFieldsEntry = Object.freeze({
      manager: request.manager,
      operation: request.operation,
      apiVersion: request.apiVersion,
      time: request.time,
      fieldsType: 'FieldsV1',
      fieldsV1: EMPTY_FIELDS,
      ...(request.subresource === 'status' ? { subresource: 'status' } : {}),
    });
    const stamped: Stamped = { operation: request.operation, apiVersion: request.apiVersion, subresource, entry, alone: Object.freeze([entry]) };
    variants[index] = stamped;
    return stamped;
  }

  /** The managedFields of a new object: this one entry. */
  forCreate(request: StampRequest): ManagedFieldsEntry[] {
    return this.lookup(request).alone as ManagedFieldsEntry[];
  }

  /**
   * The managedFields after a write: the writer's entry (same manager, operation and
   * subresource) replaced, or appended. The old list itself when nothing changes.
   */
  afterWrite(old: readonly ManagedFieldsEntry[] | undefined, request: StampRequest): ManagedFieldsEntry[] {
    const { entry, alone } = this.lookup(request);
    if (!old || old.length === 0) return alone as ManagedFieldsEntry[];
    // Matched on the request's subresource: a binding's entry records none, so it never matches a later binding.
    const subresource = request.subresource ?? '';
    for (let i = 0; i < old.length; i++) {
      const existing = old[i];
      if (existing.manager !== entry.manager || existing.operation !== entry.operation || (existing.subresource ?? '') !== subresource) continue;
      if (existing === entry) return old as ManagedFieldsEntry[];
      const entries = old.slice();
      entries[i] = entry;
      return entries;
    }
    // concat sizes the new list exactly; a push would leave room for 16 more entries in every stored object.
    return old.concat(entry);
  }
}
