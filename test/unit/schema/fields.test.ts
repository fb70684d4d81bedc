import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { KubeObject } from '../../../src/core/k8s';
import { fieldAt, fieldsAt, inspectDecoding, schemaSource, strictDecodingMessage, unknownFields } from '../../../src/core/schema/fields';

const QUANTITY_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

function deployment(spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec };
}

describe('schema: field lookup', () => {
  it('was generated from the installed kubernetes-types version', () => {
    const manifest = createRequire(__filename).resolve('kubernetes-types/package.json');
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    assert.equal(schemaSource, `kubernetes-types ${version}`);
  });

  it('describes spec.replicas of a Deployment', () => {
    const info = fieldAt('Deployment', ['spec', 'replicas']);
    assert.deepEqual(info, {
      path: 'spec.replicas',
      description: 'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.',
      type: { kind: 'scalar', name: 'integer' },
      typeName: 'integer',
      required: false,
    });
  });

  it('resolves through arrays, with numeric segments as strings or numbers', () => {
    for (const index of ['0', 0]) {
      const info = fieldAt('Deployment', ['spec', 'template', 'spec', 'containers', index, 'image']);
      assert.equal(info?.path, 'spec.template.spec.containers[0].image');
      assert.equal(info?.typeName, 'string');
      assert.match(info?.description ?? '', /^Container image name\. More info: https:\/\/kubernetes\.io\/docs\/concepts\/containers\/images/);
    }
    assert.equal(fieldAt('Deployment', ['spec', 'template', 'spec', 'containers'])?.typeName, '[]Container');
    assert.equal(fieldAt('Deployment', ['spec', 'template', 'spec', 'containers', 3])?.typeName, 'Container');
  });

  it('resolves map values and names special scalars', () => {
    const label = fieldAt('Pod', ['metadata', 'labels', 'app']);
    assert.equal(label?.path, 'metadata.labels[app]');
    assert.deepEqual(label?.type, { kind: 'scalar', name: 'string' });
    assert.equal(fieldAt('Pod', ['spec', 'containers', 0, 'resources', 'limits'])?.typeName, 'map[string]Quantity');
    assert.equal(fieldAt('Deployment', ['spec', 'strategy', 'rollingUpdate', 'maxSurge'])?.typeName, 'IntOrString');
    assert.equal(fieldAt('Pod', ['metadata', 'creationTimestamp'])?.typeName, 'Time');
  });

  it('gives the kind itself for an empty path', () => {
    const info = fieldAt('Pod', []);
    assert.equal(info?.typeName, 'Pod');
    assert.match(info?.description ?? '', /^Pod is a collection of containers/);
  });

  it('returns undefined off the schema', () => {
    assert.equal(fieldAt('Deployment', ['spec', 'replica']), undefined);
    assert.equal(fieldAt('Deployment', ['spec', 'replicas', 'x']), undefined);
    assert.equal(fieldAt('Pod', ['spec', 'containers', 'name']), undefined);
    assert.equal(fieldAt('CertificateSigningRequest', ['spec']), undefined);
  });

  it('lists the fields of an object for completion, with required flags', () => {
    const fields = fieldsAt('Pod', ['spec', 'containers']);
    const name = fields.find((f) => f.name === 'name');
    assert.equal(name?.required, true);
    assert.equal(fields.find((f) => f.name === 'image')?.required, false);
    assert.ok(fields.some((f) => f.name === 'livenessProbe' && f.typeName === 'Probe'));
    assert.deepEqual(fieldsAt('Pod', ['spec', 'nodeName']), []);
  });
});

describe('schema: unknown fields (fieldValidation=Strict)', () => {
  it('accepts a correct object', () => {
    const object = deployment({ replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] } } });
    assert.deepEqual(unknownFields('Deployment', object), []);
  });

  it('finds nested unknown fields and ones inside arrays, in document order', () => {
    const object = deployment({
      replica: 3,
      template: {
        metadata: { labels: { app: 'web' }, label: {} },
        spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', imagee: 'y', ports: [{ containerPort: 80, hostport: 8080 }] }] },
      },
    });
    assert.deepEqual(unknownFields('Deployment', object), [
      'spec.replica',
      'spec.template.metadata.label',
      'spec.template.spec.containers[1].imagee',
      'spec.template.spec.containers[1].ports[0].hostport',
    ]);
  });

  it('finds unknown top-level fields and leaves free-form fields alone', () => {
    const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields: [{ fieldsV1: { 'f:data': { 'f:a': {} } } }] }, data: { a: 'b' }, spec: {} };
    assert.deepEqual(unknownFields('ConfigMap', object), ['spec']);
  });

  it('builds the strict decoding message with every unknown field', () => {
    assert.equal(
      strictDecodingMessage('Deployment', ['spec.replica']),
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"',
    );
    assert.equal(
      strictDecodingMessage('Pod', ['spec.containers[0].imagee', 'spec.foo']),
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].imagee", unknown field "spec.foo"',
    );
  });
});

describe('schema: values that cannot be decoded', () => {
  it('reports a wrong JSON type the way encoding/json does', () => {
    assert.equal(
      inspectDecoding('Deployment', deployment({ replicas: '3' })).error,
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    const numericLabel = { metadata: { name: 'p', labels: { version: 1 } }, spec: { containers: [] } };
    assert.equal(inspectDecoding('Pod', numericLabel).error, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
    const numericEnv = deployment({ template: { spec: { containers: [{ name: 'a', env: [{ name: 'PORT', value: 8080 }] }] } } });
    assert.equal(inspectDecoding('Deployment', numericEnv).error, 'json: cannot unmarshal number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string');
    const containersAsObject = { spec: { containers: { name: 'a' } } };
    assert.equal(inspectDecoding('Pod', containersAsObject).error, 'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container');
  });

  it('reports malformed quantities with apimachinery\'s message', () => {
    const pod = { spec: { containers: [{ name: 'a', resources: { limits: { cpu: '1 core' } } }] } };
    assert.equal(inspectDecoding('Pod', pod).error, QUANTITY_ERROR);
    const badSuffix = { spec: { containers: [{ name: 'a', resources: { requests: { memory: '1K' } } }] } };
    assert.equal(inspectDecoding('Pod', badSuffix).error, "unable to parse quantity's suffix");
    const fine = { spec: { containers: [{ name: 'a', resources: { requests: { memory: '1Ki', cpu: 0.5 } } }] } };
    assert.equal(inspectDecoding('Pod', fine).error, undefined);
  });

  it('keeps only the first hard error but still lists unknown fields', () => {
    const object = deployment({ replica: 1, replicas: 'x', minReadySeconds: 'y' });
    const inspection = inspectDecoding('Deployment', object);
    assert.equal(inspection.error, 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
    assert.deepEqual(inspection.unknownFields, ['spec.replica']);
  });

  it('checks 20,000 pods quickly (the lookup is precomputed)', () => {
    const pods = Array.from({ length: 20_000 }, (_, i) => ({
      metadata: { name: `p-${i}`, namespace: 'default', labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }], resources: { requests: { cpu: '100m' } } }] },
    }));
    const start = performance.now();
    let unknown = 0;
    for (const pod of pods) unknown += inspectDecoding('Pod', pod).unknownFields.length;
    assert.equal(unknown, 0);
    assert.ok(performance.now() - start < 2000, 'inspecting 20,000 pods took more than 2 s');
  });
});
