/**
 * The `pod-template-hash` the deployment controller puts in its ReplicaSets' names, selectors and
 * pod labels (`controller.ComputeHash` in pkg/controller/controller_utils.go).
 *
 * Upstream feeds FNV-32a with a go-spew dump (`%#v`, sorted map keys) of the Go
 * `v1.PodTemplateSpec` struct: every field of every nested struct, zero values included, with Go
 * type names and unexported internals (`resource.Quantity`, `time.Time`). Reproducing those bytes
 * would mean mirroring the struct definitions of one Kubernetes release field for field, plus the
 * API server's exact defaulting, with no way to check the result here; and upstream's own hash
 * changes whenever a release adds a field (which is why the controller finds its ReplicaSet by
 * comparing templates, not hashes). So the input here is a canonical JSON serialization (keys
 * sorted, empty values kept as written) of the template. Everything after the input is upstream's:
 * FNV-32a, the collision count appended as 8 little-endian bytes, the decimal digits of the sum
 * mapped through `rand.SafeEncodeString`'s alphabet. The result has upstream's shape
 * (`5d567cc74c`: up to 10 characters from `4-9bcdf`) but not upstream's value for the same template.
 */

/** k8s.io/apimachinery/pkg/util/rand: consonants and digits that cannot spell bad words. */
export const SAFE_ENCODE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

const FNV32_OFFSET_BASIS = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;

/** FNV-1a, 32 bits, over bytes. */
export function fnv32a(bytes: Uint8Array, seed = FNV32_OFFSET_BASIS): number {
  let hash = seed >>> 0;
  for (let i = 0; i < bytes.length; i++) {
    hash ^= bytes[i];
    hash = Math.imul(hash, FNV32_PRIME) >>> 0;
  }
  return hash >>> 0;
}

/** `rand.SafeEncodeString`: each byte of `s` picks `alphabet[byte % 27]`. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += SAFE_ENCODE_ALPHABET[s.charCodeAt(i) % SAFE_ENCODE_ALPHABET.length];
  return out;
}

/** JSON with object keys sorted at every level, so equal templates give equal bytes. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((key) => record[key] !== undefined).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

const encoder = new TextEncoder();

/**
 * The hash of a pod template, as the deployment controller names a new ReplicaSet with it.
 * `collisionCount` (the Deployment's `status.collisionCount`) changes the hash when set, even to 0.
 */
export function computePodTemplateHash(template: unknown, collisionCount?: number): string {
  let hash = fnv32a(encoder.encode(canonicalJson(template ?? {})));
  if (collisionCount !== undefined && collisionCount !== null) {
    // binary.LittleEndian.PutUint32 into an 8-byte slice: 4 bytes of the count, then 4 zero bytes.
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv32a(bytes, hash);
  }
  return safeEncodeString(String(hash));
}
