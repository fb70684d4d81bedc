/**
 * One connection for real clusters and the served simulator: kubeconfig contexts, server-side
 * apply, list + watch feeding the journey tracer. What the CLI and the VS Code extension use.
 */
export { ClusterConnection, type ServerVersion } from './connection';
export { ClusterTraceSession, journeyRoot, type SessionApplied, type TraceSessionOptions } from './session';
export { listContexts, loadKubeconfig, kubeconfigFiles, KubeconfigError, type ContextInfo, type CredentialKind, type KubeconfigSource, type LoadedKubeconfig } from './kubeconfig';
export {
  FIELD_MANAGER,
  ManifestApplier,
  displayName,
  writeStamp,
  type ApplyAction,
  type ApplyConflict,
  type ApplyFailure,
  type ApplyOptions,
  type ApplyResult,
  type FieldCause,
} from './apply';
export { ClusterWatcher, collectionPath, describeProblem, problemSubject, WATCHED_KINDS, type ClusterWatcherOptions, type WatchedCollection, type WatchedKind, type WatchIo, type WatchProblem } from './watcher';
export { Reflector, type DelayFunction, type ListFunction, type ListResult, type ProblemReason, type ReflectorStats, type StreamProblem, type WatchFunction, type WatchRequest } from './reflector';
export { INTERNALS_STREAM_PATH, type InternalsFunction, type InternalsRequest, type InternalsState } from './internals-reader';
export { ServerClock } from './server-clock';
export { DEFAULT_BACKOFF, backoffDelay, type BackoffPolicy } from './backoff';
export { ClusterApiError, ClusterUnreachableError, type StatusCause } from './errors';
export { NoKindMatchError, ResourceMapper, type ResourceMapping } from './discovery';
export { normalizeFieldPath } from './field-path';
