/**
 * Where a Service and its EndpointSlices stand. A Service is complete when every pod its
 * selector matches (among the pods the tracer sees) is a ready endpoint and, where kube-proxy's
 * work can be seen (the simulator's internals), kube-proxy programmed exactly those endpoints. A
 * Service whose selector matches no pod is stuck with `no endpoints: no pod matches selector …`:
 * a real cluster keeps it, but traffic to it fails, so it is never called complete. ExternalName
 * Services and Services without a selector (endpoints managed by hand) are complete once stored.
 */
import { selectorText } from './derive-service';
import { stageOf, type ObjectRecord } from './records';
import type { StatusResult } from './status';
import type { StuckDetail } from './types';
import { refOf } from './status';

/** What the tracer knows of a Service beyond its object. */
export interface ServiceTrace {
  /** Names of the live pods of its namespace its selector matches (seen on the watch). */
  selected: Set<string>;
  /** Whether kube-proxy's syncs are visible (the simulator's internals stream). */
  proxyVisible: boolean;
  /** The endpoints kube-proxy last programmed, sorted; absent: never programmed. */
  programmed?: readonly string[];
  programmedNodes?: number;
  /** Selected pods that are stuck or failed, by name: why the Service cannot get them as endpoints. */
  podProblems: Map<string, StuckDetail>;
}

export const NO_ENDPOINTS = 'NoEndpoints';

/** The ready endpoints of a Service's slices, and how many endpoints are not ready. */
export function serviceEndpoints(record: ObjectRecord): { ready: Set<string>; notReady: number } {
  const ready = new Set<string>();
  let notReady = 0;
  for (const slice of record.children) {
    if (slice.deleted || slice.digest?.kind !== 'EndpointSlice') continue;
    for (const endpoint of slice.digest.slice?.endpoints ?? []) {
      if (endpoint.ready) ready.add(endpoint.target);
      else if (!endpoint.terminating) notReady++;
    }
  }
  return { ready, notReady };
}

export function serviceStatus(record: ObjectRecord): StatusResult {
  const digest = record.digest?.kind === 'Service' ? record.digest : undefined;
  if (record.deleted || digest?.deletionTimestamp) return { status: 'deleted', own: false };
  const service = digest?.service;
  if (!digest || !service) return { status: 'pending', own: false };
  if (service.type === 'ExternalName' || !service.selector) return { status: 'complete', own: false };
  const trace = record.service;
  const { ready, notReady } = serviceEndpoints(record);
  const slicesSeen = record.children.some((slice) => !slice.deleted);
  if (ready.size === 0 && notReady === 0 && slicesSeen && (trace?.selected.size ?? 0) === 0) {
    const stage = stageOf(record, 'ipAllocated') ?? stageOf(record, 'stored#1');
    const since = stage?.time ?? record.createdAt ?? 0;
    return {
      status: 'stuck',
      own: true,
      stuck: { reason: NO_ENDPOINTS, message: `no endpoints: no pod matches selector ${selectorText(service.selector)}`, since, lastSeen: since, component: 'endpointslice-controller', object: refOf(record) },
    };
  }
  const everySelectedReady = ready.size > 0 && notReady === 0 && [...(trace?.selected ?? [])].every((pod) => ready.has(pod));
  if (!everySelectedReady) {
    // A selected pod that cannot become ready keeps the Service from serving through it: say why.
    const [pod, problem] = trace?.podProblems.entries().next().value ?? [];
    if (pod && problem) return { status: 'stuck', own: true, stuck: { ...problem, message: `pod ${pod} is not ready: ${problem.message}`, object: refOf(record) } };
    return { status: 'progressing', own: false };
  }
  // kube-proxy programs no rules for a headless Service: DNS answers with the pods. A Service that
  // existed before its journey began may have been programmed before the tracer watched.
  if (service.clusterIP === 'None' || !trace?.proxyVisible || (trace.programmed === undefined && record.preexisting)) return { status: 'complete', own: false };
  const programmed = trace.programmed ?? [];
  const programmedAll = programmed.length === ready.size && programmed.every((pod) => ready.has(pod));
  return { status: programmedAll ? 'complete' : 'progressing', own: false };
}

/** A slice is complete when all its endpoints are ready (an empty placeholder too: its Service says why). */
export function endpointSliceStatus(record: ObjectRecord): StatusResult {
  const digest = record.digest?.kind === 'EndpointSlice' ? record.digest : undefined;
  if (record.deleted || digest?.deletionTimestamp) return { status: 'deleted', own: false };
  if (!digest) return { status: 'pending', own: false };
  const allReady = (digest.slice?.endpoints ?? []).every((endpoint) => endpoint.ready || endpoint.terminating);
  return { status: allReady ? 'complete' : 'progressing', own: false };
}
