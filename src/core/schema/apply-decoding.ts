/**
 * How kube-apiserver 1.32 refuses a server-side apply configuration that does not fit the schema.
 * The configuration is not decoded into Go structs first: structured-merge-diff validates it
 * against the OpenAPI schema (sigs.k8s.io/structured-merge-diff typed/validate.go, helpers.go),
 * and the field manager wraps what it finds (k8s.io/apimachinery managedfields/internal/
 * structuredmerge.go):
 *
 *   failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.foo: field not declared in schema
 *
 * That error is a plain Go error, not a metav1.Status, so the API server answers 500 with an
 * empty reason (kubernetes/kubernetes#122480, #139253), and unknown fields are refused whatever
 * `fieldValidation` says. Integer fields are only "numeric" to structured-merge-diff and
 * Quantity and IntOrString are untyped scalars; what passes it but cannot become the Go object
 * (3.5 replicas, `cpu: 1 core`) fails when the merged object is converted:
 * `failed to convert new object (…) to proper version (apps/v1): <decoding error>`.
 */
import type { FieldType } from './fields';
import { schemaTypeFields } from './fields';
import { goPlainValue as goV, goQuote, goSyntaxValue as goSharpV } from './go-format';

/**
 * The keys of the associative lists (`x-kubernetes-list-map-keys`) whose items a path names by
 * key (`.spec.template.spec.containers[name="nginx"].image`); other lists are named by index.
 * `protocol` keys default to TCP, as the API server's schema defaults them.
 */
const LIST_MAP_KEYS: Readonly<Record<string, readonly string[]>> = {
  'PodSpec.containers': ['name'],
  'PodSpec.initContainers': ['name'],
  'PodSpec.ephemeralContainers': ['name'],
  'PodSpec.volumes': ['name'],
  'PodSpec.imagePullSecrets': ['name'],
  'PodSpec.hostAliases': ['ip'],
  'PodSpec.topologySpreadConstraints': ['topologyKey', 'whenUnsatisfiable'],
  'PodSpec.resourceClaims': ['name'],
  'Container.env': ['name'],
  'Container.ports': ['containerPort', 'protocol'],
  'Container.volumeMounts': ['mountPath'],
  'Container.volumeDevices': ['devicePath'],
  'ServiceSpec.ports': ['port', 'protocol'],
  'ObjectMeta.ownerReferences': ['uid'],
};

/** Lists of scalars kept as sets: their items are named by value (`.metadata.finalizers[="x"]`). */
const SETS = new Set(['ObjectMeta.finalizers']);

/** `%T` of the same. */
function goTypeOf(value: unknown): string {
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'object' && value !== null) return 'map[string]interface {}';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'number' ? (Number.isInteger(value) ? 'int64' : 'float64') : 'string';
}

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** structured-merge-diff's message when `value` is not of the schema's kind; undefined when it is. */
function scalarOrShapeError(value: unknown, type: FieldType): string | undefined {
  // A *valueUnstructured printed with %v is `&{<value>}`, with %#v `&value.valueUnstructured{Value:<value>}`.
  switch (type.kind) {
    case 'scalar':
      switch (type.name) {
        case 'integer':
          return typeof value === 'number' ? undefined : `expected numeric (int or float), got ${goTypeOf(value)}`;
        case 'boolean':
          return typeof value === 'boolean' ? undefined : `expected boolean, got &{${goV(value)}}`;
        case 'string':
        case 'Time':
        case 'MicroTime':
          return typeof value === 'string' ? undefined : `expected string, got &value.valueUnstructured{Value:${goSharpV(value)}}`;
        default:
          return isMap(value) || Array.isArray(value) ? `expected any scalar, got &{${goV(value)}}` : undefined;
      }
    case 'ref':
    case 'map':
      return isMap(value) ? undefined : `expected map, got &{${goV(value)}}`;
    case 'array':
      return Array.isArray(value) ? undefined : `expected list, got &{${goV(value)}}`;
    case 'object':
      return undefined;
  }
}

function keyValue(value: unknown): string {
  return typeof value === 'string' ? goQuote(value) : String(value);
}

/** A list item's path element: `[name="nginx"]`, `[containerPort=80,protocol="TCP"]`, `[="x"]` or `[0]`. */
function listElement(owner: string, item: unknown, index: number): string {
  const keys = LIST_MAP_KEYS[owner];
  if (keys && isMap(item)) {
    return `[${keys.map((key) => `${key}=${keyValue(item[key] ?? (key === 'protocol' ? 'TCP' : ''))}`).join(',')}]`;
  }
  if (SETS.has(owner) && !isMap(item) && !Array.isArray(item)) return `[=${keyValue(item)}]`;
  return `[${index}]`;
}

function validate(value: unknown, type: FieldType, path: string, owner: string, errors: string[]): void {
  if (value === null || value === undefined) return;
  const shapeError = scalarOrShapeError(value, type);
  if (shapeError !== undefined) {
    errors.push(`${path}: ${shapeError}`);
    return;
  }
  switch (type.kind) {
    case 'ref': {
      const fields = schemaTypeFields(type.name);
      if (!fields) return;
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const field = fields.get(key);
        if (!field) {
          // structured-merge-diff stops visiting a map at its first undeclared field.
          errors.push(`${path}.${key}: field not declared in schema`);
          return;
        }
        validate(record[key], field.type, `${path}.${key}`, `${type.name.slice(type.name.lastIndexOf('.') + 1)}.${key}`, errors);
      }
      return;
    }
    case 'array':
      (value as unknown[]).forEach((item, index) => validate(item, type.items, `${path}${listElement(owner, item, index)}`, owner, errors));
      return;
    case 'map': {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) validate(record[key], type.values, `${path}.${key}`, owner, errors);
      return;
    }
    default:
      return;
  }
}

/**
 * structured-merge-diff's validation errors for an applied configuration of `kind`, in document
 * order (upstream walks Go maps, whose order varies between runs), each as `<path>: <message>`.
 */
export function applyConfigurationErrors(kind: string, configuration: Record<string, unknown>): string[] {
  const errors: string[] = [];
  validate(configuration, { kind: 'ref', name: kind }, '', kind, errors);
  return errors;
}

/** ValidationErrors.Error(): one error alone, several as an indented `errors:` list. */
export function validationErrorsText(errors: readonly string[]): string {
  return errors.length === 1 ? errors[0] : ['errors:', ...errors.map((error) => `  ${error}`)].join('\n');
}

/** objectGVKNN: `default/web; apps/v1, Kind=Deployment` (`/v1` for the core group). */
export function objectGvkNn(namespace: string | undefined, name: string, apiVersion: string, kind: string): string {
  const groupVersion = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
  return `${namespace ?? ''}/${name}; ${groupVersion}, Kind=${kind}`;
}
