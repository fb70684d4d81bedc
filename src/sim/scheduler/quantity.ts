/**
 * Kubernetes resource quantities (`100m`, `1.5Gi`, `2e3`) as the integers the scheduler compares:
 * `Value()` and `MilliValue()` of apimachinery's resource.Quantity, both rounded up.
 */

interface ParsedQuantity {
  /** The decimal digits as an integer (`1.5Gi` → 15). */
  mantissa: number;
  /** Power of ten applied to the mantissa (`1.5` → -1, `k` → +3, `m` → -3). */
  exponent10: number;
  /** Power of two from a binary suffix (`Gi` → 30). */
  exponent2: number;
}

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const QUANTITY = /^([+-]?)(\d*)(?:\.(\d*))?(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$/;

function parse(text: string): ParsedQuantity | undefined {
  const match = QUANTITY.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole = '', fraction = '', exponent, suffix = ''] = match;
  if (whole === '' && fraction === '') return undefined;
  const digits = (whole + fraction).replace(/^0+(?=\d)/, '');
  let mantissa = Number(digits);
  if (sign === '-') mantissa = -mantissa;
  let exponent10 = -fraction.length;
  let exponent2 = 0;
  if (exponent) exponent10 += Number(exponent.slice(1));
  else if (suffix in BINARY_SUFFIXES) exponent2 = BINARY_SUFFIXES[suffix];
  else exponent10 += DECIMAL_SUFFIXES[suffix];
  return { mantissa, exponent10, exponent2 };
}

/** ceil(q × 10^scale10), computed without the rounding error of binary fractions (0.1 × 1000 is 100, not 101). */
function scaled(q: ParsedQuantity, scale10: number): number {
  const exponent10 = q.exponent10 + scale10;
  const base = q.mantissa * 2 ** q.exponent2;
  if (exponent10 >= 0) return base * 10 ** exponent10;
  return Math.ceil(base / 10 ** -exponent10);
}

interface Cached {
  value: number;
  milli: number;
}

/** Pods from one template repeat the same few strings: parse each once. */
const cache = new Map<string, Cached>();
const CACHE_LIMIT = 10_000;

function lookup(quantity: string | number): Cached {
  if (typeof quantity === 'number') return { value: Math.ceil(quantity), milli: Math.ceil(quantity * 1000) };
  let hit = cache.get(quantity);
  if (hit) return hit;
  const parsed = parse(quantity);
  hit = parsed ? { value: scaled(parsed, 0), milli: scaled(parsed, 3) } : { value: 0, milli: 0 };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(quantity, hit);
  return hit;
}

/** resource.Quantity.Value(): the quantity in base units, rounded up. Unparseable input counts as 0. */
export function quantityValue(quantity: string | number | undefined): number {
  return quantity === undefined ? 0 : lookup(quantity).value;
}

/** resource.Quantity.MilliValue(): thousandths of the base unit, rounded up (CPU in millicores). */
export function quantityMilliValue(quantity: string | number | undefined): number {
  return quantity === undefined ? 0 : lookup(quantity).milli;
}

export function isValidQuantity(quantity: string): boolean {
  return parse(quantity) !== undefined;
}
