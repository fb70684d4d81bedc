/** Quantities in cells as upstream's `Quantity.String()` prints them: canonical, `0` when absent. */
import { formatQuantity, parseQuantity } from '../../core/schema/quantity';

export function quantityString(value: string | number | undefined): string {
  if (value === undefined) return '0';
  const parsed = parseQuantity(value);
  return parsed.quantity ? formatQuantity(parsed.quantity) : String(value);
}

