/** What one printer produces for one object: the cells, and row conditions when there are any. */
/** null is a custom resource column whose JSONPath finds nothing (kubectl prints `<none>`). */
export type TableCell = string | number | boolean | null;

export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface PrintedRow {
  cells: TableCell[];
  conditions?: TableRowCondition[];
}
