/**
 * Go-side comparisons the API server makes on decoded objects: apimachinery's semantic equality
 * (nil and empty slices or maps are equal) and a rendering of a PodSpec difference in the shape
 * of the go-cmp diff kube-apiserver appends to "pod updates may not change fields other than …".
 * The diff is approximate: changed top-level fields only, values in a compact Go-like syntax.
 */
import { fieldAt } from './fields';
import { isJsonObject } from '../../common/json';

const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || (Array.isArray(value) && value.length === 0) || (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0);


/** equality.Semantic.DeepEqual over JSON values: an absent field, null, [] and {} are all "empty" and equal. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => semanticEqual(item, b[index]));
  if (isJsonObject(a) && isJsonObject(b)) {
    for (const key of Object.keys(a)) if (!semanticEqual(a[key], b[key])) return false;
    for (const key of Object.keys(b)) if (!(key in a) && !isEmpty(b[key])) return false;
    return true;
  }
  return false;
}

/** core.PodSpec's fields in Go declaration order, by JSON name (pod-level security fields live in SecurityContext). */
const POD_SPEC_FIELDS: [json: string, go: string][] = [
  ['volumes', 'Volumes'], ['initContainers', 'InitContainers'], ['containers', 'Containers'], ['ephemeralContainers', 'EphemeralContainers'],
  ['restartPolicy', 'RestartPolicy'], ['terminationGracePeriodSeconds', 'TerminationGracePeriodSeconds'], ['activeDeadlineSeconds', 'ActiveDeadlineSeconds'],
  ['dnsPolicy', 'DNSPolicy'], ['nodeSelector', 'NodeSelector'], ['serviceAccountName', 'ServiceAccountName'],
  ['automountServiceAccountToken', 'AutomountServiceAccountToken'], ['nodeName', 'NodeName'], ['securityContext', 'SecurityContext'],
  ['imagePullSecrets', 'ImagePullSecrets'], ['hostname', 'Hostname'], ['subdomain', 'Subdomain'], ['setHostnameAsFQDN', 'SetHostnameAsFQDN'],
  ['affinity', 'Affinity'], ['schedulerName', 'SchedulerName'], ['tolerations', 'Tolerations'], ['hostAliases', 'HostAliases'],
  ['priorityClassName', 'PriorityClassName'], ['priority', 'Priority'], ['preemptionPolicy', 'PreemptionPolicy'], ['dnsConfig', 'DNSConfig'],
  ['readinessGates', 'ReadinessGates'], ['runtimeClassName', 'RuntimeClassName'], ['overhead', 'Overhead'], ['enableServiceLinks', 'EnableServiceLinks'],
  ['topologySpreadConstraints', 'TopologySpreadConstraints'], ['os', 'OS'], ['schedulingGates', 'SchedulingGates'], ['resourceClaims', 'ResourceClaims'],
];
const POD_SECURITY_FIELDS = ['hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace', 'hostUsers'];

const goFieldName = (json: string): string => json.charAt(0).toUpperCase() + json.slice(1);

/**
 * A compact Go-like literal: `"text"`, `30`, `nil`, `{Name: "web", Image: "nginx"}`; map keys
 * (found through the schema) stay quoted: `{"cpu": "500m"}`.
 */
function goLiteral(value: unknown, path: (string | number)[]): string {
  if (value === undefined || value === null) return 'nil';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `{${value.map((item, index) => goLiteral(item, [...path, index])).join(', ')}}`;
  if (isJsonObject(value)) {
    const isMap = fieldAt('Pod', ['spec', ...path])?.type.kind === 'map';
    const entries = Object.entries(value).map(([key, item]) => `${isMap ? JSON.stringify(key) : goFieldName(key)}: ${goLiteral(item, [...path, key])}`);
    return `{${entries.join(', ')}}`;
  }
  return String(value);
}

function securityContextOf(spec: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(isJsonObject(spec.securityContext) ? spec.securityContext : {}) };
  for (const field of POD_SECURITY_FIELDS) if (spec[field] !== undefined) merged[field] = spec[field];
  return merged;
}

export function podSpecDiff(oldSpec: Record<string, unknown>, newSpec: Record<string, unknown>): string {
  const lines = ['  core.PodSpec{'];
  let identical = 0;
  const flushIdentical = () => {
    if (identical > 0) lines.push(`  \t... // ${identical} identical field${identical === 1 ? '' : 's'}`);
    identical = 0;
  };
  for (const [json, go] of POD_SPEC_FIELDS) {
    const before = json === 'securityContext' ? securityContextOf(oldSpec) : oldSpec[json];
    const after = json === 'securityContext' ? securityContextOf(newSpec) : newSpec[json];
    if (semanticEqual(before, after)) {
      identical++;
      continue;
    }
    flushIdentical();
    lines.push(`- \t${go}: ${goLiteral(before, [json])},`, `+ \t${go}: ${goLiteral(after, [json])},`);
  }
  flushIdentical();
  lines.push('  }');
  return lines.join('\n') + '\n';
}
