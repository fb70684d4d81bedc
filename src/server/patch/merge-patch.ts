/**
 * JSON merge patch (RFC 7386), `Content-Type: application/merge-patch+json`: what `kubectl
 * label`, `annotate` and `scale` send. Objects merge recursively, `null` deletes a member, and
 * anything else (arrays included) replaces the target value.
 */
import { cloneJson, isJsonObject } from '../../common/json';

/**
 * Applies `patch` to `target` and returns the result, which shares nothing with either input
 * (neither is modified). A patch that is not an object replaces the whole document, so the
 * result may be an array, a scalar or null: callers patching API objects must check that it is
 * still an object.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  return mergeInto(cloneJson(target), patch);
}

/** Merges `patch` into `target`, which it owns and may modify. */
function mergeInto(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return cloneJson(patch);
  const result = isJsonObject(target) ? target : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) {
      delete result[name];
    } else {
      result[name] = mergeInto(result[name], value);
    }
  }
  return result;
}
