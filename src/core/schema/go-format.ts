/**
 * How kube-apiserver 1.30 prints a rejected value in a field error: Go's `%q` for strings, `%v`
 * for numbers and booleans, and `%#v` (Go syntax) for maps and structs, e.g.
 * `map[string]string{"app":"web"}` or `v1.LabelSelector{MatchLabels:…, MatchExpressions:…}`.
 */
import type { LabelSelector } from '../k8s';

const ESCAPES: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' };

/** strconv.Quote. */
export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const escaped = ESCAPES[ch];
    if (escaped) out += escaped;
    else if (ch < ' ' || ch === '\x7f') out += `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** `%#v` of a map[string]string: keys sorted, as fmt prints maps. */
export function goStringMap(map: Record<string, string> | undefined | null): string {
  if (map === undefined || map === null) return 'map[string]string(nil)';
  const entries = Object.keys(map)
    .sort()
    .map((key) => `${goQuote(key)}:${goQuote(String(map[key]))}`);
  return `map[string]string{${entries.join(', ')}}`;
}

/** `%#v` of a []string. */
export function goStringSlice(values: readonly string[] | undefined | null): string {
  if (values === undefined || values === null) return '[]string(nil)';
  return `[]string{${values.map((value) => goQuote(String(value))).join(', ')}}`;
}

/** `%#v` of a metav1.LabelSelector value (the pointer is dereferenced before printing). */
export function goLabelSelector(selector: LabelSelector | undefined | null): string {
  if (selector === undefined || selector === null) return 'null';
  const expressions = selector.matchExpressions;
  const requirements =
    expressions === undefined || expressions === null
      ? '[]v1.LabelSelectorRequirement(nil)'
      : `[]v1.LabelSelectorRequirement{${expressions
          .map((r) => `v1.LabelSelectorRequirement{Key:${goQuote(r.key ?? '')}, Operator:${goQuote(r.operator ?? '')}, Values:${goStringSlice(r.values)}}`)
          .join(', ')}}`;
  return `v1.LabelSelector{MatchLabels:${goStringMap(selector.matchLabels)}, MatchExpressions:${requirements}}`;
}

/** `%#v` of an intstr.IntOrString value (Type 0 is Int, 1 is String). */
export function goIntOrString(value: number | string): string {
  return typeof value === 'number' ? `intstr.IntOrString{Type:0, IntVal:${value}, StrVal:""}` : `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(value)}}`;
}

/** `%v` of a scalar, `%q` of a string, "null" for a missing value. */
export function goScalar(value: string | number | boolean | null | undefined): string {
  if (value === undefined || value === null) return 'null';
  return typeof value === 'string' ? goQuote(value) : String(value);
}

/** fmt's `%v` of a value decoded from JSON into interface{} (maps print with sorted keys). */
export function goPlainValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goPlainValue).join(' ')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `map[${Object.keys(record).sort().map((key) => `${key}:${goPlainValue(record[key])}`).join(' ')}]`;
  }
  return String(value);
}

/** fmt's `%#v` of the same. */
export function goSyntaxValue(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntaxValue).join(', ')}}`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `map[string]interface {}{${Object.keys(record).sort().map((key) => `${goQuote(key)}:${goSyntaxValue(record[key])}`).join(', ')}}`;
  }
  return typeof value === 'string' ? goQuote(value) : String(value);
}
