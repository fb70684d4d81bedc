/**
 * What `kube-journey trace` says about each applied document: the action the API server took, or
 * why it refused it. Printed by the CLI and kept in a journey file (core/journey-file).
 */
export interface DocumentResult {
  /** The document's index in the manifest, from 0. */
  document: number;
  /** The YAML line the result points at (the offending field's, for an error). */
  line: number;
  /** `deployment.apps/web` */
  object: string;
  action?: 'created' | 'configured' | 'unchanged';
  error?: string;
  /** The error came from the client (no such kind, server unreachable), not from the API server. */
  clientError?: boolean;
  /** What the user can do about the error, printed after it. */
  hint?: string;
}
