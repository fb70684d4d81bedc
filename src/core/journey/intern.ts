/**
 * Sharing of the small values that repeat across thousands of pods: stage keys and titles,
 * `Ready: False → True`, `status.phase: Pending → Running`. Evidence is immutable once made, so
 * one frozen copy can serve every pod. Each table is bounded: when full it starts over, which
 * costs only sharing, never correctness.
 */
import type { ConditionChange, FieldChange } from './types';

const LIMIT = 65_536;

function remember<T>(table: Map<string, T>, key: string, make: () => T): T {
  const found = table.get(key);
  if (found !== undefined) return found;
  if (table.size >= LIMIT) table.clear();
  const made = make();
  table.set(key, made);
  return made;
}

// Written out rather than spread: see makeStage in records.ts on hidden classes.
function copyField(f: FieldChange): FieldChange {
  const out: FieldChange = { path: f.path };
  if (f.from !== undefined) out.from = f.from;
  if (f.to !== undefined) out.to = f.to;
  return Object.freeze(out);
}

function copyCondition(c: ConditionChange): ConditionChange {
  const out: ConditionChange = { type: c.type, to: c.to };
  if (c.from !== undefined) out.from = c.from;
  if (c.reason !== undefined) out.reason = c.reason;
  if (c.message !== undefined) out.message = c.message;
  return Object.freeze(out);
}

export class Interner {
  private readonly strings = new Map<string, string>();
  private readonly fieldLists = new Map<string, readonly FieldChange[]>();
  private readonly conditionLists = new Map<string, readonly ConditionChange[]>();

  string(value: string): string {
    return remember(this.strings, value, () => value);
  }

  fields(list: readonly FieldChange[]): FieldChange[] {
    let key = '';
    for (const f of list) key += `${f.path}\u0000${f.from ?? '\u0001'}\u0000${f.to ?? '\u0001'}\u0002`;
    return remember(this.fieldLists, key, () => Object.freeze(list.map(copyField))) as FieldChange[];
  }

  conditions(list: readonly ConditionChange[]): ConditionChange[] {
    let key = '';
    for (const c of list) key += `${c.type}\u0000${c.from ?? '\u0001'}\u0000${c.to}\u0000${c.reason ?? '\u0001'}\u0000${c.message ?? '\u0001'}\u0002`;
    return remember(this.conditionLists, key, () => Object.freeze(list.map(copyCondition))) as ConditionChange[];
  }
}
