/** Server-side Table printing (`kubectl get`): see table.ts. */
export {
  toTable,
  columnDefinitions,
  TABLE_CONTENT_TYPE,
  type Table,
  type TableRow,
  type TableOptions,
  type IncludeObjectPolicy,
  type PartialObjectMetadata,
  type TableColumnDefinition,
  type TableCell,
  type TableRowCondition,
} from './table';
export { humanDuration } from './time';
