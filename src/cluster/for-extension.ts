/**
 * What the VS Code extension takes from src/cluster, built on its own into dist/cluster.js: the
 * extension bundle requires that file the first time a target is used, so @kubernetes/client-node
 * is neither parsed nor run when VS Code activates the extension on a YAML file.
 */
export { ClusterConnection } from './connection';
export { listContexts } from './kubeconfig';
export { describeProblem } from './watcher';
// The twin target's simulator child (src/cli/simulator-server.ts) reads the cluster with these.
export { readClusterForTwin, TwinReadError } from './twin-read';
export { ClusterApiError, ClusterUnreachableError } from './errors';
export { KubeconfigError } from './kubeconfig';
