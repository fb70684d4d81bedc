/** Small HTTP helpers shared by the API server's handlers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../sim/store/types';
import { ProtobufDecodeError, decodeKubernetesProtobuf, type DecodeTarget } from './protobuf/decode';

export const JSON_TYPE = 'application/json';
export const TABLE_TYPE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
/** Request bodies above this size are refused (kube-apiserver's limit is 3 MiB per object). */
const MAX_BODY_BYTES = 3 * 1024 * 1024;

export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = JSON_TYPE, extraHeaders: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private', 'Content-Length': Buffer.byteLength(text), ...extraHeaders });
  res.end(text);
}

export function sendError(res: ServerResponse, error: unknown): void {
  const apiError = error instanceof ApiError ? error : new ApiError(500, 'InternalError', `Internal error occurred: ${error instanceof Error ? error.message : String(error)}`);
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, apiError.code, apiError.toStatus());
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, 'BadRequest', 'the request body is too large (the limit is 3 MiB)');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** What kube-apiserver accepts for an object (create, update, delete options) and for a patch. */
const OBJECT_MEDIA_TYPES = 'application/json, application/yaml, application/vnd.kubernetes.protobuf';
export const PATCH_MEDIA_TYPES = 'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json';

export function unsupportedMediaType(accepted: string): ApiError {
  return new ApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted}`);
}

export function isProtobuf(contentType: string): boolean {
  return contentType.split(';')[0].trim() === 'application/vnd.kubernetes.protobuf';
}

/**
 * An object sent to create, update or delete: JSON, or the protobuf kubectl's typed clients send
 * (`expected` names the kind when the envelope does not).
 */
export function parseObjectBody(body: Buffer, contentType: string, expected?: DecodeTarget): unknown {
  if (!isProtobuf(contentType)) {
    if (contentType.includes('protobuf')) throw unsupportedMediaType(OBJECT_MEDIA_TYPES);
    return parseJson(body.toString('utf8'));
  }
  if (body.length === 0) return undefined;
  try {
    return decodeKubernetesProtobuf(body, expected);
  } catch (error) {
    if (error instanceof ProtobufDecodeError) throw new ApiError(400, 'BadRequest', error.message);
    throw error;
  }
}

/** A patch body: JSON (a patch has no protobuf form). */
export function parseJsonBody(text: string, contentType: string): unknown {
  if (contentType.includes('protobuf')) throw unsupportedMediaType(PATCH_MEDIA_TYPES);
  return parseJson(text);
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'BadRequest', `the object provided could not be decoded as JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function wantsTable(accept: string | undefined): boolean {
  return !!accept && accept.split(',').some((part) => part.includes('as=Table'));
}
