/** Small helpers over plain Kubernetes objects, shared by the store and the components. */

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
  const aKeys = Object.keys(aRec).filter((k) => aRec[k] !== undefined);
  const bKeys = Object.keys(bRec).filter((k) => bRec[k] !== undefined);
  if (aKeys.length !== bKeys.length) return false;
  for (const k of aKeys) if (!deepEqual(aRec[k], bRec[k])) return false;
  return true;
}

/** RFC 3339 with whole seconds, as metav1.Time serialises. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** RFC 3339 with microseconds, as metav1.MicroTime serialises (events.k8s.io eventTime). */
export function rfc3339Micro(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2026-01-01T12:00:00.123Z
  return `${iso.slice(0, 23)}${String(Math.round((ms % 1) * 1000)).padStart(3, '0')}Z`;
}
