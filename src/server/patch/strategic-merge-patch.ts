/**
 * Kubernetes strategic merge patch, `Content-Type: application/strategic-merge-patch+json`: what
 * `kubectl apply` (client-side), `kubectl set image`, `rollout restart`, `kubectl patch` and
 * client-node's `KubernetesObjectApi.patch` send. A port of the apply half of
 * k8s.io/apimachinery pkg/util/strategicpatch (`StrategicMergeMapPatch` with
 * MergeParallelList and IgnoreUnmatchedNulls, as the API server calls it).
 *
 * Lists with the merge strategy merge element by element on their merge key; a `null` deletes
 * a field; directives steer the rest:
 * - `$patch: replace` (replace a map, or a whole list from inside it), `$patch: delete` (an
 *   element of a merging list, or a map);
 * - `$retainKeys: [...]` clears every field of the map not listed (Deployment strategy,
 *   volume sources);
 * - `$setElementOrder/<list>: [...]` fixes the order of a merging list;
 * - `$deleteFromPrimitiveList/<list>: [...]` removes scalars from a merging scalar list.
 *
 * Go iterates maps in random order; this port goes in the patch's key order. The API server
 * decodes the result into typed structs, which drops leftover directive keys: so does this.
 */
import type { ResourceKind } from '../../core/k8s';
import { badRequest, goFormat, goTypeName, unclassified, unprocessable } from './errors';
import { sliceStable } from './go-sort';
import { cloneJson, isJsonObject, type JsonObject } from '../../common/json';
import { lookupField, schemaFor, type PatchStrategyTag, type SchemaNode } from './strategic-schema';

const DIRECTIVE_MARKER = '$patch';
const DELETE_DIRECTIVE = 'delete';
const REPLACE_DIRECTIVE = 'replace';
const MERGE_DIRECTIVE = 'merge';
const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

/** mergepatch's sentinel errors, with the status the API server gives each. */
const errBadPatchFormatForPrimitiveList = () => badRequest('invalid patch format of primitive list');
const errBadPatchFormatForRetainKeys = () => badRequest('invalid patch format of retainKeys');
const errBadPatchFormatForSetElementOrderList = () => badRequest('invalid patch format of setElementOrder list');
const errNoListOfLists = () => unprocessable('lists of lists are not supported');
const errNoMergeKey = (map: unknown, key: string) => unclassified(`map: ${goFormat(map)} does not contain declared merge key: ${key}`);
const errBadArgType = (expected: string, actual: unknown) => unclassified(`expected a ${expected}, but received a ${goTypeName(actual)}`);
const errBadPatchType = (directive: unknown, map: unknown) => unclassified(`unknown patch type: ${goFormat(directive)} in map: ${goFormat(map)}`);

const MAP_TYPE = 'map[string]interface {}';
const SLICE_TYPE = '[]interface {}';

/**
 * Applies a strategic merge patch to an object of `kind` and returns the result; neither input
 * is modified. Throws a PatchError (an ApiError) with the status the API server would answer.
 */
export function applyStrategicMergePatch(target: unknown, patch: unknown, kind: ResourceKind): unknown {
  return strategicMergePatch(target, patch, schemaFor(kind));
}

/** The same, against any schema (tests use upstream's MergeItem test type). */
export function strategicMergePatch(target: unknown, patch: unknown, schema: SchemaNode): unknown {
  if (patch === null) return cloneJson(target);
  if (!isJsonObject(patch)) {
    throw badRequest(`json: cannot unmarshal ${jsonTypeName(patch)} into Go value of type map[string]interface {}`);
  }
  const original = isJsonObject(target) ? cloneJson(target) : {};
  const result = mergeMap(original, cloneJson(patch), schema);
  if (containsDirective(patch)) dropDirectiveKeys(result);
  return result;
}

