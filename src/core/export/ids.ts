/**
 * Deterministic trace and span ids: the same journey file always exports the same ids, so two
 * exports of one trace deduplicate in a tracing backend instead of showing twice. Pure (no
 * node:crypto: core runs in the webview bundle too), from 64-bit FNV-1a.
 */

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

function fnv1a64(text: string, seed: bigint): bigint {
  let hash = FNV_OFFSET ^ seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * FNV_PRIME) & MASK_64;
  }
  // FNV-1a mixes its last characters weakly: a final avalanche (splitmix64's) spreads them.
  hash = ((hash ^ (hash >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK_64;
  hash = ((hash ^ (hash >> 27n)) * 0x94d049bb133111ebn) & MASK_64;
  return hash ^ (hash >> 31n);
}

function hex64(text: string, seed: bigint): string {
  const hash = fnv1a64(text, seed);
  // All-zero ids are invalid in OTLP: never return one.
  return (hash === 0n ? 1n : hash).toString(16).padStart(16, '0');
}

/** 32 lowercase hex digits for the trace of one apply (`journey.id` names it: kind, object and apply time). */
export function traceIdOf(journeyId: string): string {
  return hex64(journeyId, 0x74n) + hex64(journeyId, 0x72n);
}

/** 16 lowercase hex digits for one span: the apply, the object (uid, else kind/namespace/name) and what in it (`''` for the object itself, a phase name). */
export function spanIdOf(journeyId: string, object: string, part = ''): string {
  return hex64(`${journeyId}\u0000${object}\u0000${part}`, 0x73n);
}
