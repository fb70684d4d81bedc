/**
 * resource.Quantity as kube-apiserver parses and prints it (k8s.io/apimachinery/pkg/api/resource):
 * the same accepted syntax and error strings, and the canonical form the API returns (`0.5` →
 * `500m`, `1024Mi` → `1Gi`, `1000` → `1k`). Values are kept exactly, in nano units, as BigInt.
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value × 10^9, rounded away from zero (ParseQuantity keeps nano precision). */
  readonly nano: bigint;
  readonly format: QuantityFormat;
}

/** apimachinery's ErrFormatWrong, ErrNumeric and ErrSuffix. */
export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

const DECIMAL_SUFFIX_EXPONENTS: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIX_EXPONENTS: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIX_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIX_EXPONENTS).map(([suffix, exponent]) => [exponent, suffix]));
const BINARY_SUFFIX_BY_POWER = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const SUFFIX_CHARS = 'eEinumkKMGTP';
const NANO = 1_000_000_000n;

export type ParseResult = { quantity: Quantity; error?: undefined } | { quantity?: undefined; error: string };

interface Pieces {
  positive: boolean;
  whole: string;
  fraction: string;
  suffix: string;
}

const isDigit = (ch: string): boolean => ch >= '0' && ch <= '9';

/** parseQuantityString, step for step: sign, digits, optional fraction, suffix letters, optional signed exponent digits. */
function splitQuantity(text: string): Pieces | undefined {
  let pos = 0;
  const end = text.length;
  let positive = true;
  if (text[0] === '-') {
    positive = false;
    pos++;
  } else if (text[0] === '+') {
    pos++;
  }
  const wholeStart = pos;
  while (pos < end && isDigit(text[pos])) pos++;
  const whole = text.slice(wholeStart, pos);
  let fraction = '';
  if (pos < end && text[pos] === '.') {
    pos++;
    const fractionStart = pos;
    while (pos < end && isDigit(text[pos])) pos++;
    fraction = text.slice(fractionStart, pos);
  }
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(text[pos])) pos++;
  if (pos < end && (text[pos] === '-' || text[pos] === '+')) pos++;
  while (pos < end && isDigit(text[pos])) pos++;
  if (pos < end) return undefined;
  return { positive, whole, fraction, suffix: text.slice(suffixStart) };
}

function interpretSuffix(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  if (suffix in DECIMAL_SUFFIX_EXPONENTS) return { base: 10, exponent: DECIMAL_SUFFIX_EXPONENTS[suffix], format: 'DecimalSI' };
  if (suffix in BINARY_SUFFIX_EXPONENTS) return { base: 2, exponent: BINARY_SUFFIX_EXPONENTS[suffix], format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?\d+$/.test(suffix.slice(1))) {
    return { base: 10, exponent: Number(suffix.slice(1)), format: 'DecimalExponent' };
  }
  return undefined;
}

/** ⌈a / b⌉ for non-negative a and positive b. */
const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

const parseCache = new Map<string, ParseResult>();
const PARSE_CACHE_LIMIT = 10_000;

/**
 * ParseQuantity. Results are cached (and frozen, as they are shared): every pod of a template
 * carries the same few strings, parsed by defaulting, validation and the QoS class alike.
 */
export function parseQuantity(input: string | number): ParseResult {
  const key = typeof input === 'string' ? input : String(input);
  const cached = parseCache.get(key);
  if (cached !== undefined) return cached;
  const result = frozen(parseQuantityText(key));
  // A bounded cache: a client sending ever new strings cannot grow it without limit.
  if (parseCache.size >= PARSE_CACHE_LIMIT) parseCache.clear();
  parseCache.set(key, result);
  return result;
}

function frozen(result: ParseResult): ParseResult {
  if (result.quantity) Object.freeze(result.quantity);
  return Object.freeze(result);
}

