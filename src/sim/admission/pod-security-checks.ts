/**
 * The Pod Security Standards' checks (staging/src/k8s.io/pod-security-admission/policy), each
 * with upstream's reason and detail. A level runs its checks in upstream's order: the baseline
 * checks every level shares, then either the baseline-only ones or the restricted ones (the
 * baseline-only checks are those a restricted check tightens, e.g. hostPath volumes).
 */
import type { Container, PodSpec } from '../../core/k8s';

export interface CheckResult {
  reason: string;
  detail: string;
}

type Check = (spec: PodSpec) => CheckResult | undefined;

interface SecurityContext {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  procMount?: string;
  capabilities?: { add?: string[]; drop?: string[] };
  seccompProfile?: { type?: string };
}

function securityContext(container: Container): SecurityContext | undefined {
  return container.securityContext as SecurityContext | undefined;
}

function podSecurityContext(spec: PodSpec): SecurityContext | undefined {
  return spec.securityContext as SecurityContext | undefined;
}

/** visitContainers: init containers, containers, then ephemeral containers. */
function everyContainer(spec: PodSpec): Container[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...((spec.ephemeralContainers ?? []) as Container[])];
}

function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

function joinQuote(items: readonly string[]): string {
  return items.map((item) => JSON.stringify(item)).join(', ');
}

function containersMatching(spec: PodSpec, bad: (context: SecurityContext | undefined) => boolean): string[] {
  return everyContainer(spec).filter((container) => bad(securityContext(container))).map((container) => container.name);
}

const hostNamespaces: Check = (spec) => {
  const used = [spec.hostIPC && 'hostIPC', spec.hostNetwork && 'hostNetwork', spec.hostPID && 'hostPID'].filter((name): name is string => !!name);
  return used.length > 0 ? { reason: 'host namespaces', detail: used.join(', ') } : undefined;
};

const hostPorts: Check = (spec) => {
  const bad: string[] = [];
  const ports = new Set<string>();
  for (const container of everyContainer(spec)) {
    let uses = false;
    for (const port of container.ports ?? []) {
      if (port.hostPort) {
        uses = true;
        ports.add(String(port.hostPort));
      }
    }
    if (uses) bad.push(container.name);
  }
  if (bad.length === 0) return undefined;
  const list = [...ports].sort();
  return { reason: 'hostPort', detail: `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', list.length)} ${list.join(', ')}` };
};

const privileged: Check = (spec) => {
  const bad = containersMatching(spec, (context) => context?.privileged === true);
  return bad.length > 0 ? { reason: 'privileged', detail: `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must not set securityContext.privileged=true` } : undefined;
};

const procMount: Check = (spec) => {
  const bad = containersMatching(spec, (context) => context?.procMount !== undefined && context.procMount !== 'Default');
  if (bad.length === 0) return undefined;
  return { reason: 'procMount', detail: `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must not set securityContext.procMount to "Unmasked"` };
};

const BASELINE_CAPABILITIES = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

const capabilitiesBaseline: Check = (spec) => {
  const bad: string[] = [];
  const added = new Set<string>();
  for (const container of everyContainer(spec)) {
    const extra = (securityContext(container)?.capabilities?.add ?? []).filter((capability) => !BASELINE_CAPABILITIES.has(capability));
    if (extra.length === 0) continue;
    bad.push(container.name);
    for (const capability of extra) added.add(capability);
  }
  if (bad.length === 0) return undefined;
  return { reason: 'non-default capabilities', detail: `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must not include ${joinQuote([...added].sort())} in securityContext.capabilities.add` };
};

const hostPathVolumes: Check = (spec) => {
  const names = (spec.volumes ?? []).filter((volume) => volume.hostPath).map((volume) => volume.name);
  return names.length > 0 ? { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}` } : undefined;
};

const seccompProfileBaseline: Check = (spec) => {
  const setters: string[] = [];
  if (podSecurityContext(spec)?.seccompProfile?.type === 'Unconfined') setters.push('pod');
  const bad = containersMatching(spec, (context) => context?.seccompProfile?.type === 'Unconfined');
  if (bad.length > 0) setters.push(`${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)}`);
  return setters.length > 0 ? { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to "Unconfined"` } : undefined;
};

const allowPrivilegeEscalation: Check = (spec) => {
  const bad = containersMatching(spec, (context) => context?.allowPrivilegeEscalation !== false);
  return bad.length > 0 ? { reason: 'allowPrivilegeEscalation != false', detail: `${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)} must set securityContext.allowPrivilegeEscalation=false` } : undefined;
};

