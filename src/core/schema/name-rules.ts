/**
 * The syntax rules for names, label keys and label values, with the messages of
 * k8s.io/apimachinery/pkg/util/validation (Kubernetes 1.30). Each check returns the list of
 * problems, empty when the value is valid, as upstream does.
 *
 * Every object the API server admits runs these checks many times over, so the syntax is tested by
 * scanning character codes rather than with upstream's regular expressions (the `*_FMT` strings,
 * which the messages still quote); a valid value costs no allocation.
 */

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;

const DNS1123_LABEL_MESSAGE = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MESSAGE = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MESSAGE = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MESSAGE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

export const DNS1123_LABEL_MAX_LENGTH = 63;
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
const QUALIFIED_NAME_MAX_LENGTH = 63;
const LABEL_VALUE_MAX_LENGTH = 63;

/** The result of every check of a valid value: shared, hence read-only. */
const NO_PROBLEMS: readonly string[] = Object.freeze([]);

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

export function regexError(message: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${format}')`;
  // Upstream appends "', " after each example and " or " between them: hence two spaces before "or".
  return `${message} (e.g. ${examples.map((example) => `'${example}', `).join(' or ')}regex used for validation is '${format}')`;
}

export function emptyError(): string {
  return 'must be non-empty';
}

export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

const DNS1123_LABEL_REGEX_ERROR = regexError(DNS1123_LABEL_MESSAGE, DNS1123_LABEL_FMT, 'my-name', '123-abc');
const DNS1123_SUBDOMAIN_REGEX_ERROR = regexError(DNS1123_SUBDOMAIN_MESSAGE, DNS1123_SUBDOMAIN_FMT, 'example.com');
const QUALIFIED_NAME_REGEX_ERROR = regexError(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc');
const LABEL_VALUE_REGEX_ERROR = regexError(LABEL_VALUE_MESSAGE, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345');
const TOO_MANY_SLASHES_ERROR = `a qualified name ${QUALIFIED_NAME_REGEX_ERROR} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`;

// ---------------------------------------------------------------------------------------------
// The regular expressions above, as scans of value[start, end). JavaScript regexes without the
// `u` flag match UTF-16 code units, as charCodeAt reads them.

const HYPHEN = 0x2d;
const DOT = 0x2e;
const UNDERSCORE = 0x5f;

function isLowerAlphanumeric(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
}

function isAlphanumeric(code: number): boolean {
  return isLowerAlphanumeric(code) || (code >= 0x41 && code <= 0x5a);
}

/** `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$` */
function matchesDNS1123Label(value: string, start: number, end: number): boolean {
  if (end <= start || !isLowerAlphanumeric(value.charCodeAt(start)) || !isLowerAlphanumeric(value.charCodeAt(end - 1))) return false;
  for (let i = start + 1; i < end - 1; i++) {
    const code = value.charCodeAt(i);
    if (!isLowerAlphanumeric(code) && code !== HYPHEN) return false;
  }
  return true;
}

/** `^label(\.label)*$`: labels hold no dots, so every dot-separated part must be a label. */
function matchesDNS1123Subdomain(value: string, start: number, end: number): boolean {
  let partStart = start;
  for (;;) {
    const dot = value.indexOf('.', partStart);
    const partEnd = dot < 0 || dot >= end ? end : dot;
    if (!matchesDNS1123Label(value, partStart, partEnd)) return false;
    if (partEnd === end) return true;
    partStart = partEnd + 1;
  }
}

/** `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$` */
function matchesQualifiedName(value: string, start: number, end: number): boolean {
  if (end <= start || !isAlphanumeric(value.charCodeAt(start)) || !isAlphanumeric(value.charCodeAt(end - 1))) return false;
  for (let i = start + 1; i < end - 1; i++) {
    const code = value.charCodeAt(i);
    if (!isAlphanumeric(code) && code !== HYPHEN && code !== UNDERSCORE && code !== DOT) return false;
  }
  return true;
}

/** `^(qualified name)?$` */
function matchesLabelValue(value: string): boolean {
  return value.length === 0 || matchesQualifiedName(value, 0, value.length);
}

// ---------------------------------------------------------------------------------------------
// The checks: a valid value returns at once, the problems are listed only for an invalid one.

export function isDNS1123Label(value: string): readonly string[] {
  const matches = matchesDNS1123Label(value, 0, value.length);
  if (matches && value.length <= DNS1123_LABEL_MAX_LENGTH) return NO_PROBLEMS;
  const errors: string[] = [];
  if (value.length > DNS1123_LABEL_MAX_LENGTH) errors.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!matches) {
    // A valid subdomain that is not a valid label can only be one with dots.
    if (matchesDNS1123Subdomain(value, 0, value.length)) errors.push('must not contain dots');
    else errors.push(DNS1123_LABEL_REGEX_ERROR);
  }
  return errors;
}

export function isDNS1123Subdomain(value: string): readonly string[] {
  const matches = matchesDNS1123Subdomain(value, 0, value.length);
  if (matches && value.length <= DNS1123_SUBDOMAIN_MAX_LENGTH) return NO_PROBLEMS;
  const errors: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errors.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!matches) errors.push(DNS1123_SUBDOMAIN_REGEX_ERROR);
  return errors;
}

