/** The three PATCH content types the API server accepts besides server-side apply. */
export { applyMergePatch } from './merge-patch';
export { applyJsonPatch, type JsonPatchOperation } from './json-patch';
export { applyStrategicMergePatch, strategicMergePatch } from './strategic-merge-patch';
export { PATCH_STRATEGIES, compileSchema, schemaFor, type PatchMeta, type PatchStrategyTable, type SchemaNode } from './strategic-schema';
export { PatchError } from './errors';
