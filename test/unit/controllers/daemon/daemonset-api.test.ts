import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/core/k8s';
import { validationError } from '../../../../src/sim/apis/validation';
import { applyDefaults } from '../../../../src/sim/store/defaults';
import { Simulator } from '../../../../src/sim/simulator';
import { daemonSet } from './fixtures';

type Json = Record<string, unknown>;

function defaulted(mutate: (spec: Json, podSpec: Json) => void = () => undefined): KubeObject {
  const object = daemonSet('bad', mutate) as KubeObject;
  applyDefaults('DaemonSet', object);
  return object;
}

function message(object: KubeObject, old?: KubeObject): string | undefined {
  return validationError('DaemonSet', object, old)?.message;
}

describe('DaemonSet defaults (SetDefaults_DaemonSet)', () => {
  it('defaults the update strategy, the history limit and the pod template', () => {
    const object = defaulted();
    const spec = object.spec as Json;
    assert.deepEqual(spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    assert.equal(spec.revisionHistoryLimit, 10);
    const podSpec = (spec.template as Json).spec as Json;
    assert.equal(podSpec.restartPolicy, 'Always');
    assert.equal(podSpec.schedulerName, 'default-scheduler');
    assert.equal(object.metadata?.annotations?.['deprecated.daemonset.template.generation'], '1');
  });

  it('leaves OnDelete without a rollingUpdate', () => {
    const object = defaulted((spec) => (spec.updateStrategy = { type: 'OnDelete' }));
    assert.deepEqual((object.spec as Json).updateStrategy, { type: 'OnDelete' });
  });

  it('counts the template generation up only when the template changes', () => {
    const simulator = new Simulator({ nodes: 0 });
    simulator.apply(daemonSet('agent'));
    simulator.store.mutate('DaemonSet', 'default', 'agent', (copy) => ((copy.spec as Json).minReadySeconds = 5), { fieldManager: 'kubectl' });
    const afterSpec = simulator.store.read('DaemonSet', 'default', 'agent');
    assert.equal(afterSpec.metadata?.annotations?.['deprecated.daemonset.template.generation'], '1');
    assert.equal(afterSpec.metadata?.generation, 2);
    simulator.store.mutate('DaemonSet', 'default', 'agent', (copy) => (((copy.spec as Json).template as Json).metadata = { labels: { app: 'agent', tier: 'node' } }), { fieldManager: 'kubectl' });
    const afterTemplate = simulator.store.read('DaemonSet', 'default', 'agent');
    assert.equal(afterTemplate.metadata?.annotations?.['deprecated.daemonset.template.generation'], '2');
    assert.equal(afterTemplate.metadata?.generation, 3);
  });
});

describe('DaemonSet validation (ValidateDaemonSet)', () => {
  it('accepts a defaulted DaemonSet', () => {
    assert.equal(message(defaulted()), undefined);
  });

  it('rejects a template whose labels do not match the selector, and a missing selector', () => {
    assert.equal(
      message(defaulted((spec) => ((spec.template as Json).metadata = { labels: { app: 'other' } }))),
      'DaemonSet.apps "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
    );
    assert.equal(
      message(defaulted((spec) => delete spec.selector)),
      'DaemonSet.apps "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"bad"}: `selector` does not match template `labels`',
    );
  });

  it('rejects an empty selector', () => {
    assert.equal(
      message(defaulted((spec) => (spec.selector = {}))),
      'DaemonSet.apps "bad" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset',
    );
  });

  it('requires restartPolicy Always', () => {
    assert.equal(message(defaulted((_spec, podSpec) => (podSpec.restartPolicy = 'OnFailure'))), 'DaemonSet.apps "bad" is invalid: spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"');
  });

  it('requires exactly one of maxUnavailable and maxSurge to be non-zero', () => {
    assert.equal(
      message(defaulted((spec) => (spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } }))),
      'DaemonSet.apps "bad" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    );
    assert.equal(
      message(defaulted((spec) => (spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '10%' } }))),
      'DaemonSet.apps "bad" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"10%"}: may not be set when maxUnavailable is non-zero',
    );
    assert.equal(message(defaulted((spec) => (spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } }))), undefined);
  });

  it('rejects percentages above 100% and unknown strategy types', () => {
    assert.equal(
      message(defaulted((spec) => (spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%', maxSurge: 0 } }))),
      'DaemonSet.apps "bad" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
    );
    assert.equal(
      message(defaulted((spec) => (spec.updateStrategy = { type: 'Recreate' }))),
      'DaemonSet.apps "bad" is invalid: spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Recreate", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"',
    );
  });

  it('keeps the selector immutable', () => {
    const simulator = new Simulator({ nodes: 0 });
    simulator.apply(daemonSet('agent'));
    assert.throws(
      () =>
        simulator.store.mutate('DaemonSet', 'default', 'agent', (copy) => {
          const spec = copy.spec as Json;
          spec.selector = { matchLabels: { app: 'agent', tier: 'node' } };
          (spec.template as Json).metadata = { labels: { app: 'agent', tier: 'node' } };
        }),
      /DaemonSet.apps "agent" is invalid: spec.selector: Invalid value: v1.LabelSelector\{MatchLabels:map\[string\]string\{"app":"agent", "tier":"node"\}, MatchExpressions:\[\]v1.LabelSelectorRequirement\(nil\)\}: field is immutable/,
    );
  });
});