const capabilitiesRestricted: Check = (spec) => {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbidden = new Set<string>();
  for (const container of everyContainer(spec)) {
    const capabilities = securityContext(container)?.capabilities;
    if (!capabilities) {
      missingDropAll.push(container.name);
      continue;
    }
    if (!(capabilities.drop ?? []).includes('ALL')) missingDropAll.push(container.name);
    const extra = (capabilities.add ?? []).filter((capability) => capability !== 'NET_BIND_SERVICE');
    if (extra.length > 0) {
      addingForbidden.push(container.name);
      for (const capability of extra) forbidden.add(capability);
    }
  }
  const details: string[] = [];
  if (missingDropAll.length > 0) details.push(`${pluralize('container', 'containers', missingDropAll.length)} ${joinQuote(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length > 0) details.push(`${pluralize('container', 'containers', addingForbidden.length)} ${joinQuote(addingForbidden)} must not include ${joinQuote([...forbidden].sort())} in securityContext.capabilities.add`);
  return details.length > 0 ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
};

const ALLOWED_VOLUME_TYPES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret', 'image']);

const restrictedVolumes: Check = (spec) => {
  const names: string[] = [];
  const types = new Set<string>();
  for (const volume of spec.volumes ?? []) {
    const type = Object.keys(volume).find((key) => key !== 'name');
    // A volume without a source is an emptyDir once defaulted.
    if (type === undefined || ALLOWED_VOLUME_TYPES.has(type)) continue;
    names.push(volume.name);
    types.add(type);
  }
  if (names.length === 0) return undefined;
  const typeList = [...types].sort();
  return {
    reason: 'restricted volume types',
    detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)} ${pluralize('uses', 'use', names.length)} ${pluralize('restricted volume type', 'restricted volume types', typeList.length)} ${joinQuote(typeList)}`,
  };
};

const runAsNonRoot: Check = (spec) => {
  const setters: string[] = [];
  let podNonRoot = false;
  const podValue = podSecurityContext(spec)?.runAsNonRoot;
  if (podValue === false) setters.push('pod');
  else if (podValue === true) podNonRoot = true;
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const container of everyContainer(spec)) {
    const value = securityContext(container)?.runAsNonRoot;
    if (value === false) explicit.push(container.name);
    else if (value === undefined && !podNonRoot) implicit.push(container.name);
  }
  if (explicit.length > 0) setters.push(`${pluralize('container', 'containers', explicit.length)} ${joinQuote(explicit)}`);
  if (setters.length > 0) return { reason: 'runAsNonRoot != true', detail: `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  if (implicit.length > 0) return { reason: 'runAsNonRoot != true', detail: `pod or ${pluralize('container', 'containers', implicit.length)} ${joinQuote(implicit)} must set securityContext.runAsNonRoot=true` };
  return undefined;
};

const runAsUser: Check = (spec) => {
  const setters: string[] = [];
  if (podSecurityContext(spec)?.runAsUser === 0) setters.push('pod');
  const bad = containersMatching(spec, (context) => context?.runAsUser === 0);
  if (bad.length > 0) setters.push(`${pluralize('container', 'containers', bad.length)} ${joinQuote(bad)}`);
  return setters.length > 0 ? { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` } : undefined;
};

const VALID_SECCOMP = new Set(['RuntimeDefault', 'Localhost']);

const seccompProfileRestricted: Check = (spec) => {
  const setters: string[] = [];
  const badValues = new Set<string>();
  let podSet = false;
  const podProfile = podSecurityContext(spec)?.seccompProfile;
  if (podProfile) {
    if (!VALID_SECCOMP.has(podProfile.type ?? '')) {
      setters.push('pod');
      badValues.add(podProfile.type ?? '');
    } else podSet = true;
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const container of everyContainer(spec)) {
    const profile = securityContext(container)?.seccompProfile;
    if (profile) {
      if (!VALID_SECCOMP.has(profile.type ?? '')) {
        explicit.push(container.name);
        badValues.add(profile.type ?? '');
      }
    } else if (!podSet) implicit.push(container.name);
  }
  if (explicit.length > 0) setters.push(`${pluralize('container', 'containers', explicit.length)} ${joinQuote(explicit)}`);
  if (setters.length > 0) return { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote([...badValues].sort())}` };
  if (implicit.length > 0) {
    return { reason: 'seccompProfile', detail: `pod or ${pluralize('container', 'containers', implicit.length)} ${joinQuote(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
  }
  return undefined;
};

const SHARED_BASELINE: readonly Check[] = [hostNamespaces, hostPorts, privileged, procMount];
const BASELINE_ONLY: readonly Check[] = [capabilitiesBaseline, hostPathVolumes, seccompProfileBaseline];
const RESTRICTED: readonly Check[] = [allowPrivilegeEscalation, capabilitiesRestricted, restrictedVolumes, runAsNonRoot, runAsUser, seccompProfileRestricted];

export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

/** EvaluatePod: the failed checks of a level, in upstream's order. */
export function evaluatePod(level: PodSecurityLevel, spec: PodSpec): CheckResult[] {
  if (level === 'privileged') return [];
  const checks = [...SHARED_BASELINE, ...(level === 'baseline' ? BASELINE_ONLY : RESTRICTED)];
  const failed: CheckResult[] = [];
  for (const check of checks) {
    const result = check(spec);
    if (result) failed.push(result);
  }
  return failed;
}

/** AggregateCheckResult.ForbiddenDetail: `reason (detail), reason (detail)`. */
export function forbiddenDetail(results: readonly CheckResult[]): string {
  return results.map((result) => (result.detail ? `${result.reason} (${result.detail})` : result.reason)).join(', ');
}
