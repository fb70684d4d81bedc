/**
 * The Table of a custom resource, as apiextensions-apiserver's tableconvertor prints it: a Name
 * column, then the version's `additionalPrinterColumns` (or one Age column when it declares none),
 * each cell read with the column's JSONPath and typed by the column's type.
 */
import type { KubeObject } from '../../core/k8s';
import type { CustomResourceInfo, PrinterColumn } from '../../sim/apis/apiextensions/crd';
import { CREATION_TIMESTAMP_DOC, NAME_DOC, type TableColumnDefinition } from './columns';
import type { TableCell } from './row';
import { ageSince } from './time';

const DEFAULT_COLUMNS: readonly PrinterColumn[] = [{ name: 'Age', type: 'date', description: CREATION_TIMESTAMP_DOC, jsonPath: '.metadata.creationTimestamp' }];

function printerColumns(info: CustomResourceInfo): readonly PrinterColumn[] {
  return info.printerColumns.length > 0 ? info.printerColumns : DEFAULT_COLUMNS;
}

export function customResourceColumns(info: CustomResourceInfo): TableColumnDefinition[] {
  return [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DOC, priority: 0 },
    ...printerColumns(info).map((column) => ({
      name: column.name,
      type: column.type,
      format: column.format ?? '',
      description: column.description || `Custom resource definition column (in JSONPath format): ${column.jsonPath}`,
      priority: column.priority ?? 0,
    })),
  ];
}

/** Cells of one row; a column whose path finds nothing (or a value of another type) is null, printed `<none>` by kubectl. */
export function customResourceCells(info: CustomResourceInfo, object: KubeObject, now: number): TableCell[] {
  const cells: TableCell[] = [object.metadata?.name ?? ''];
  for (const column of printerColumns(info)) {
    const found = evaluateJsonPath(column.jsonPath, object);
    cells.push(found.length === 0 ? null : cellOf(column.type, found[0], now));
  }
  return cells;
}

function cellOf(type: string, value: unknown, now: number): TableCell {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? value : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      const parsed = typeof value === 'string' ? Date.parse(value) : Number.NaN;
      return Number.isNaN(parsed) ? null : ageSince(parsed, now);
    }
    default:
      return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  }
}

type Step = { field: string } | { index: number } | { all: true } | { filter: { path: string[]; equals: string } };

const STEP = /^\.([A-Za-z0-9_$-]+)|^\[(\d+)\]|^\[\*\]|^\[\?\(@((?:\.[A-Za-z0-9_$-]+)+)\s*==\s*(?:"([^"]*)"|'([^']*)')\)\]/;

/**
 * The JSONPath forms CRDs use for columns: `.spec.replicas`, `.items[0].name`, `.items[*].name`
 * and `.status.conditions[?(@.type=="Ready")].status`, in `{}` or not. Anything else finds nothing.
 */
export function evaluateJsonPath(path: string, object: unknown): unknown[] {
  let rest = path.trim().replace(/^\{(.*)\}$/s, '$1');
  const steps: Step[] = [];
  while (rest.length > 0) {
    const match = STEP.exec(rest);
    if (!match) return [];
    if (match[1] !== undefined) steps.push({ field: match[1] });
    else if (match[2] !== undefined) steps.push({ index: Number(match[2]) });
    else if (match[3] !== undefined) steps.push({ filter: { path: match[3].slice(1).split('.'), equals: match[4] ?? match[5] ?? '' } });
    else steps.push({ all: true });
    rest = rest.slice(match[0].length);
  }
  let current: unknown[] = [object];
  for (const step of steps) current = current.flatMap((value) => apply(step, value));
  return current;
}

function apply(step: Step, value: unknown): unknown[] {
  if ('field' in step) {
    const found = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[step.field] : undefined;
    return found === undefined ? [] : [found];
  }
  if (!Array.isArray(value)) return [];
  if ('index' in step) return step.index < value.length ? [value[step.index]] : [];
  if ('all' in step) return value;
  return value.filter((item) => {
    let at: unknown = item;
    for (const field of step.filter.path) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[field] : undefined;
    return at !== undefined && String(at) === step.filter.equals;
  });
}
