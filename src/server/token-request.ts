/**
 * The `serviceaccounts/token` subresource (pkg/registry/core/serviceaccount/storage/token.go):
 * POST a TokenRequest (authentication.k8s.io/v1), get it back with `status.token`, a JWT for the
 * ServiceAccount, and `status.expirationTimestamp`. `kubectl create token` calls it.
 *
 * The token is shaped as kube-apiserver's (RS256 header, the service account claims) but signed
 * by nothing: nothing in the simulator verifies it. It is never stored, logged or recorded, as
 * the request writes nothing to the store.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject, ResourceKind, StatusCause } from '../core/k8s';
import { goQuote } from '../core/schema/go-format';
import { invalid, type FieldCause } from '../sim/apis/field';
import { rfc3339 } from '../sim/store/object-utils';
import { ApiError } from '../sim/store/types';
import type { ResourceHandlerDeps } from './handler-deps';
import { JSON_TYPE, parseObjectBody, readBody, sendJson } from './http-util';
import type { ResourcePath } from './routing';

const API_VERSION = 'authentication.k8s.io/v1';
const GROUP_KIND = 'TokenRequest.authentication.k8s.io';
/** kind's kube-apiserver: `--service-account-issuer`, which `--api-audiences` defaults to. */
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** SetDefaults_TokenRequestSpec: one hour. */
const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 10 * 60;
const MAX_EXPIRATION_SECONDS = 2 ** 32 - 1;

interface TokenRequest extends KubeObject {
  spec?: { audiences?: string[]; expirationSeconds?: number; boundObjectRef?: BoundObjectReference | null };
}

interface BoundObjectReference {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

/** The kinds a token may be bound to (Node by ServiceAccountTokenNodeBinding, on by default since 1.31), and where each is read. */
const BINDABLE: Partial<Record<string, { kind: ResourceKind; namespaced: boolean }>> = {
  Pod: { kind: 'Pod', namespaced: true },
  Secret: { kind: 'Secret', namespaced: true },
  Node: { kind: 'Node', namespaced: false },
};

function invalidRequest(name: string, causes: FieldCause[]): ApiError {
  const statusCauses: StatusCause[] = causes.map(({ reason, message, field }) => ({ reason, message, field }));
  const text = causes.map((cause) => `${cause.field}: ${cause.message}`);
  const message = `${GROUP_KIND} "${name}" is invalid: ${text.length === 1 ? text[0] : `[${text.join(', ')}]`}`;
  return new ApiError(422, 'Invalid', message, { name, group: 'authentication.k8s.io', kind: 'TokenRequest', causes: statusCauses });
}

/** ValidateTokenRequest. */
function validateExpiration(seconds: number): FieldCause[] {
  if (seconds < MIN_EXPIRATION_SECONDS) return [invalid('spec.expirationSeconds', String(seconds), 'may not specify a duration less than 10 minutes')];
  if (seconds > MAX_EXPIRATION_SECONDS) return [invalid('spec.expirationSeconds', String(seconds), 'may not specify a duration larger than 2^32 seconds')];
  return [];
}

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

function tokenFor(account: KubeObject, bound: KubeObject | undefined, audiences: string[], issuedAtMs: number, expirationSeconds: number): string {
  const issuedAt = Math.floor(issuedAtMs / 1000);
  const namespace = account.metadata?.namespace ?? '';
  const name = account.metadata?.name ?? '';
  const header = { alg: 'RS256', kid: base64url(`kube-journey-simulator-${ISSUER}`).slice(0, 43) };
  const claims: Record<string, unknown> = {
    aud: audiences,
    exp: issuedAt + expirationSeconds,
    iat: issuedAt,
    iss: ISSUER,
    jti: randomUUID(),
    'kubernetes.io': {
      namespace,
      ...(bound ? { [(bound.kind ?? '').toLowerCase()]: { name: bound.metadata?.name, uid: bound.metadata?.uid } } : {}),
      serviceaccount: { name, uid: account.metadata?.uid },
    },
    nbf: issuedAt,
    sub: `system:serviceaccount:${namespace}:${name}`,
  };
  return `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}.${base64url(randomBytes(256))}`;
}

/** The object a token is bound to, checked as TokenREST.Create checks it. */
function boundObject(deps: ResourceHandlerDeps, namespace: string, accountName: string, ref: BoundObjectReference): KubeObject {
  const target = ref.apiVersion === 'v1' ? BINDABLE[ref.kind ?? ''] : undefined;
  const groupVersionKind = `${ref.apiVersion?.includes('/') ? ref.apiVersion : `/${ref.apiVersion ?? ''}`}, Kind=${ref.kind ?? ''}`;
  if (!target) throw new ApiError(400, 'BadRequest', `cannot bind token to object of type ${groupVersionKind}`);
  const object = deps.store.read(target.kind, target.namespaced ? namespace : undefined, ref.name ?? '');
  if (target.kind === 'Pod' && (object.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName !== accountName) {
    throw new ApiError(400, 'BadRequest', `cannot bind token for serviceaccount ${goQuote(accountName)} to pod running with different serviceaccount name.`);
  }
  if (ref.uid && ref.uid !== object.metadata?.uid) {
    throw new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${ref.kind} "${ref.name ?? ''}": the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  return object;
}

export async function handleTokenRequest(req: IncomingMessage, res: ServerResponse, path: ResourcePath, deps: ResourceHandlerDeps): Promise<void> {
  const name = path.name!;
  const namespace = path.namespace ?? 'default';
  const request = (parseObjectBody(await readBody(req), req.headers['content-type'] ?? JSON_TYPE, { apiVersion: API_VERSION, kind: 'TokenRequest' }) ?? {}) as TokenRequest;
  const meta = request.metadata ?? {};
  if (meta.name && meta.name !== name) throw invalidRequest(name, [invalid('metadata.name', goQuote(meta.name), 'must match the service account name if specified')]);
  if (meta.namespace && meta.namespace !== namespace) throw invalidRequest(name, [invalid('metadata.namespace', goQuote(meta.namespace), 'must match the service account namespace if specified')]);
  const account = deps.store.read('ServiceAccount', namespace, name);
  const spec = request.spec ?? {};
  const audiences = spec.audiences && spec.audiences.length > 0 ? spec.audiences : [ISSUER];
  const expirationSeconds = spec.expirationSeconds || DEFAULT_EXPIRATION_SECONDS;
  const now = deps.now();
  const errors = validateExpiration(expirationSeconds);
  if (errors.length > 0) throw invalidRequest('', errors);
  const bound = spec.boundObjectRef ? boundObject(deps, namespace, name, spec.boundObjectRef) : undefined;
  sendJson(res, 201, {
    kind: 'TokenRequest',
    apiVersion: API_VERSION,
    metadata: { name: meta.name || name, namespace: meta.namespace || namespace, creationTimestamp: rfc3339(now) },
    spec: { audiences, expirationSeconds, boundObjectRef: spec.boundObjectRef ?? null },
    status: { token: tokenFor(account, bound, audiences, now, expirationSeconds), expirationTimestamp: rfc3339(now + expirationSeconds * 1000) },
  });
}
