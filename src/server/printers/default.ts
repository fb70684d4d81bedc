/**
 * The Table of a kind without printers of its own, as the API server's DefaultTableConvertor
 * builds it (k8s.io/apiserver/pkg/registry/rest/table.go): the name and the creation time.
 */
import type { KubeObject } from '../../core/k8s';
import type { TableColumnDefinition } from './columns';
import type { PrintedRow } from './row';

export const DEFAULT_COLUMNS: readonly TableColumnDefinition[] = Object.freeze([
  Object.freeze({ name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names', priority: 0 }),
  Object.freeze({ name: 'Created At', type: 'date', format: '', description: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata', priority: 0 }),
]);

export function printDefault(object: KubeObject, _now: number): PrintedRow {
  return { cells: [object.metadata?.name ?? '', object.metadata?.creationTimestamp ?? ''] };
}
