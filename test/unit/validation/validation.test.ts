import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { applyDefaults } from '../../../src/sim/store/defaults';
import { decodeCheck, invalidMessage, kubectlInvalidMessage, validate, validationError } from '../../../src/sim/apis/validation';
import type { ResourceKind } from '../../../src/core/k8s';

type Json = Record<string, unknown>;

const SUBDOMAIN_RULE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_RULE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const LABEL_VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function deployment(mutate: (spec: Json, container: Json) => void = () => undefined, name = 'bad'): KubeObject {
  const container: Json = { name: 'web', image: 'nginx:1.25' };
  const spec: Json = {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container] } },
  };
  mutate(spec, container);
  const object: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default' }, spec };
  applyDefaults('Deployment', object);
  return object;
}

function pod(spec: Json, name = 'p'): KubeObject {
  const object: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec };
  applyDefaults('Pod', object, { randomSuffix: () => 'abcde' });
  return object;
}

/** The Status message for a create (or an update when `old` is given). */
function message(kind: ResourceKind, object: KubeObject, old?: KubeObject): string | undefined {
  return validationError(kind, object, old)?.message;
}

describe('validation: Deployments', () => {
  it('accepts a minimal defaulted Deployment', () => {
    assert.deepEqual(validate('Deployment', deployment()), []);
  });

  it('rejects a template whose labels do not match the selector', () => {
    const object = deployment((spec) => ((spec.template as Json).metadata = { labels: { app: 'other' } }));
    assert.equal(message('Deployment', object), 'Deployment.apps "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`');
  });

  it('rejects an empty selector', () => {
    const object = deployment((spec) => (spec.selector = {}));
    assert.equal(
      message('Deployment', object),
      'Deployment.apps "bad" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
    );
  });

  it('reports a missing selector together with the template mismatch, as apps/v1 does', () => {
    const object = deployment((spec) => delete spec.selector);
    assert.equal(
      message('Deployment', object),
      'Deployment.apps "bad" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`]',
    );
  });

  it('matches selectors with expressions', () => {
    const matching = deployment((spec) => (spec.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] }));
    assert.deepEqual(validate('Deployment', matching), []);
    const notMatching = deployment((spec) => (spec.selector = { matchExpressions: [{ key: 'tier', operator: 'Exists' }] }));
    assert.equal(validate('Deployment', notMatching)[0]?.field, 'spec.template.metadata.labels');
  });

  it('requires containers', () => {
    const object = deployment((spec) => (((spec.template as Json).spec as Json).containers = []));
    assert.equal(message('Deployment', object), 'Deployment.apps "bad" is invalid: spec.template.spec.containers: Required value');
  });

  it('requires an image', () => {
    const object = deployment((_, container) => delete container.image);
    assert.equal(message('Deployment', object), 'Deployment.apps "bad" is invalid: spec.template.spec.containers[0].image: Required value');
  });

  it('rejects invalid and duplicate container names', () => {
    const invalidName = deployment((_, container) => (container.name = 'Web_1'));
    assert.equal(message('Deployment', invalidName), `Deployment.apps "bad" is invalid: spec.template.spec.containers[0].name: Invalid value: "Web_1": ${LABEL_RULE}`);
    const duplicated = deployment((spec) => (((spec.template as Json).spec as Json).containers = [{ name: 'web', image: 'a' }, { name: 'web', image: 'b' }]));
    assert.equal(message('Deployment', duplicated), 'Deployment.apps "bad" is invalid: spec.template.spec.containers[1].name: Duplicate value: "web"');
  });

  it('rejects negative replicas', () => {
    const object = deployment((spec) => (spec.replicas = -1));
    assert.equal(message('Deployment', object), 'Deployment.apps "bad" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  it('rejects requests above limits and negative quantities', () => {
    const overLimit = deployment((_, container) => (container.resources = { requests: { cpu: '1', memory: '256Mi' }, limits: { cpu: '500m', memory: '0.5Gi' } }));
    assert.equal(
      message('Deployment', overLimit),
      'Deployment.apps "bad" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m',
    );
    const negative = deployment((_, container) => (container.resources = { limits: { memory: '-1Gi' } }));
    assert.equal(
      message('Deployment', negative),
      'Deployment.apps "bad" is invalid: spec.template.spec.containers[0].resources.limits[memory]: Invalid value: "-1Gi": must be greater than or equal to 0',
    );
    const gpu = deployment((_, container) => (container.resources = { requests: { 'nvidia.com/gpu': '1' } }));
    assert.equal(
      message('Deployment', gpu),
      'Deployment.apps "bad" is invalid: spec.template.spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
    );
  });

  it('rejects resource names that are not container resources', () => {
    const object = deployment((_, container) => (container.resources = { limits: { cpus: '1' } }));
    assert.deepEqual(
      validate('Deployment', object).map((cause) => `${cause.field}: ${cause.message}`),
      [
        'spec.template.spec.containers[0].resources.limits[cpus]: Invalid value: "cpus": must be a standard resource type or fully qualified',
        'spec.template.spec.containers[0].resources.limits[cpus]: Invalid value: "cpus": must be a standard resource for containers',
      ],
    );
  });

  it('allows only restartPolicy Always in a Deployment template', () => {
    const object = deployment((spec) => (((spec.template as Json).spec as Json).restartPolicy = 'OnFailure'));
    assert.equal(message('Deployment', object), 'Deployment.apps "bad" is invalid: spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"');
  });

  it('rejects a rolling update that can make no progress', () => {
    const object = deployment((spec) => (spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } }));
    assert.equal(
      message('Deployment', object),
      'Deployment.apps "bad" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
    );
    const overHundred = deployment((spec) => (spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '150%' } }));
    assert.equal(
      message('Deployment', overHundred),
      'Deployment.apps "bad" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
    );
  });

  it('keeps the selector immutable on update', () => {
    const old = deployment();
    const updated = deployment((spec) => {
      spec.selector = { matchLabels: { app: 'v2' } };
      (spec.template as Json).metadata = { labels: { app: 'v2' } };
    });
    assert.equal(
      message('Deployment', updated, old),
      'Deployment.apps "bad" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"v2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
    const scaled = deployment((spec) => (spec.replicas = 5));
    assert.deepEqual(validate('Deployment', scaled, old), []);
  });

  it('joins several causes in brackets and builds a full 422 status', () => {
    const object = deployment((spec, container) => {
      spec.replicas = -2;
      delete container.image;
    }, 'HelloWorld');
    const error = validationError('Deployment', object, undefined);
    assert.equal(
      error?.message,
      `Deployment.apps "HelloWorld" is invalid: [metadata.name: Invalid value: "HelloWorld": ${SUBDOMAIN_RULE}, spec.replicas: Invalid value: -2: must be greater than or equal to 0, spec.template.spec.containers[0].image: Required value]`,
    );
    assert.equal(error?.code, 422);
    assert.equal(error?.reason, 'Invalid');
    assert.deepEqual(error?.details, {
      name: 'HelloWorld',
      group: 'apps',
      kind: 'Deployment',
      causes: [
        { reason: 'FieldValueInvalid', message: `Invalid value: "HelloWorld": ${SUBDOMAIN_RULE}`, field: 'metadata.name' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: -2: must be greater than or equal to 0', field: 'spec.replicas' },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.template.spec.containers[0].image' },
      ],
    });
  });
});

