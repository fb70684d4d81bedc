/**
 * Kubeconfig loading as kubectl does it (client-go `clientcmd` loading rules):
 * - `--kubeconfig FILE` alone, which must exist; else every file in `KUBECONFIG` (path-list
 *   separated, missing files skipped); else `~/.kube/config`;
 * - files merged first-wins: the first file that names a cluster, user or context keeps it, and the
 *   first non-empty `current-context` is the current one;
 * - relative file references (certificate-authority, client-certificate, client-key, token-file,
 *   an exec command with a directory part) resolved against the file that holds them.
 * The merged result goes to client-node's KubeConfig, which supplies TLS and every credential kind
 * (token, client certificate, basic auth, exec plugins, auth providers).
 *
 * Nothing here logs or returns credentials: `ContextInfo` says which kind of credential a context
 * uses, never its value.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

export interface KubeconfigSource {
  /** An explicit kubeconfig file (kubectl's `--kubeconfig`); overrides KUBECONFIG. */
  kubeconfig?: string;
  /** The context to use instead of the current context (kubectl's `--context`). */
  context?: string;
  /** Environment to read KUBECONFIG and HOME from (default process.env). */
  env?: Record<string, string | undefined>;
}

export type CredentialKind = 'token' | 'client-certificate' | 'basic-auth' | 'exec' | 'auth-provider' | 'none';

export interface ContextInfo {
  name: string;
  cluster: string;
  /** The cluster's server URL, when the cluster is defined. */
  server?: string;
  user?: string;
  /** The context's namespace, `default` when it names none. */
  namespace: string;
  current: boolean;
  /** Which kind of credential the context's user has (never the credential itself). */
  credential: CredentialKind;
  /** For exec plugins, the command (`aws`, `gke-gcloud-auth-plugin`); for auth providers, the provider name. */
  credentialDetail?: string;
}

export interface LoadedKubeconfig {
  /** client-node's KubeConfig, set to the chosen context. */
  kubeConfig: KubeConfig;
  context: ContextInfo;
  server: string;
  /** The files that were read, in precedence order. */
  files: string[];
}

export class KubeconfigError extends Error {
  override readonly name = 'KubeconfigError';
}

type RawEntry = { name?: unknown; [key: string]: unknown };

