/**
 * The object keys of a JSON text in document order, with their paths, so that repeated keys can
 * be reported as sigs.k8s.io/json's strict decoder reports them (`duplicate field
 * "spec.paused"`): JSON.parse keeps the last value silently. The text is valid JSON (it was
 * parsed first).
 */

export interface KeyOccurrence {
  /** `spec.template.spec.containers[0].imagePullPolicy`, as strict decoding errors name fields. */
  path: string;
  /** The object already had this key. */
  duplicate: boolean;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

export function jsonKeyOccurrences(text: string): KeyOccurrence[] {
  const occurrences: KeyOccurrence[] = [];
  let i = 0;
  const skipSpace = (): void => {
    while (i < text.length && WHITESPACE.has(text[i])) i++;
  };
  const readString = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): void => {
    skipSpace();
    const c = text[i];
    if (c === '{') {
      i++;
      const seen = new Set<string>();
      skipSpace();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        skipSpace();
        const key = readString();
        const childPath = path ? `${path}.${key}` : key;
        occurrences.push({ path: childPath, duplicate: seen.has(key) });
        seen.add(key);
        skipSpace();
        i++; // ':'
        value(childPath);
        skipSpace();
        if (text[i++] === '}') return;
      }
    }
    if (c === '[') {
      i++;
      skipSpace();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let index = 0; ; index++) {
        value(`${path}[${index}]`);
        skipSpace();
        if (text[i++] === ']') return;
      }
    }
    if (c === '"') {
      readString();
      return;
    }
    while (i < text.length && !WHITESPACE.has(text[i]) && text[i] !== ',' && text[i] !== '}' && text[i] !== ']') i++;
  };
  value('');
  return occurrences;
}

/**
 * sigs.k8s.io/json's strict errors for a decoded body, in the order its decoder meets them:
 * each unknown field where it first appears, each repeated known field where it repeats. A field
 * that is both unknown and repeated is reported once, as unknown; nothing inside an unknown
 * field is looked at (the decoder skips its value).
 */
export function strictDecodingErrors(text: string, unknownFields: readonly string[]): string[] {
  const unknown = new Set(unknownFields);
  const insideUnknown = (path: string): boolean => {
    for (const field of unknown) if (path.startsWith(`${field}.`) || path.startsWith(`${field}[`)) return true;
    return false;
  };
  const errors: string[] = [];
  const reported = new Set<string>();
  for (const { path, duplicate } of jsonKeyOccurrences(text)) {
    if (unknown.has(path)) {
      if (!reported.has(path)) errors.push(`unknown field "${path}"`);
      reported.add(path);
    } else if (duplicate && !insideUnknown(path)) {
      errors.push(`duplicate field "${path}"`);
    }
  }
  for (const path of unknownFields) if (!reported.has(path)) errors.push(`unknown field "${path}"`);
  return errors;
}
