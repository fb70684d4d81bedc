/**
 * The scale subresource of a custom resource (apiextensions-apiserver's scale registry): the
 * replicas and selector are read from the paths the CRD's `subresources.scale` names.
 */
import type { KubeObject } from '../core/k8s';
import type { CustomResourceInfo } from '../sim/apis/apiextensions/crd';
import { evaluateJsonPath } from './printers/custom-resource';

type ScalePaths = NonNullable<CustomResourceInfo['scale']>;

function numberAt(path: string, object: KubeObject): number {
  const found = evaluateJsonPath(path, object)[0];
  return typeof found === 'number' ? found : 0;
}

export function customResourceScale(paths: ScalePaths, object: KubeObject): KubeObject {
  const meta = object.metadata ?? {};
  const selector = paths.labelSelectorPath ? evaluateJsonPath(paths.labelSelectorPath, object)[0] : undefined;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion, creationTimestamp: meta.creationTimestamp },
    spec: { replicas: numberAt(paths.specReplicasPath, object) },
    status: { replicas: numberAt(paths.statusReplicasPath, object), ...(typeof selector === 'string' ? { selector } : {}) },
  };
}

/** Writes `replicas` at the CRD's specReplicasPath (a dotted path under `.spec`), creating the objects on the way. */
export function setSpecReplicas(paths: ScalePaths, object: KubeObject, replicas: number): void {
  const fields = paths.specReplicasPath.replace(/^\./, '').split('.');
  let at = object as Record<string, unknown>;
  for (const field of fields.slice(0, -1)) {
    if (typeof at[field] !== 'object' || at[field] === null) at[field] = {};
    at = at[field] as Record<string, unknown>;
  }
  at[fields[fields.length - 1]] = replicas;
}
