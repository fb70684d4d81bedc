/** The ResourceInfo of a custom resource, keyed `<Kind>.<group>` so that it never meets a built-in kind. */
import type { CustomResourceInfo } from '../apis/apiextensions/crd';
import type { CustomKindKey, ResourceInfo } from './types';

export type CustomTableInfo = ResourceInfo & { key: CustomKindKey; custom: CustomResourceInfo };

export function customKindKey(kind: string, group: string): CustomKindKey {
  return `${kind}.${group}`;
}

export function customTableInfo(custom: CustomResourceInfo): CustomTableInfo {
  return {
    key: customKindKey(custom.kind, custom.group),
    kind: custom.kind,
    plural: custom.plural,
    singular: custom.singular,
    group: custom.group,
    version: custom.version,
    apiVersion: custom.apiVersion,
    namespaced: custom.namespaced,
    shortNames: custom.shortNames,
    hasStatus: custom.hasStatus,
    hasScale: custom.scale !== undefined,
    custom,
  };
}