describe('validation: metadata', () => {
  it('requires a name', () => {
    const object = pod({ containers: [{ name: 'a', image: 'a' }] }, '');
    assert.equal(message('Pod', object), 'Pod "" is invalid: metadata.name: Required value: name or generateName is required');
  });

  it('checks generateName as a prefix', () => {
    const object = pod({ containers: [{ name: 'a', image: 'a' }] }, 'web-5d567cc74c-abcde');
    object.metadata!.generateName = 'web-5d567cc74c-';
    assert.deepEqual(validate('Pod', object), []);
    object.metadata!.generateName = 'Web-';
    assert.equal(validate('Pod', object)[0]?.message, `Invalid value: "Web-": ${SUBDOMAIN_RULE}`);
  });

  it('names namespaces with DNS labels', () => {
    const namespace: KubeObject = { metadata: { name: 'team.a' } };
    assert.equal(message('Namespace', namespace), 'Namespace "team.a" is invalid: metadata.name: Invalid value: "team.a": must not contain dots');
  });

  it('checks label keys and values', () => {
    const object = deployment();
    object.metadata!.labels = { 'a/b/c': 'x', app: '-bad' };
    assert.deepEqual(
      validate('Deployment', object).map((cause) => `${cause.field}: ${cause.message}`),
      [
        "metadata.labels: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
        `metadata.labels: Invalid value: "-bad": ${LABEL_VALUE_RULE}`,
      ],
    );
    const longPrefix = deployment();
    longPrefix.metadata!.labels = { 'Example.com/app': 'x' };
    assert.equal(validate('Deployment', longPrefix)[0]?.message, `Invalid value: "Example.com/app": prefix part ${SUBDOMAIN_RULE}`);
  });

  it('checks template labels under spec.template.labels', () => {
    const object = deployment((spec) => {
      spec.selector = { matchLabels: { app: 'web' } };
      (spec.template as Json).metadata = { labels: { app: 'web', 'bad key': 'x' } };
    });
    assert.equal(validate('Deployment', object)[0]?.field, 'spec.template.labels');
  });
});