function parseQuantityText(input: string): ParseResult {
  const text = input.trim();
  if (text.length === 0) return { error: QUANTITY_FORMAT_ERROR };
  const pieces = splitQuantity(text);
  if (!pieces) return { error: QUANTITY_FORMAT_ERROR };
  const suffix = interpretSuffix(pieces.suffix);
  if (!suffix) return { error: QUANTITY_SUFFIX_ERROR };
  const digits = BigInt((pieces.whole + pieces.fraction).replace(/^0+/, '') || '0');
  // value = digits × 10^-len(fraction) × base^exponent, expressed in nano units.
  let power10 = 9 - pieces.fraction.length;
  let magnitude = digits;
  if (suffix.base === 10) power10 += suffix.exponent;
  else magnitude *= 2n ** BigInt(suffix.exponent);
  magnitude = power10 >= 0 ? magnitude * 10n ** BigInt(power10) : ceilDiv(magnitude, 10n ** BigInt(-power10));
  return { quantity: { nano: pieces.positive ? magnitude : -magnitude, format: suffix.format } };
}

function decimalCanonical(magnitude: bigint, format: QuantityFormat): string {
  let mantissa = magnitude;
  let exponent = -9;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  // The suffix exponent must be a multiple of 3 (Go's % keeps the sign, like JavaScript's).
  switch (exponent % 3) {
    case 1:
    case -2:
      mantissa *= 10n;
      exponent -= 1;
      break;
    case 2:
    case -1:
      mantissa *= 100n;
      exponent -= 2;
      break;
  }
  if (format === 'DecimalExponent') return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  const suffix = DECIMAL_SUFFIX_BY_EXPONENT.get(exponent);
  return suffix === undefined ? `${mantissa}e${exponent}` : `${mantissa}${suffix}`;
}

/** Quantity.String(): the canonical form kube-apiserver writes back. */
export function formatQuantity(quantity: Quantity): string {
  if (quantity.nano === 0n) return '0';
  const sign = quantity.nano < 0n ? '-' : '';
  const magnitude = quantity.nano < 0n ? -quantity.nano : quantity.nano;
  // BinarySI only when it is exact and at least 1Ki; otherwise it prints as DecimalSI.
  if (quantity.format === 'BinarySI' && magnitude >= 1024n * NANO && magnitude % NANO === 0n) {
    let amount = magnitude / NANO;
    let power = 0;
    while (amount % 1024n === 0n && power < BINARY_SUFFIX_BY_POWER.length - 1) {
      amount /= 1024n;
      power++;
    }
    return `${sign}${amount}${BINARY_SUFFIX_BY_POWER[power]}`;
  }
  const format = quantity.format === 'BinarySI' ? 'DecimalSI' : quantity.format;
  return sign + decimalCanonical(magnitude, format);
}

/** Quantity.RoundUp(-3): what SetDefaults_ResourceList does to every resource list. */
export function roundUpToMilli(quantity: Quantity): Quantity {
  const step = 1_000_000n;
  const remainder = quantity.nano % step;
  if (remainder === 0n) return quantity;
  const magnitude = quantity.nano < 0n ? -quantity.nano : quantity.nano;
  const rounded = ceilDiv(magnitude, step) * step;
  return { nano: quantity.nano < 0n ? -rounded : rounded, format: quantity.format };
}

export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  return a.nano < b.nano ? -1 : a.nano > b.nano ? 1 : 0;
}

const canonicalCache = new Map<string, string | undefined>();
const CANONICAL_CACHE_LIMIT = 10_000;

/**
 * The form a resource-list value takes once stored (parsed, rounded up to milli units, printed
 * canonically), or undefined when it does not parse. Cached: pods of one template repeat the same
 * few strings.
 */
export function canonicalResourceQuantity(input: string | number): string | undefined {
  const key = typeof input === 'number' ? `#${input}` : input;
  if (canonicalCache.has(key)) return canonicalCache.get(key);
  const parsed = parseQuantity(input);
  const canonical = parsed.quantity ? formatQuantity(roundUpToMilli(parsed.quantity)) : undefined;
  if (canonicalCache.size >= CANONICAL_CACHE_LIMIT) canonicalCache.clear();
  canonicalCache.set(key, canonical);
  return canonical;
}
