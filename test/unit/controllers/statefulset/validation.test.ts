import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/k8s';
import { validationError } from '../../../../src/sim/apis/validation';
import { applyDefaults } from '../../../../src/sim/store/defaults';
import { WWW_CLAIM_TEMPLATE } from './sts-harness';

type Json = Record<string, unknown>;

function statefulSet(mutate: (spec: Json) => void = () => undefined, defaults = true): KubeObject {
  const spec: Json = {
    serviceName: 'nginx',
    selector: { matchLabels: { app: 'nginx' } },
    template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
  };
  mutate(spec);
  const object: KubeObject = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'default' }, spec };
  if (defaults) applyDefaults('StatefulSet', object);
  return object;
}

function message(object: KubeObject, old?: KubeObject): string | undefined {
  return validationError('StatefulSet', object, old)?.message;
}

describe('StatefulSet defaults and validation', () => {
  it('defaults as SetDefaults_StatefulSet does, with the template and claim templates defaulted too', () => {
    const object = statefulSet((spec) => {
      spec.volumeClaimTemplates = [structuredClone(WWW_CLAIM_TEMPLATE)];
    });
    const spec = object.spec as Json;
    assert.equal(spec.podManagementPolicy, 'OrderedReady');
    assert.deepEqual(spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    assert.deepEqual(spec.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
    assert.equal(spec.replicas, 1);
    assert.equal(spec.revisionHistoryLimit, 10);
    assert.equal(((spec.template as Json).spec as Json).restartPolicy, 'Always');
    const claim = (spec.volumeClaimTemplates as Json[])[0];
    assert.equal((claim.spec as Json).volumeMode, 'Filesystem');
    assert.deepEqual(claim.status, { phase: 'Pending' });
    assert.equal(message(object), undefined);
  });

  it('keeps an OnDelete strategy without a rollingUpdate', () => {
    const object = statefulSet((spec) => {
      spec.updateStrategy = { type: 'OnDelete' };
    });
    assert.deepEqual((object.spec as Json).updateStrategy, { type: 'OnDelete' });
    assert.equal(message(object), undefined);
  });

  it('requires a selector, and the selector to match the template labels', () => {
    assert.equal(
      message(statefulSet((spec) => delete spec.selector)),
      'StatefulSet.apps "web" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string{"app":"nginx"}: `selector` does not match template `labels`]',
    );
    assert.equal(
      message(statefulSet((spec) => (spec.selector = { matchLabels: { app: 'other' } }))),
      'StatefulSet.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"nginx"}: `selector` does not match template `labels`',
    );
    assert.match(message(statefulSet((spec) => (spec.selector = {})))!, /spec\.selector: Invalid value: v1\.LabelSelector\{.*\}: empty selector is invalid for statefulset/);
  });

  it('accepts only restartPolicy Always and no activeDeadlineSeconds', () => {
    const bad = statefulSet((spec) => {
      ((spec.template as Json).spec as Json).restartPolicy = 'OnFailure';
      ((spec.template as Json).spec as Json).activeDeadlineSeconds = 10;
    });
    assert.equal(
      message(bad),
      'StatefulSet.apps "web" is invalid: [spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always", spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported]',
    );
  });

  it('checks podManagementPolicy, updateStrategy, the partition, replicas, ordinals and the retention policy', () => {
    assert.equal(message(statefulSet((spec) => (spec.podManagementPolicy = 'Burst'))), 'StatefulSet.apps "web" is invalid: spec.podManagementPolicy: Invalid value: "Burst": must be \'OrderedReady\' or \'Parallel\'');
    assert.equal(
      message(statefulSet((spec) => (spec.updateStrategy = { type: 'Recreate' }))),
      'StatefulSet.apps "web" is invalid: spec.updateStrategy: Invalid value: apps.StatefulSetUpdateStrategy{Type:"Recreate", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be \'RollingUpdate\' or \'OnDelete\'',
    );
    assert.equal(
      message(statefulSet((spec) => (spec.updateStrategy = { type: 'OnDelete', rollingUpdate: { partition: 1 } }))),
      'StatefulSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:1, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy \'RollingUpdate\'',
    );
    assert.equal(
      message(statefulSet((spec) => (spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: -1 } }))),
      'StatefulSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0',
    );
    assert.equal(message(statefulSet((spec) => (spec.replicas = -2))), 'StatefulSet.apps "web" is invalid: spec.replicas: Invalid value: -2: must be greater than or equal to 0');
    assert.equal(message(statefulSet((spec) => (spec.ordinals = { start: -1 }))), 'StatefulSet.apps "web" is invalid: spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0');
    assert.equal(
      message(statefulSet((spec) => (spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Keep', whenScaled: 'Delete' }))),
      'StatefulSet.apps "web" is invalid: spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"',
    );
  });

  it('forbids updates to spec fields other than the mutable ones', () => {
    const old = statefulSet();
    const scaled = statefulSet((spec) => {
      spec.replicas = 5;
      spec.minReadySeconds = 3;
      spec.updateStrategy = { type: 'OnDelete' };
      spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete', whenScaled: 'Delete' };
      ((spec.template as Json).spec as Json).containers = [{ name: 'nginx', image: 'nginx:1.26' }];
    });
    assert.equal(message(scaled, old), undefined);
    const renamedService = statefulSet((spec) => (spec.serviceName = 'other'));
    assert.equal(
      message(renamedService, old),
      "StatefulSet.apps \"web\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    );
    const withClaims = statefulSet((spec) => (spec.volumeClaimTemplates = [structuredClone(WWW_CLAIM_TEMPLATE)]));
    assert.match(message(withClaims, old) ?? '', /spec: Forbidden: updates to statefulset spec/);
  });
});
