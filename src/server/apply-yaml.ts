/**
 * Reading a server-side apply body (handlers/patch.go applyPatcher): YAML (JSON is YAML) into a
 * map, where a repeated key keeps its last value; then, under `fieldValidation` Strict or Warn,
 * the strict YAML decoder's complaint about each repeated key, as go-yaml words it:
 * `line 10: key "paused" already set in map`.
 */
import { isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { goQuote } from '../core/schema/go-format';
import { ApiError } from '../sim/store/types';

export interface AppliedConfiguration {
  value: unknown;
  /** go-yaml's strict errors, one per repeated key, in document order. */
  duplicateKeys: string[];
}

export function readApplyConfiguration(text: string): AppliedConfiguration {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { uniqueKeys: false, lineCounter });
  if (document.errors.length > 0) throw new ApiError(400, 'BadRequest', `error decoding YAML: ${document.errors[0].message}`);
  const duplicateKeys: string[] = [];
  visit(document, {
    Map(_key, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const name = String(pair.key.value);
        if (seen.has(name)) {
          const line = pair.key.range ? lineCounter.linePos(pair.key.range[0]).line : 0;
          duplicateKeys.push(`line ${line}: key ${goQuote(name)} already set in map`);
        }
        seen.add(name);
      }
    },
  });
  return { value: document.contents ? document.toJS() : undefined, duplicateKeys };
}

/** The 400 of a repeated key under `fieldValidation=Strict`. */
export function strictYamlError(duplicateKeys: readonly string[]): ApiError {
  return new ApiError(400, 'BadRequest', `error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n${duplicateKeys.map((error) => `  ${error}`).join('\n')}`);
}
