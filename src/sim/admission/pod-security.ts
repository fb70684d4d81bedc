/**
 * PodSecurity admission (staging/src/k8s.io/pod-security-admission/admission): a namespace's
 * labels `pod-security.kubernetes.io/enforce|warn|audit` (each with its `-version`, `latest` by
 * default) pick a Pod Security Standard.
 *
 * - A pod breaking the enforced level is refused (`violates PodSecurity "restricted:latest": …`);
 *   one breaking the warned level is admitted with a warning (`would violate PodSecurity …`),
 *   which kubectl prints as `Warning: …`. A pod's update is checked only when it changes what a
 *   check reads (a container added or its image changed, isSignificantPodUpdate).
 * - A workload's pod template is never refused, only warned about at the warn level.
 * - A namespace whose enforce level is made stricter warns about the pods already there that
 *   the new level would refuse, grouped by their reasons; labels with a bad level or version are
 *   refused.
 *
 * `audit` writes to an audit log the simulator does not keep.
 */
import type { Container, KubeObject, PodSpec, ResourceKind } from '../../core/k8s';
import type { ApiError, StoreApi } from '../store/types';
import { invalid } from '../apis/field';
import { invalidError } from '../apis/validation';
import { evaluatePod, forbiddenDetail, type PodSecurityLevel } from './pod-security-checks';
import { forbidden, type AdmissionAttributes, type AdmissionPlugin } from './plugin';

const LABEL_PREFIX = 'pod-security.kubernetes.io/';
const LEVELS: readonly PodSecurityLevel[] = ['privileged', 'baseline', 'restricted'];
const VERSION = /^v1\.(0|[1-9][0-9]*)$/;

interface LevelVersion {
  level: PodSecurityLevel;
  /** `latest` or `v1.32`. */
  version: string;
}

interface Policy {
  enforce: LevelVersion;
  warn: LevelVersion;
  /** The labels' errors, as `metadata.labels[…]` causes. */
  errors: ReturnType<typeof invalid>[];
}

function levelVersionText(policy: LevelVersion): string {
  return `${policy.level}:${policy.version}`;
}

/**
 * api.PolicyToEvaluate: each label over the default (privileged:latest). A bad enforce level
 * fails closed (restricted), a bad warn level fails open (privileged), a bad version is `latest`.
 */
function policyToEvaluate(labels: Record<string, string>): Policy {
  const errors: Policy['errors'] = [];
  const read = (mode: 'enforce' | 'warn', failedLevel: PodSecurityLevel): LevelVersion => {
    const result: LevelVersion = { level: 'privileged', version: 'latest' };
    const levelLabel = `${LABEL_PREFIX}${mode}`;
    const level = labels[levelLabel];
    if (level !== undefined) {
      if ((LEVELS as readonly string[]).includes(level)) result.level = level as PodSecurityLevel;
      else {
        result.level = failedLevel;
        errors.push(invalid(`metadata.labels[${levelLabel}]`, JSON.stringify(level), `must be one of ${LEVELS.join(', ')}`));
      }
    }
    const versionLabel = `${levelLabel}-version`;
    const version = labels[versionLabel];
    if (version !== undefined) {
      if (version === 'latest' || VERSION.test(version)) result.version = version;
      else errors.push(invalid(`metadata.labels[${versionLabel}]`, JSON.stringify(version), 'must be "latest" or "v1.x"'));
    }
    return result;
  };
  return { enforce: read('enforce', 'restricted'), warn: read('warn', 'privileged'), errors };
}

function hasPodSecurityLabels(labels: Record<string, string>): boolean {
  for (const label in labels) if (label.startsWith(LABEL_PREFIX)) return true;
  return false;
}

/** Where each workload kind keeps its pod template. */
function podTemplateSpec(kind: ResourceKind, object: KubeObject): PodSpec | undefined {
  const spec = object.spec as { template?: { spec?: PodSpec }; jobTemplate?: { spec?: { template?: { spec?: PodSpec } } } } | undefined;
  switch (kind) {
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
    case 'ReplicationController':
      return spec?.template?.spec;
    case 'CronJob':
      return spec?.jobTemplate?.spec?.template?.spec;
    default:
      return undefined;
  }
}

