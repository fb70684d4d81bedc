/**
 * JSON patch (RFC 6902), `Content-Type: application/json-patch+json`: what `kubectl rollout
 * undo`, `kubectl patch --type=json` and client-node's typed `patch*` methods send. Operations
 * run in order on a copy; the first failing one aborts the whole patch. Failure details follow
 * evanphx/json-patch (the library the API server uses), and the error is the Status the API
 * server answers with.
 */
import { badRequest, unprocessable } from './errors';
import { cloneJson, deepEqual, isJsonObject, type JsonObject } from '../../common/json';

export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

/**
 * Applies the operations to `target` and returns the result; `target` is not modified.
 * Throws a PatchError: 400 when `operations` is not a list of operation objects, 422 when an
 * operation does not apply (missing path, bad index, failed test, unknown op).
 */
export function applyJsonPatch(target: unknown, operations: unknown): unknown {
  // Go decodes a `null` patch into an empty operation list.
  if (operations === null) return cloneJson(target);
  if (!Array.isArray(operations)) {
    throw badRequest(`json: cannot unmarshal ${jsonTypeName(operations)} into Go value of type jsonpatch.Patch`);
  }
  for (const operation of operations) {
    if (!isJsonObject(operation)) {
      throw badRequest(`json: cannot unmarshal ${jsonTypeName(operation)} into Go value of type jsonpatch.Operation`);
    }
  }
  const document = new Document(cloneJson(target));
  for (const operation of operations as JsonObject[]) document.apply(operation);
  return document.root;
}

class Document {
  constructor(public root: unknown) {}

  apply(operation: JsonObject): void {
    const kind = operation.op;
    switch (kind) {
      case 'add':
        return this.add(pathOf(operation, 'add'), valueOf(operation, 'add'));
      case 'remove':
        this.remove(pathOf(operation, 'remove'), 'remove');
        return;
      case 'replace':
        return this.replace(pathOf(operation, 'replace'), valueOf(operation, 'replace'));
      case 'move':
        return this.move(fromOf(operation, 'move'), pathOf(operation, 'move'));
      case 'copy':
        return this.copy(fromOf(operation, 'copy'), pathOf(operation, 'copy'));
      case 'test':
        return this.test(pathOf(operation, 'test'), valueOf(operation, 'test'));
      default:
        throw unprocessable(`Unexpected kind: ${typeof kind === 'string' ? kind : 'unknown'}`);
    }
  }

  private add(path: string, value: unknown): void {
    const tokens = parsePointer(path);
    if (tokens.length === 0) {
      this.root = value;
      return;
    }
    const { parent, key } = this.locateParent(tokens, path, 'add');
    if (Array.isArray(parent)) {
      const index = key === '-' ? parent.length : arrayIndex(key, parent.length + 1, path, 'add');
      parent.splice(index, 0, value);
    } else {
      parent[key] = value;
    }
  }

  private remove(path: string, operation: string): unknown {
    const tokens = parsePointer(path);
    if (tokens.length === 0) throw unprocessable(`${operation} operation does not apply: doc is missing path: "${path}": missing value`);
    const { parent, key } = this.locateParent(tokens, path, operation);
    if (Array.isArray(parent)) {
      const index = arrayIndex(key, parent.length, path, operation);
      return parent.splice(index, 1)[0];
    }
    if (!Object.hasOwn(parent, key)) {
      throw unprocessable(`error in ${operation} for path: '${path}': Unable to remove nonexistent key: ${key}: missing value`);
    }
    const removed = parent[key];
    delete parent[key];
    return removed;
  }

  private replace(path: string, value: unknown): void {
    const tokens = parsePointer(path);
    if (tokens.length === 0) {
      this.root = value;
      return;
    }
    const { parent, key } = this.locateParent(tokens, path, 'replace');
    if (Array.isArray(parent)) {
      parent[arrayIndex(key, parent.length, path, 'replace')] = value;
      return;
    }
    if (!Object.hasOwn(parent, key)) {
      throw unprocessable(`replace operation does not apply: doc is missing key: ${path}: missing value`);
    }
    parent[key] = value;
  }

  private move(from: string, path: string): void {
    if (path !== from && path.startsWith(`${from}/`)) {
      throw unprocessable(`move operation does not apply: "from" ${from} is a prefix of "path" ${path}`);
    }
    const value = this.get(from, 'move');
    if (from === path) return;
    this.remove(from, 'move');
    this.add(path, value);
  }

  private copy(from: string, path: string): void {
    this.add(path, cloneJson(this.get(from, 'copy')));
  }

  private test(path: string, expected: unknown): void {
    let actual: unknown;
    try {
      actual = this.get(path, 'test');
    } catch {
      throw unprocessable(`test operation does not apply: is missing path: ${path}: missing value`);
    }
    if (!deepEqual(actual, expected)) throw unprocessable(`testing value ${path} failed: test failed`);
  }

  private get(path: string, operation: string): unknown {
    let current = this.root;
    for (const token of parsePointer(path)) {
      if (Array.isArray(current)) {
        current = current[arrayIndex(token, current.length, path, operation)];
      } else if (isJsonObject(current) && Object.hasOwn(current, token)) {
        current = current[token];
      } else {
        throw unprocessable(`${operation} operation does not apply: doc is missing from path: ${path}: missing value`);
      }
    }
    return current;
  }

  /** The container that holds the last token of `tokens`, which must exist. */
  private locateParent(tokens: string[], path: string, operation: string): { parent: JsonObject | unknown[]; key: string } {
    let current = this.root;
    for (let i = 0; i < tokens.length - 1; i++) {
      const token = tokens[i];
      if (Array.isArray(current)) {
        current = current[arrayIndex(token, current.length, path, operation)];
      } else if (isJsonObject(current) && Object.hasOwn(current, token)) {
        current = current[token];
      } else {
        current = undefined;
        break;
      }
    }
    if (!Array.isArray(current) && !isJsonObject(current)) {
      throw unprocessable(`${operation} operation does not apply: doc is missing path: "${path}": missing value`);
    }
    return { parent: current, key: tokens[tokens.length - 1] };
  }
}

function pathOf(operation: JsonObject, kind: string): string {
  const path = operation.path;
  if (typeof path !== 'string') throw unprocessable(`${kind} operation failed to decode path: missing value`);
  return path;
}

function fromOf(operation: JsonObject, kind: string): string {
  const from = operation.from;
  if (typeof from !== 'string') throw unprocessable(`${kind} operation failed to decode from: missing value`);
  return from;
}

function valueOf(operation: JsonObject, kind: string): unknown {
  if (!Object.hasOwn(operation, 'value')) throw unprocessable(`${kind} operation has no value: missing value`);
  return cloneJson(operation.value);
}

/** RFC 6901 JSON pointer → reference tokens (`~1` is `/`, `~0` is `~`). */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw unprocessable(`JSON pointer must be empty or start with a "/": ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~[^01]|~$/.test(token)) throw unprocessable(`invalid JSON pointer escape in ${pointer}`);
      return token.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/** An array index token (no leading zeros, no sign) below `limit`. */
function arrayIndex(token: string, limit: number, path: string, operation: string): number {
  const index = /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : Number.NaN;
  if (!Number.isSafeInteger(index) || index >= limit) {
    throw unprocessable(`error in ${operation} for path: '${path}': Unable to access invalid index: ${token}: invalid index referenced`);
  }
  return index;
}

/** The JSON type name encoding/json puts in "cannot unmarshal X into Go value" errors. */
function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}
