/**
 * The simulator's internals steps as the tracer keeps them: in the simulator one object's steps
 * share its reference and their few words (`watchDelivered`, `kube-scheduler`, `MODIFIED`), but
 * each line parsed from the stream brings fresh copies of all of them. A 10,000-pod journey keeps
 * over a hundred thousand steps as evidence, so the extension host shares them again on arrival:
 * one reference object per object, one string per repeated word, one list of filter and score
 * plugins per content, a few bytes per step instead of a few hundred.
 */
import type { InternalStep, ObjectRef, VerdictTable } from '../core/internals';
import { SharedWords } from './shared-words';

/** Entries of each table before it starts afresh (the objects of a journey, a few words). */
const DEFAULT_LIMIT = 50_000;

/** Fields every kind of step may carry whose values repeat from step to step. */
const REPEATED_WORDS = ['type', 'component', 'eventType', 'verb', 'actor', 'key', 'resourceVersion', 'result', 'node', 'reason', 'container'] as const;

/** Returns a function that makes a parsed step share what earlier steps brought; it changes the step in place. */
export function stepSharer(limit = DEFAULT_LIMIT): <T extends InternalStep>(step: T) => T {
  const words = new SharedWords(limit);
  const word = (value: string): string => words.share(value);
  /** By uid (one per object, for ever); objects named without one by their kind, namespace and name. */
  const refs = new Map<string, ObjectRef>();
  const ref = (value: ObjectRef): ObjectRef => {
    const key = value.uid ?? `${value.kind}/${value.namespace ?? ''}/${value.name}`;
    const known = refs.get(key);
    if (known && known.kind === value.kind && known.name === value.name && known.namespace === value.namespace && known.uid === value.uid) return known;
    if (refs.size >= limit) refs.clear();
    const shared: ObjectRef = { kind: word(value.kind), name: value.name };
    if (value.namespace !== undefined) shared.namespace = word(value.namespace);
    if (value.uid !== undefined) shared.uid = value.uid;
    refs.set(key, shared);
    return shared;
  };
  /** A verdict table's plugin lists are the same for most pods: one instance per content. */
  const lists = new Map<string, readonly unknown[]>();
  const list = <L extends readonly unknown[]>(value: L): L => {
    if (!Array.isArray(value)) return value;
    const key = JSON.stringify(value);
    const known = lists.get(key);
    if (known) return known as L;
    if (lists.size >= limit) lists.clear();
    lists.set(key, value);
    return value;
  };
  const shareTableLists = (table: VerdictTable): void => {
    table.filters = list(table.filters);
    table.scorePlugins = list(table.scorePlugins);
    table.failures = list(table.failures);
  };
  return <T extends InternalStep>(step: T): T => {
    const fields = step as unknown as Record<string, unknown>;
    for (const field of REPEATED_WORDS) {
      const value = fields[field];
      if (typeof value === 'string') fields[field] = word(value);
    }
    if (step.type === 'schedulingCycle') {
      if (isRef(step.pod)) step.pod = ref(step.pod);
      if (step.table) shareTableLists(step.table);
    } else if (isRef(step.object)) {
      step.object = ref(step.object);
    }
    return step;
  };
}

function isRef(value: unknown): value is ObjectRef {
  return typeof value === 'object' && value !== null && typeof (value as ObjectRef).kind === 'string' && typeof (value as ObjectRef).name === 'string';
}