function mergeMap(original: JsonObject | undefined, patch: JsonObject, schema: SchemaNode): JsonObject {
  if (Object.hasOwn(patch, DIRECTIVE_MARKER)) return handleDirectiveInMergeMap(patch[DIRECTIVE_MARKER], patch);
  const target = original ?? {};
  applyRetainKeysDirective(target, patch);
  mergePatchIntoOriginal(target, patch, schema);

  for (const [patchKey, patchValue] of Object.entries(patch)) {
    let key = patchKey;
    let isDeleteList = false;
    if (patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
      key = extractKey(patchKey, DELETE_FROM_PRIMITIVE_LIST_PREFIX);
      isDeleteList = true;
    }
    if (patchValue === null) {
      delete target[key];
      continue;
    }
    if (!Object.hasOwn(target, key) || goKind(target[key]) !== goKind(patchValue)) {
      if (!isDeleteList) {
        discardNullValuesFromPatch(patchValue);
        setOrDelete(target, key, removeDirectives(patchValue));
      }
      continue;
    }
    const field = lookupField(schema, key);
    const strategy = patchStrategyOf(field.meta.strategy);
    const current = target[key];
    if (isJsonObject(current) && isJsonObject(patchValue)) {
      target[key] = strategy === REPLACE_DIRECTIVE ? patchValue : mergeMap(current, patchValue, field.node);
    } else if (Array.isArray(current) && Array.isArray(patchValue)) {
      target[key] = mergeSliceHandler(current, patchValue, field.node, key, strategy, field.meta.mergeKey ?? '', isDeleteList);
    } else {
      setOrDelete(target, key, removeDirectives(patchValue));
    }
  }
  return target;
}

function handleDirectiveInMergeMap(directive: unknown, patch: JsonObject): JsonObject {
  if (directive === REPLACE_DIRECTIVE) {
    delete patch[DIRECTIVE_MARKER];
    return patch;
  }
  if (directive === DELETE_DIRECTIVE) return {};
  throw errBadPatchType(directive, patch);
}

/** `$retainKeys`: every field of `original` not listed goes; every field the patch sets must be listed. */
function applyRetainKeysDirective(original: JsonObject, patch: JsonObject): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const retainKeys = patch[RETAIN_KEYS_DIRECTIVE];
  delete patch[RETAIN_KEYS_DIRECTIVE];
  if (!Array.isArray(retainKeys)) throw errBadPatchFormatForRetainKeys();
  const retained = new Set<unknown>(retainKeys);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || key.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    if (!retained.has(key)) throw errBadPatchFormatForRetainKeys();
  }
  for (const key of Object.keys(original)) {
    if (!retained.has(key)) delete original[key];
  }
}

/**
 * `$setElementOrder/<list>`: merges the list now (with the patch's list of the same name) and
 * orders it: the directive's order first, server-only items kept where they were relative to
 * their neighbours.
 */
function mergePatchIntoOriginal(original: JsonObject, patch: JsonObject, schema: SchemaNode): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    const setElementOrder = patch[key];
    delete patch[key];
    if (!Array.isArray(setElementOrder)) throw errBadArgType(SLICE_TYPE, setElementOrder);
    const originalKey = extractKey(key, SET_ELEMENT_ORDER_PREFIX);
    const foundOriginal = Object.hasOwn(original, originalKey);
    const foundPatch = Object.hasOwn(patch, originalKey);
    const originalList = foundOriginal ? original[originalKey] : [];
    const patchList = foundPatch ? patch[originalKey] : [];
    if (!Array.isArray(originalList)) throw errBadArgType(SLICE_TYPE, originalList);
    if (!Array.isArray(patchList)) throw errBadArgType(SLICE_TYPE, patchList);

    const field = lookupField(schema, originalKey);
    const mergeKey = field.meta.mergeKey ?? '';
    validatePatchWithSetOrderList(patchList, setElementOrder, mergeKey);

    let merged: unknown[];
    if (foundOriginal && !foundPatch) {
      merged = originalList;
    } else if (!foundOriginal && foundPatch) {
      merged = removeDirectives(patchList) as unknown[];
    } else if (foundOriginal && foundPatch) {
      merged = mergeSliceHandler(originalList, patchList, field.node, originalKey, patchStrategyOf(field.meta.strategy), mergeKey, false);
    } else {
      continue;
    }

    const [patchItems, serverOnlyItems] =
      mergeKey === '' ? partitionPrimitivesByPresentInList(merged, setElementOrder) : partitionMapsByPresentInList(merged, setElementOrder, mergeKey);
    const kind = sliceElementKind(originalList, patchList);
    original[originalKey] = normalizeElementOrder(patchItems, serverOnlyItems, setElementOrder, originalList, mergeKey, kind);
    delete patch[originalKey];
  }
}

