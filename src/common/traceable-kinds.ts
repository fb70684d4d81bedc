/**
 * The kinds whose journeys Kube Journey traces: what a user applies and the objects they own down
 * to pods. One list, read by the tracer, the CLI, the extension, the hover and the protocol's
 * shape guards, so a kind added here is traced everywhere at once.
 */
export const TRACEABLE_KIND_NAMES = ['Deployment', 'ReplicaSet', 'Pod'] as const;

export type TraceableKind = (typeof TRACEABLE_KIND_NAMES)[number];

export const TRACEABLE_KINDS: ReadonlySet<string> = new Set<string>(TRACEABLE_KIND_NAMES);

export function isTraceableKind(kind: unknown): kind is TraceableKind {
  return typeof kind === 'string' && TRACEABLE_KINDS.has(kind);
}

/** The group/version each traceable kind is served under (a `v1` Deployment is not one). */
export const TRACEABLE_API_VERSIONS: Readonly<Record<TraceableKind, string>> = { Deployment: 'apps/v1', ReplicaSet: 'apps/v1', Pod: 'v1' };
