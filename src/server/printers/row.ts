/** What one printer produces for one object: the cells, and row conditions when there are any. */
export type TableCell = string | number | boolean;

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