/** The items of the patch list (deletions aside) must appear in the `$setElementOrder` list, in the same order. */
function validatePatchWithSetOrderList(patchList: unknown[], setOrderList: unknown[], mergeKey: string): void {
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDeleteList = mergeKey === '' ? patchList : extractToDeleteItems(patchList)[0];
  let patchIndex = 0;
  let setOrderIndex = 0;
  while (patchIndex < nonDeleteList.length && setOrderIndex < setOrderList.length) {
    if (containsDirectiveMarker(nonDeleteList[patchIndex])) {
      patchIndex++;
      continue;
    }
    if (mergeKeyValueEqual(nonDeleteList[patchIndex], setOrderList[setOrderIndex], mergeKey)) patchIndex++;
    setOrderIndex++;
  }
  if (patchIndex < nonDeleteList.length && setOrderIndex >= setOrderList.length) {
    throw unclassified(
      `the order in patch list:\n${goFormat(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goFormat(setOrderList)}`,
    );
  }
}

function mergeSliceHandler(
  original: unknown[],
  patch: unknown[],
  schema: SchemaNode,
  fieldName: string,
  strategy: string,
  mergeKey: string,
  isDeleteList: boolean,
): unknown[] {
  if (strategy === MERGE_DIRECTIVE || isDeleteList) return mergeSlice(original, patch, schema, fieldName, mergeKey, isDeleteList);
  return patch;
}

function mergeSlice(original: unknown[], patch: unknown[], schema: SchemaNode, fieldName: string, mergeKey: string, isDeleteList: boolean): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind(original, patch);
  let merged: unknown[];
  if (kind !== 'map') {
    if (isDeleteList) return deleteFromSlice(original, patch);
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === '') throw unclassified(`cannot merge lists without merge key for ${fieldName}`);
    [original, patch] = mergeSliceWithSpecialElements(original, patch, mergeKey);
    merged = mergeSliceWithoutSpecialElements(original, patch, mergeKey, schema);
  }
  const [patchItems, serverOnlyItems] =
    mergeKey === '' ? partitionPrimitivesByPresentInList(merged, patch) : partitionMapsByPresentInList(merged, patch, mergeKey);
  return normalizeElementOrder(patchItems, serverOnlyItems, patch, original, mergeKey, kind);
}

/** Applies `$patch: delete` and `$patch: replace` elements; returns the new original and the rest of the patch. */
function mergeSliceWithSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const patchWithoutSpecialElements: unknown[] = [];
  let replace = false;
  for (const item of patch) {
    const map = item as JsonObject;
    if (!Object.hasOwn(map, DIRECTIVE_MARKER)) {
      patchWithoutSpecialElements.push(item);
      continue;
    }
    const directive = map[DIRECTIVE_MARKER];
    if (directive === DELETE_DIRECTIVE) {
      if (!Object.hasOwn(map, mergeKey)) throw errNoMergeKey(map, mergeKey);
      original = deleteMatchingEntries(original, mergeKey, map[mergeKey]);
    } else if (directive === REPLACE_DIRECTIVE) {
      replace = true;
    } else if (directive === MERGE_DIRECTIVE) {
      throw unclassified('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, map);
    }
  }
  return replace ? [patchWithoutSpecialElements, []] : [original, patchWithoutSpecialElements];
}

/** Every element whose merge key equals `mergeValue` goes (duplicates too). Elements are maps here. */
function deleteMatchingEntries(original: unknown[], mergeKey: string, mergeValue: unknown): unknown[] {
  return original.filter((item) => {
    const map = item as JsonObject;
    return !(Object.hasOwn(map, mergeKey) && map[mergeKey] === mergeValue);
  });
}

/** Merges each patch element into the original element with the same merge key, or appends it. */
function mergeSliceWithoutSpecialElements(original: unknown[], patch: unknown[], mergeKey: string, schema: SchemaNode): unknown[] {
  const result = original.slice();
  for (const item of patch) {
    const map = item as JsonObject;
    if (!Object.hasOwn(map, mergeKey)) throw errNoMergeKey(map, mergeKey);
    const found = findMapInSliceBasedOnKeyValue(result, mergeKey, map[mergeKey]);
    if (found) {
      result[found.index] = mergeMap(found.map, map, schema);
    } else {
      result.push(item);
    }
  }
  return result;
}

