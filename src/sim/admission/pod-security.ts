/**
 * PodSecurity admission (staging/src/k8s.io/pod-security-admission/admission): a namespace's
 * labels `pod-security.kubernetes.io/enforce|warn|audit` (each with its `-version`, `latest` by
 * default) pick a Pod Security Standard. A pod breaking the enforced level is refused
 * (`violates PodSecurity "restricted:latest": …`); one breaking the warned level is admitted
 * with a warning (`would violate PodSecurity "restricted:latest": …`), which kubectl prints as
 * `Warning: …`. Workload objects are not refused, but their pod template gets the warning, as
 * upstream warns on a Deployment whose pods would be refused. `audit` writes to an audit log
 * the simulator does not keep.
 */
import type { KubeObject, PodSpec, ResourceKind } from '../../core/k8s';
import { deepEqual } from '../../common/json';
import type { ApiError, StoreApi } from '../store/types';
import { evaluatePod, forbiddenDetail, type PodSecurityLevel } from './pod-security-checks';
import { forbidden, type AdmissionAttributes, type AdmissionPlugin } from './plugin';

const LABEL_PREFIX = 'pod-security.kubernetes.io/';
const LEVELS = new Set<PodSecurityLevel>(['privileged', 'baseline', 'restricted']);

interface LevelVersion {
  level: PodSecurityLevel;
  /** `latest` or `v1.32`, as the label gives it. */
  version: string;
}

function levelVersionText(policy: LevelVersion): string {
  return `${policy.level}:${policy.version}`;
}

/** The namespace's policy for one mode; an absent or unreadable label leaves it privileged. */
function policyOf(labels: Record<string, string>, mode: 'enforce' | 'warn'): LevelVersion {
  const level = labels[`${LABEL_PREFIX}${mode}`] as PodSecurityLevel | undefined;
  const version = labels[`${LABEL_PREFIX}${mode}-version`] || 'latest';
  return { level: level && LEVELS.has(level) ? level : 'privileged', version };
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

export class PodSecurityAdmission implements AdmissionPlugin {
  readonly name = 'PodSecurity';

  validate(attributes: AdmissionAttributes, store: StoreApi): ApiError | undefined {
    const { kind, object, old } = attributes;
    if (!attributes.namespace) return undefined;
    const isPod = kind === 'Pod';
    const podSpec = isPod ? (object.spec as PodSpec | undefined) : podTemplateSpec(kind, object);
    if (!podSpec) return undefined;
    // A pod's update cannot change what is checked; a workload's only matters when its template changes.
    if (old !== undefined && (isPod || deepEqual(podTemplateSpec(kind, old), podSpec))) return undefined;
    const labels = store.get<KubeObject>('Namespace', undefined, attributes.namespace)?.metadata?.labels ?? {};
    if (!Object.keys(labels).some((label) => label.startsWith(LABEL_PREFIX))) return undefined;
    const enforce = policyOf(labels, 'enforce');
    if (isPod) {
      const failed = evaluatePod(enforce.level, podSpec);
      if (failed.length > 0) return forbidden(attributes, `violates PodSecurity ${JSON.stringify(levelVersionText(enforce))}: ${forbiddenDetail(failed)}`);
    }
    // PolicyToEvaluate: without a warn label, warn at the enforced level (so a Deployment's template is warned about).
    const warn = labels[`${LABEL_PREFIX}warn`] === undefined ? enforce : policyOf(labels, 'warn');
    const failed = evaluatePod(warn.level, podSpec);
    if (failed.length > 0) attributes.warnings?.push(`would violate PodSecurity ${JSON.stringify(levelVersionText(warn))}: ${forbiddenDetail(failed)}`);
    return undefined;
  }
}