interface RawConfig {
  clusters: RawEntry[];
  users: RawEntry[];
  contexts: RawEntry[];
  currentContext?: string;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The kubeconfig files kubectl would read, in precedence order. */
export function kubeconfigFiles(source: KubeconfigSource = {}): { files: string[]; explicit: boolean } {
  const env = source.env ?? process.env;
  if (source.kubeconfig) return { files: [resolve(source.kubeconfig)], explicit: true };
  const list = env.KUBECONFIG;
  if (list) {
    const files = [...new Set(list.split(delimiter).filter((file) => file.trim() !== '').map((file) => resolve(file)))];
    return { files, explicit: false };
  }
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  return { files: [join(home, '.kube', 'config')], explicit: false };
}

function resolvePath(base: string, value: unknown): unknown {
  return typeof value === 'string' && value !== '' && !isAbsolute(value) ? join(base, value) : value;
}

/** client-go's ResolveLocalPaths: file references are relative to the kubeconfig that holds them. */
function resolveReferences(config: RawConfig, file: string): void {
  const base = dirname(file);
  for (const entry of config.clusters) {
    const cluster = record(entry.cluster);
    if (cluster) cluster['certificate-authority'] = resolvePath(base, cluster['certificate-authority']);
  }
  for (const entry of config.users) {
    const user = record(entry.user);
    if (!user) continue;
    for (const key of ['client-certificate', 'client-key', 'token-file']) user[key] = resolvePath(base, user[key]);
    const exec = record(user.exec);
    // A bare command name is looked up on PATH; only one with a directory part is a file reference.
    if (exec && typeof exec.command === 'string' && /[\\/]/.test(exec.command)) exec.command = resolvePath(base, exec.command);
  }
}

function readConfig(file: string): RawConfig {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new KubeconfigError(`error loading config file "${file}": ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  const raw = record(parsed) ?? {};
  const list = (value: unknown): RawEntry[] => (Array.isArray(value) ? value.filter((entry): entry is RawEntry => !!record(entry) && typeof (entry as RawEntry).name === 'string') : []);
  const config: RawConfig = {
    clusters: list(raw.clusters),
    users: list(raw.users),
    contexts: list(raw.contexts),
    currentContext: typeof raw['current-context'] === 'string' && raw['current-context'] ? raw['current-context'] : undefined,
  };
  resolveReferences(config, file);
  return config;
}

function merge(configs: RawConfig[]): RawConfig {
  const merged: RawConfig = { clusters: [], users: [], contexts: [] };
  const add = (target: RawEntry[], entries: RawEntry[]): void => {
    for (const entry of entries) if (!target.some((existing) => existing.name === entry.name)) target.push(entry);
  };
  for (const config of configs) {
    add(merged.clusters, config.clusters);
    add(merged.users, config.users);
    add(merged.contexts, config.contexts);
    merged.currentContext ??= config.currentContext;
  }
  return merged;
}

function loadRaw(source: KubeconfigSource): { config: RawConfig; files: string[] } {
  const { files, explicit } = kubeconfigFiles(source);
  if (explicit && !existsSync(files[0])) throw new KubeconfigError(`stat ${files[0]}: no such file or directory`);
  const read = files.filter((file) => existsSync(file));
  return { config: merge(read.map(readConfig)), files: read };
}

function credentialOf(user: Record<string, unknown> | undefined): { credential: CredentialKind; detail?: string } {
  if (!user) return { credential: 'none' };
  const exec = record(user.exec);
  if (exec) return { credential: 'exec', detail: typeof exec.command === 'string' ? exec.command.split(/[\\/]/).pop() : undefined };
  const provider = record(user['auth-provider']);
  if (provider) return { credential: 'auth-provider', detail: typeof provider.name === 'string' ? provider.name : undefined };
  if (user.token || user['token-file']) return { credential: 'token' };
  if (user['client-certificate'] || user['client-certificate-data']) return { credential: 'client-certificate' };
  if (user.username) return { credential: 'basic-auth' };
  return { credential: 'none' };
}

function contextInfo(config: RawConfig, entry: RawEntry): ContextInfo {
  const name = String(entry.name);
  const context = record(entry.context) ?? {};
  const clusterName = typeof context.cluster === 'string' ? context.cluster : '';
  const userName = typeof context.user === 'string' && context.user ? context.user : undefined;
  const cluster = record(config.clusters.find((c) => c.name === clusterName)?.cluster);
  const user = record(config.users.find((u) => u.name === userName)?.user);
  const { credential, detail } = credentialOf(user);
  return {
    name,
    cluster: clusterName,
    server: typeof cluster?.server === 'string' ? cluster.server : undefined,
    user: userName,
    namespace: typeof context.namespace === 'string' && context.namespace ? context.namespace : 'default',
    current: name === config.currentContext,
    credential,
    credentialDetail: detail,
  };
}

/** Every context of the merged kubeconfig, in file order (for a context picker). */
export function listContexts(source: Omit<KubeconfigSource, 'context'> = {}): ContextInfo[] {
  const { config } = loadRaw(source);
  return config.contexts.map((entry) => contextInfo(config, entry));
}

/** Loads the kubeconfig and selects a context, with kubectl's error messages when it cannot. */
export function loadKubeconfig(source: KubeconfigSource = {}): LoadedKubeconfig {
  const { config, files } = loadRaw(source);
  const name = source.context ?? config.currentContext;
  if (!name) {
    if (files.length === 0) throw new KubeconfigError(`no kubeconfig found (looked at ${kubeconfigFiles(source).files.join(', ')})`);
    throw new KubeconfigError('current-context is not set; name a context (the kubeconfig has: ' + (config.contexts.map((c) => String(c.name)).join(', ') || 'no contexts') + ')');
  }
  const entry = config.contexts.find((c) => c.name === name);
  if (!entry) throw new KubeconfigError(`context was not found for specified context: ${name}`);
  const info = contextInfo(config, entry);
  if (!info.server) throw new KubeconfigError(`cluster "${info.cluster}" of context "${name}" has no server (or is not defined)`);

  const kubeConfig = new KubeConfig();
  try {
    // Only the chosen context's cluster and user: a broken entry elsewhere must not stop us (kubectl validates the one it uses).
    const used = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: config.clusters.filter((c) => c.name === info.cluster),
      users: config.users.filter((u) => u.name === info.user),
      contexts: [entry],
      'current-context': name,
    };
    kubeConfig.loadFromString(stringifyYaml(used));
  } catch (error) {
    throw new KubeconfigError(`invalid configuration for context "${name}": ${error instanceof Error ? error.message : String(error)}`);
  }
  return { kubeConfig, context: { ...info, current: info.name === config.currentContext }, server: info.server, files };
}