function deleteFromSlice(current: unknown[], toDelete: unknown[]): unknown[] {
  const deleted = new Set(toDelete);
  return current.filter((item) => !deleted.has(item));
}

/** The first map whose `key` equals `value`; errors when an element is not a map. */
function findMapInSliceBasedOnKeyValue(list: unknown[], key: string, value: unknown): { map: JsonObject; index: number } | undefined {
  for (let index = 0; index < list.length; index++) {
    const item = list[index];
    if (!isJsonObject(item)) throw unclassified(`value for key ${index} is not a map`);
    if (Object.hasOwn(item, key) && item[key] === value) return { map: item, index };
  }
  return undefined;
}

/** Go's in-place de-duplication, which moves the last element into each duplicate's slot. */
function deduplicateScalars(items: unknown[]): unknown[] {
  const s = items;
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (s[i] === s[j]) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

function partitionPrimitivesByPresentInList(list: unknown[], partitionBy: unknown[]): [unknown[], unknown[]] {
  const inPatch = new Set(partitionBy);
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const item of list) (inPatch.has(item) ? patch : serverOnly).push(item);
  return [patch, serverOnly];
}

function partitionMapsByPresentInList(list: unknown[], partitionBy: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const patch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const item of list) {
    if (!isJsonObject(item)) throw errBadArgType(MAP_TYPE, item);
    if (!Object.hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    (findMapInSliceBasedOnKeyValue(partitionBy, mergeKey, item[mergeKey]) ? patch : serverOnly).push(item);
  }
  return [patch, serverOnly];
}

/** Orders patch items by `patchOrder` and server-only items by `serverOrder`, then interleaves them. */
function normalizeElementOrder(
  patch: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: GoKind,
): unknown[] {
  const sortedPatch = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const sortedServerOnly = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(sortedServerOnly, sortedPatch, serverOrder, mergeKey, kind);
}

function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: GoKind): unknown[] {
  let sortable = toSort.slice();
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, sortable, order);
    [sortable, toDelete] = extractToDeleteItems(sortable);
  }
  sliceStable(sortable, (a, b) => {
    const ia = index(order, a, mergeKey, kind);
    if (ia >= 0) {
      const ib = index(order, b, mergeKey, kind);
      if (ib >= 0) return ia < ib;
    }
    return true;
  });
  return [...sortable, ...toDelete];
}

/**
 * Inserts the server-only items (`left`) among the patch items (`right`): a server-only item
 * goes first only when both are in the live list and it came first there.
 */
function mergeSortedSlice(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, kind: GoKind): unknown[] {
  const result: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) {
      result.push(right[j++]);
    } else if (j >= right.length) {
      result.push(left[i++]);
    } else {
      const li = index(serverOrder, left[i], mergeKey, kind);
      const ri = index(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) result.push(left[i++]);
      else result.push(right[j++]);
    }
  }
  return result;
}

/** Position of `value` in `list`, comparing merge-key values for maps and the items themselves otherwise. */
function index(list: unknown[], value: unknown, mergeKey: string, kind: GoKind): number {
  const keyOf = kind === 'map' ? (item: unknown) => (isJsonObject(item) ? item[mergeKey] : undefined) : (item: unknown) => item;
  const wanted = keyOf(value);
  for (let i = 0; i < list.length; i++) {
    if (keyOf(list[i]) === wanted) return i;
  }
  return -1;
}

function extractToDeleteItems(list: unknown[]): [unknown[], unknown[]] {
  const nonDelete: unknown[] = [];
  const toDelete: unknown[] = [];
  for (const item of list) {
    if (!isJsonObject(item)) throw errBadArgType(MAP_TYPE, item);
    (item[DIRECTIVE_MARKER] === DELETE_DIRECTIVE ? toDelete : nonDelete).push(item);
  }
  return [nonDelete, toDelete];
}