describe('validation: pods', () => {
  it('accepts a defaulted pod and rejects a bad one', () => {
    assert.deepEqual(validate('Pod', pod({ containers: [{ name: 'a', image: 'nginx', ports: [{ containerPort: 80 }] }] })), []);
    const bad = pod({ containers: [{ name: 'a', image: ' nginx', ports: [{ containerPort: 70000, protocol: 'HTTP' }] }] });
    assert.deepEqual(
      validate('Pod', bad).map((cause) => `${cause.field}: ${cause.message}`),
      [
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
        'spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace',
      ],
    );
  });

  it('allows an image change on update', () => {
    const old = pod({ containers: [{ name: 'a', image: 'nginx:1.25' }] });
    const updated = structuredClone(old);
    ((updated.spec as Json).containers as Json[])[0].image = 'nginx:1.26';
    assert.deepEqual(validate('Pod', updated, old), []);
  });

  it('forbids other pod spec changes with the upstream message', () => {
    const old = pod({ containers: [{ name: 'a', image: 'nginx', ports: [{ containerPort: 80 }] }] });
    const updated = structuredClone(old);
    (((updated.spec as Json).containers as Json[])[0].ports as Json[])[0].containerPort = 81;
    const causes = validate('Pod', updated, old);
    assert.equal(causes.length, 1);
    assert.equal(causes[0].field, 'spec');
    assert.equal(causes[0].reason, 'FieldValueForbidden');
    const [summary, ...diff] = causes[0].message.split('\n');
    assert.equal(
      summary,
      'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    );
    assert.equal(diff[0], '  core.PodSpec{');
    assert.ok(diff.some((line) => line.startsWith('- \tContainers:') && line.includes('ContainerPort: 80')));
    assert.ok(diff.some((line) => line.startsWith('+ \tContainers:') && line.includes('ContainerPort: 81')));
  });

  it('forbids adding containers and changing tolerations, allows adding tolerations', () => {
    const old = pod({ containers: [{ name: 'a', image: 'a' }] });
    const more = structuredClone(old);
    ((more.spec as Json).containers as Json[]).push({ name: 'b', image: 'b', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' });
    assert.equal(message('Pod', more, old), 'Pod "p" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers');
    const added = structuredClone(old);
    ((added.spec as Json).tolerations as Json[]).push({ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' });
    assert.deepEqual(validate('Pod', added, old), []);
    const changed = structuredClone(old);
    ((changed.spec as Json).tolerations as Json[])[0].key = 'other';
    assert.equal(message('Pod', changed, old), 'Pod "p" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds');
  });

  it('allows removing scheduling gates and forbids adding one (validateOnlyDeletedSchedulingGates)', () => {
    const old = pod({ containers: [{ name: 'a', image: 'a' }], schedulingGates: [{ name: 'example.com/foo' }, { name: 'example.com/bar' }] });
    const fewer = structuredClone(old);
    (fewer.spec as Json).schedulingGates = [{ name: 'example.com/bar' }];
    assert.deepEqual(validate('Pod', fewer, old), []);
    const none = structuredClone(old);
    delete (none.spec as Json).schedulingGates;
    assert.deepEqual(validate('Pod', none, old), []);
    const more = structuredClone(old);
    ((more.spec as Json).schedulingGates as Json[]).push({ name: 'example.com/baz' });
    assert.equal(message('Pod', more, old), "Pod \"p\" is invalid: spec.schedulingGates[2].name: Forbidden: only deletion is allowed, but found new scheduling gate 'example.com/baz'");
  });

  it('validates tolerations and restart policies', () => {
    const object = pod({ restartPolicy: 'Sometimes', containers: [{ name: 'a', image: 'a' }], tolerations: [{ key: 'k', operator: 'Exists', value: 'v', effect: 'NoSchedule' }] });
    assert.deepEqual(
      validate('Pod', object).map((cause) => `${cause.field}: ${cause.message}`),
      [
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        'spec.tolerations[0].operator: Invalid value: core.Toleration{Key:"k", Operator:"Exists", Value:"v", Effect:"NoSchedule", TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is \'Exists\'',
      ],
    );
  });

  it('validates volume mounts against volumes', () => {
    const object = pod({ containers: [{ name: 'a', image: 'a', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] });
    assert.equal(message('Pod', object), 'Pod "p" is invalid: spec.containers[0].volumeMounts[0].name: Not found: "data"');
  });

  it('validates 10,000 pods quickly', () => {
    const pods = Array.from({ length: 10_000 }, (_, i) => pod({ containers: [{ name: 'web', image: 'nginx:1.25', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] }, `web-${i}`));
    const start = performance.now();
    let causes = 0;
    for (const object of pods) causes += validate('Pod', object).length;
    assert.equal(causes, 0);
    assert.ok(performance.now() - start < 2000, 'validating 10,000 pods took more than 2 s');
  });
});

describe('validation: config maps and nodes', () => {
  it('checks config map keys and immutability', () => {
    const configMap: KubeObject = { metadata: { name: 'c', namespace: 'default' }, data: { 'bad key': 'x' } };
    assert.equal(
      message('ConfigMap', configMap),
      `ConfigMap "c" is invalid: data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    );
    const frozen: KubeObject = { metadata: { name: 'c', namespace: 'default' }, immutable: true, data: { a: '1' } };
    const changed: KubeObject = { metadata: { name: 'c', namespace: 'default' }, immutable: true, data: { a: '2' } };
    assert.equal(message('ConfigMap', changed, frozen), 'ConfigMap "c" is invalid: data: Forbidden: field is immutable when `immutable` is set');
  });

  it('checks node taints (under metadata.taints, as upstream reports them)', () => {
    const node: KubeObject = { metadata: { name: 'n1' }, spec: { taints: [{ key: 'gpu', effect: 'NoRun' }] } };
    assert.equal(message('Node', node), 'Node "n1" is invalid: metadata.taints[0].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"');
  });
});

describe('validation: messages and decoding', () => {
  const causes = [
    { field: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' },
    { field: 'spec.template.spec.containers', message: 'Required value' },
  ];

  it('prints kubectl\'s form of an Invalid error', () => {
    assert.equal(kubectlInvalidMessage('Deployment', 'web', causes.slice(0, 1)), 'The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    assert.equal(
      kubectlInvalidMessage('Deployment', 'web', causes),
      'The Deployment "web" is invalid: \n* spec.replicas: Invalid value: -1: must be greater than or equal to 0\n* spec.template.spec.containers: Required value',
    );
  });

  it('deduplicates repeated causes like utilerrors.Aggregate', () => {
    assert.equal(invalidMessage('Pod', 'p', [causes[1], causes[1]]), 'Pod "p" is invalid: spec.template.spec.containers: Required value');
  });

  it('answers 400 for unknown fields under Strict, warns under Warn', () => {
    const object: KubeObject = { metadata: { name: 'web' }, spec: { replica: 3 } };
    const strict = decodeCheck('Deployment', object);
    assert.equal(strict.error?.code, 400);
    assert.equal(strict.error?.reason, 'BadRequest');
    assert.equal(strict.error?.message, 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"');
    assert.deepEqual(decodeCheck('Deployment', object, 'Warn'), { warnings: ['unknown field "spec.replica"'] });
    assert.deepEqual(decodeCheck('Deployment', object, 'Ignore'), { warnings: [] });
  });

  it('answers 400 for an unparseable quantity in every mode', () => {
    const object: KubeObject = { metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'a', resources: { limits: { memory: '1Gb' } } }] } };
    assert.equal(
      decodeCheck('Pod', object, 'Ignore').error?.message,
      "Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  });
});
