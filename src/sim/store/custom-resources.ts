/** The ResourceInfo of a custom resource, keyed `<Kind>.<group>` so that it never meets a built-in kind. */
import type { KubeObject } from '../../core/k8s';
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

/**
 * A stored custom resource as a request for another served version sees it: with conversion
 * strategy None only apiVersion changes. Objects of built-in kinds and of the storage version are
 * returned as they are.
 */
export function inServedVersion<T extends KubeObject>(info: ResourceInfo, object: T): T {
  return info.custom && object.apiVersion !== info.apiVersion ? { ...object, apiVersion: info.apiVersion } : object;
}