function validateMergeKeyInLists(mergeKey: string, ...lists: unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isJsonObject(item)) throw errBadArgType(MAP_TYPE, item);
      if (!Object.hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return left === right;
  if (!isJsonObject(left)) throw errBadArgType(MAP_TYPE, left);
  if (!isJsonObject(right)) throw errBadArgType(MAP_TYPE, right);
  if (!Object.hasOwn(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!Object.hasOwn(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return left[mergeKey] === right[mergeKey];
}

function containsDirectiveMarker(item: unknown): boolean {
  return isJsonObject(item) && Object.hasOwn(item, DIRECTIVE_MARKER);
}

/** `<prefix>/<key>` → `<key>`. */
function extractKey(directiveKey: string, prefix: string): string {
  const slash = directiveKey.indexOf('/');
  if (slash < 0 || directiveKey.slice(0, slash) !== prefix) {
    throw prefix === DELETE_FROM_PRIMITIVE_LIST_PREFIX ? errBadPatchFormatForPrimitiveList() : errBadPatchFormatForSetElementOrderList();
  }
  return directiveKey.slice(slash + 1);
}

/** The merge-relevant part of a patchStrategy tag (`retainKeys` only matters to patch generation). */
function patchStrategyOf(tag: PatchStrategyTag | undefined): string {
  switch (tag) {
    case undefined:
    case 'retainKeys':
      return '';
    case 'merge,retainKeys':
      return MERGE_DIRECTIVE;
    default:
      return tag;
  }
}

/** Go's reflect kind of a decoded JSON value: what decides whether two values merge or replace. */
type GoKind = 'map' | 'slice' | 'string' | 'int64' | 'float64' | 'bool' | 'nil';

function goKind(value: unknown): GoKind {
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return 'slice';
  switch (typeof value) {
    case 'object':
      return 'map';
    case 'number':
      return Number.isInteger(value) ? 'int64' : 'float64';
    case 'boolean':
      return 'bool';
    default:
      return 'string';
  }
}

/** The one element kind of all the lists' elements; lists of lists and mixed lists are errors. */
function sliceElementKind(...lists: unknown[][]): GoKind {
  let kind: GoKind | undefined;
  for (const list of lists) {
    for (const item of list) {
      const current = goKind(item);
      if (kind === undefined) {
        kind = current;
        if (kind === 'slice') throw errNoListOfLists();
      } else if (kind !== current) {
        throw unclassified(`list element types are not identical: ${goFormat(lists)}`);
      }
    }
  }
  if (kind === undefined) throw unclassified('no elements in any of the given slices');
  return kind;
}

/** Null fields of a value that is added whole mean nothing: drop them. */
function discardNullValuesFromPatch(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) discardNullValuesFromPatch(item);
  } else if (isJsonObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (item === null) delete value[key];
      else discardNullValuesFromPatch(item);
    }
  }
}

const DROP = Symbol('drop');

/** Removes `$patch` maps from a value added whole; DROP when the value itself is one. */
function removeDirectives(value: unknown): unknown {
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (const item of value) {
      const cleaned = removeDirectives(item);
      if (cleaned !== DROP) kept.push(cleaned);
    }
    return kept;
  }
  if (isJsonObject(value)) {
    if (Object.hasOwn(value, DIRECTIVE_MARKER)) return DROP;
    for (const [key, item] of Object.entries(value)) {
      const cleaned = removeDirectives(item);
      if (cleaned === DROP) delete value[key];
      else value[key] = cleaned;
    }
  }
  return value;
}

function setOrDelete(target: JsonObject, key: string, value: unknown): void {
  if (value === DROP) delete target[key];
  else target[key] = value;
}

function isDirectiveKey(key: string): boolean {
  return (
    key === DIRECTIVE_MARKER ||
    key === RETAIN_KEYS_DIRECTIVE ||
    key.startsWith(`${SET_ELEMENT_ORDER_PREFIX}/`) ||
    key.startsWith(`${DELETE_FROM_PRIMITIVE_LIST_PREFIX}/`)
  );
}

function containsDirective(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(containsDirective);
  if (!isJsonObject(value)) return false;
  return Object.entries(value).some(([key, item]) => isDirectiveKey(key) || containsDirective(item));
}

/** What typed decoding does to directive keys left in values that were added or replaced whole. */
function dropDirectiveKeys(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) dropDirectiveKeys(item);
  } else if (isJsonObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (isDirectiveKey(key)) delete value[key];
      else dropDirectiveKeys(item);
    }
  }
}

function jsonTypeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}
