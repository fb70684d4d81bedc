/** Small helpers over plain Kubernetes objects, shared by the store and the components. */

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

// Every write stamps whole-second times, and virtual time moves forward: remembering the last
// second formatted saves a Date and an ISO string per write.
let cachedSecond = NaN;
let cachedSecondText = '';
let cachedPrefixSecond = NaN;
let cachedPrefix = '';

let _flattenSink = 0;

/**
 * The same string, made flat. V8 keeps a string built with `+` or a template literal as a tree of
 * its pieces (~32 bytes a piece); reading a character flattens it into one buffer in place, and the
 * garbage collector then drops the tree. Worth it for strings that stay in the store (an event
 * message of five pieces: ~170 bytes less). The sink keeps the read from being optimised away.
 */
export function flattened(value: string): string {
  _flattenSink ^= value.charCodeAt(0);
  return value;
}

/** RFC 3339 with whole seconds, as metav1.Time serialises. */
export function rfc3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    cachedSecondText = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    cachedSecond = second;
  }
  return cachedSecondText;
}

/** RFC 3339 with microseconds, as metav1.MicroTime serialises (events.k8s.io eventTime). */
export function rfc3339Micro(ms: number): string {
  const whole = Math.trunc(ms);
  const second = Math.floor(whole / 1000);
  if (second !== cachedPrefixSecond) {
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 20); // 2026-01-01T12:00:00.
    cachedPrefixSecond = second;
  }
  const millis = whole - second * 1000;
  // Joined, not concatenated: the result is kept (eventTime) and a concatenation is stored as its pieces.
  return [cachedPrefix, millis < 10 ? '00' : millis < 100 ? '0' : '', millis, String(Math.round((ms % 1) * 1000)).padStart(3, '0'), 'Z'].join('');
}
