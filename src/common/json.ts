/**
 * The one set of helpers over decoded JSON values (plain objects, arrays, primitives) that every
 * layer shares: the store, the patch implementations, validation, the tracer and the protocol's
 * shape guards.
 */

export type JsonObject = { [key: string]: unknown };

/** A JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural equality of JSON values; object keys whose value is undefined count as absent. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bArr = b as unknown[];
    if (a.length !== bArr.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bArr[i])) return false;
    return true;
  }
  const aRec = a as Record<string, unknown>;
  const bRec = b as Record<string, unknown>;
  // for…in rather than Object.keys: no array per object compared (JSON objects have no inherited keys).
  let defined = 0;
  for (const key in aRec) {
    const value = aRec[key];
    if (value === undefined) continue;
    defined++;
    if (!deepEqual(value, bRec[key])) return false;
  }
  for (const key in bRec) if (bRec[key] !== undefined) defined--;
  return defined === 0;
}

/**
 * A deep copy of a JSON value (plain objects, arrays, primitives; keys holding undefined are
 * kept), several times faster than structuredClone for the small objects the store copies.
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out as T;
  }
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key in source) out[key] = cloneJson(source[key]);
  return out as T;
}

/**
 * What `JSON.parse(JSON.stringify(value))` returns for JSON-like data (undefined members dropped,
 * undefined array items and non-finite numbers as null), but keeping the very string instances:
 * a thousand pods made from one template then share the template's strings.
 */
export function cloneAsJson<T>(value: T): T {
  return cloneMember(value) as T;
}

function cloneMember(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON writes -0 as 0.
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case 'object':
      break;
    default:
      // bigint throws, functions and symbols vanish: exactly as JSON would have it.
      return JSON.parse(JSON.stringify([value]) ?? '[null]')[0];
  }
  if (value === null) return null;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.parse(JSON.stringify(value));
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      out[i] = item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : cloneMember(item);
    }
    return out;
  }
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const member = source[key];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    out[key] = cloneMember(member);
  }
  return out;
}