/** isSignificantPodUpdate: containers added or removed, or an image changed. */
function isSignificantPodUpdate(spec: PodSpec, oldSpec: PodSpec): boolean {
  const changed = (now: readonly Container[] = [], before: readonly Container[] = []): boolean => now.length !== before.length || now.some((container, i) => container.image !== before[i].image);
  if (changed(spec.containers, oldSpec.containers) || changed(spec.initContainers, oldSpec.initContainers)) return true;
  const before = new Map((oldSpec.ephemeralContainers ?? []).map((container) => [container.name, container.image]));
  return (spec.ephemeralContainers ?? []).some((container) => !before.has(container.name) || before.get(container.name) !== container.image);
}

function levelStrictness(level: PodSecurityLevel): number {
  return LEVELS.indexOf(level);
}

export class PodSecurityAdmission implements AdmissionPlugin {
  readonly name = 'PodSecurity';

  validate(attributes: AdmissionAttributes, store: StoreApi): ApiError | undefined {
    if (attributes.kind === 'Namespace') return this.validateNamespace(attributes, store);
    if (!attributes.namespace) return undefined;
    const isPod = attributes.kind === 'Pod';
    const podSpec = isPod ? (attributes.object.spec as PodSpec | undefined) : podTemplateSpec(attributes.kind, attributes.object);
    if (!podSpec) return undefined;
    const labels = store.get<KubeObject>('Namespace', undefined, attributes.namespace)?.metadata?.labels ?? {};
    if (!hasPodSecurityLabels(labels)) return undefined;
    const policy = policyToEvaluate(labels);
    if (isPod) {
      if (attributes.old && !isSignificantPodUpdate(podSpec, (attributes.old.spec ?? {}) as PodSpec)) return undefined;
      const failed = evaluatePod(policy.enforce.level, podSpec);
      if (failed.length > 0) return forbidden(attributes, `violates PodSecurity ${JSON.stringify(levelVersionText(policy.enforce))}: ${forbiddenDetail(failed)}`);
    }
    const failed = evaluatePod(policy.warn.level, podSpec);
    if (failed.length > 0) attributes.warnings?.push(`would violate PodSecurity ${JSON.stringify(levelVersionText(policy.warn))}: ${forbiddenDetail(failed)}`);
    return undefined;
  }

  /** ValidateNamespace: valid labels, and on a stricter enforce level the pods it would refuse. */
  private validateNamespace(attributes: AdmissionAttributes, store: StoreApi): ApiError | undefined {
    const labels = attributes.object.metadata?.labels ?? {};
    const oldLabels = attributes.old?.metadata?.labels ?? {};
    if (!hasPodSecurityLabels(labels) && !hasPodSecurityLabels(oldLabels)) return undefined;
    const policy = policyToEvaluate(labels);
    const name = attributes.object.metadata?.name ?? '';
    if (!attributes.old) return policy.errors.length > 0 ? invalidError('Namespace', name, policy.errors) : undefined;
    const oldPolicy = policyToEvaluate(oldLabels);
    if (policy.errors.length > 0 && JSON.stringify(policy.errors) !== JSON.stringify(oldPolicy.errors)) return invalidError('Namespace', name, policy.errors);
    const { enforce } = policy;
    const before = oldPolicy.enforce;
    if (enforce.level === before.level && enforce.version === before.version) return undefined;
    if (enforce.level === 'privileged') return undefined;
    if (enforce.version === before.version && levelStrictness(enforce.level) <= levelStrictness(before.level)) return undefined;
    attributes.warnings?.push(...podsViolating(store, name, enforce));
    return undefined;
  }
}

/** EvaluatePodsInNamespace: one warning per distinct set of reasons, named by its lexically first pod. */
function podsViolating(store: StoreApi, namespace: string, enforce: LevelVersion): string[] {
  const groups = new Map<string, { podName: string; count: number }>();
  for (const pod of store.list<KubeObject>('Pod', { namespace }).items) {
    const failed = evaluatePod(enforce.level, (pod.spec ?? {}) as PodSpec);
    if (failed.length === 0) continue;
    const reasons = failed.map((result) => result.reason).join(', ');
    const podName = pod.metadata?.name ?? '';
    const group = groups.get(reasons);
    if (!group) groups.set(reasons, { podName, count: 1 });
    else {
      group.count++;
      if (podName < group.podName) group.podName = podName;
    }
  }
  if (groups.size === 0) return [];
  const podWarnings = [...groups].map(([reasons, { podName, count }]) => {
    if (count === 1) return `${podName}: ${reasons}`;
    return count === 2 ? `${podName} (and 1 other pod): ${reasons}` : `${podName} (and ${count - 1} other pods): ${reasons}`;
  });
  return [`existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionText(enforce))}`, ...podWarnings.sort()];
}