/** IsQualifiedName: label keys, annotation keys, finalizers, resource names. */
export function isQualifiedName(value: string): readonly string[] {
  const slash = value.indexOf('/');
  if (slash >= 0 && value.indexOf('/', slash + 1) >= 0) return [TOO_MANY_SLASHES_ERROR];
  if (isValidQualifiedName(value, slash)) return NO_PROBLEMS;
  const errors: string[] = [];
  if (slash >= 0) {
    const prefix = value.slice(0, slash);
    if (prefix.length === 0) errors.push(`prefix part ${emptyError()}`);
    else for (const message of isDNS1123Subdomain(prefix)) errors.push(`prefix part ${message}`);
  }
  const name = value.slice(slash + 1);
  if (name.length === 0) errors.push(`name part ${emptyError()}`);
  else if (name.length > QUALIFIED_NAME_MAX_LENGTH) errors.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`);
  if (!matchesQualifiedName(name, 0, name.length)) errors.push(`name part ${QUALIFIED_NAME_REGEX_ERROR}`);
  return errors;
}

/** Whether a value with at most one '/' (at `slash`, or -1) passes IsQualifiedName. */
function isValidQualifiedName(value: string, slash: number): boolean {
  const nameStart = slash + 1;
  if (value.length - nameStart > QUALIFIED_NAME_MAX_LENGTH || !matchesQualifiedName(value, nameStart, value.length)) return false;
  return slash < 0 || (slash <= DNS1123_SUBDOMAIN_MAX_LENGTH && matchesDNS1123Subdomain(value, 0, slash));
}

export function isValidLabelValue(value: string): readonly string[] {
  const matches = matchesLabelValue(value);
  if (matches && value.length <= LABEL_VALUE_MAX_LENGTH) return NO_PROBLEMS;
  const errors: string[] = [];
  if (value.length > LABEL_VALUE_MAX_LENGTH) errors.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!matches) errors.push(LABEL_VALUE_REGEX_ERROR);
  return errors;
}

/** generateName prefixes may end with '-': mask it before checking (apimachinery's maskTrailingDash). */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
}

/** NameIsDNSSubdomain: names of Pods, Deployments, ReplicaSets, Nodes, ConfigMaps, Events. */
export function nameIsDNSSubdomain(name: string, prefix: boolean): readonly string[] {
  return isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
}

/** NameIsDNSLabel: names of Namespaces. */
export function nameIsDNSLabel(name: string, prefix: boolean): readonly string[] {
  return isDNS1123Label(prefix ? maskTrailingDash(name) : name);
}

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_REGEX_ERROR = regexError(
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
  DNS1035_LABEL_FMT,
  'my-name',
  'abc-123',
);
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);

export function isDNS1035Label(value: string): readonly string[] {
  const errors: string[] = [];
  if (value.length > DNS1123_LABEL_MAX_LENGTH) errors.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!DNS1035_LABEL.test(value)) errors.push(DNS1035_LABEL_REGEX_ERROR);
  return errors.length === 0 ? NO_PROBLEMS : errors;
}

/** NameIsDNS1035Label: names of Services. */
export function nameIsDNS1035Label(name: string, prefix: boolean): readonly string[] {
  return isDNS1035Label(prefix ? maskTrailingDash(name) : name);
}

/** `path.IsValidPathSegmentName` (and, for prefixes, `IsValidPathSegmentPrefix`): RBAC object names, HPA target references. */
export function isValidPathSegmentName(name: string, prefix = false): readonly string[] {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  const errors = ['/', '%'].filter((illegal) => name.includes(illegal)).map((illegal) => `may not contain '${illegal}'`);
  return errors.length === 0 ? NO_PROBLEMS : errors;
}
