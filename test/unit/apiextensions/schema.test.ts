/** Structural-schema checks, validation and pruning of custom resources, as apiextensions-apiserver does them. */
import assert from 'node:assert/strict';
import type { FieldCause } from '../../../src/sim/apis/field';
import { applySchemaDefaults } from '../../../src/sim/apis/apiextensions/defaulting';
import { pruneToSchema } from '../../../src/sim/apis/apiextensions/pruning';
import type { JsonSchemaProps } from '../../../src/sim/apis/apiextensions/schema';
import { validateAgainstSchema } from '../../../src/sim/apis/apiextensions/schema-validation';
import { structuralSchemaErrors } from '../../../src/sim/apis/apiextensions/structural';

const widgetSchema: JsonSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'integer', minimum: 1, maximum: 10 },
        color: { type: 'string', enum: ['red', 'blue'] },
        cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
        name: { type: 'string', maxLength: 5 },
        ports: { type: 'array', maxItems: 2, items: { type: 'object', properties: { port: { type: 'integer' } } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        port: { 'x-kubernetes-int-or-string': true },
        raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        ratio: { type: 'number', nullable: true },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
};

function widget(spec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'x', namespace: 'default' }, spec, ...extra };
}

const lines = (errors: FieldCause[]): string[] => errors.map((e) => `${e.field}: ${e.message}`);

describe('custom resource schema validation', () => {
  it('accepts a resource that matches the schema', () => {
    const object = widget({ size: 3, color: 'red', cronSpec: '* * * * */5', name: 'abc', ports: [{ port: 80 }], labels: { a: 'b' }, port: 'http', raw: { any: [1] }, ratio: null });
    assert.deepEqual(lines(validateAgainstSchema(widgetSchema, object)), []);
  });

  it('reports a wrong type with the value type, as kube-openapi words it', () => {
    assert.deepEqual(lines(validateAgainstSchema(widgetSchema, widget({ size: 'string' }))), ['spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"']);
    assert.deepEqual(lines(validateAgainstSchema(widgetSchema, widget({ size: 1.5 }))), ['spec.size: Invalid value: "number": spec.size in body must be of type integer: "number"']);
  });

  it('reports required fields, enums, bounds, patterns, lengths and item counts', () => {
    assert.deepEqual(lines(validateAgainstSchema(widgetSchema, widget({}))), ['spec.size: Required value']);
    assert.deepEqual(lines(validateAgainstSchema(widgetSchema, widget({ size: 0, color: 'pink' }))), [
      'spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1',
      'spec.color: Unsupported value: "pink": supported values: "red", "blue"',
    ]);
    assert.deepEqual(lines(validateAgainstSchema(widgetSchema, widget({ size: 11 }))), ['spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10']);
    assert.deepEqual(lines(validateAgainstSchema(widgetSchema, widget({ size: 1, cronSpec: 'often' }))), [
      `spec.cronSpec: Invalid value: "often": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'`,
    ]);
    assert.deepEqual(lines(validateAgainstSchema(widgetSchema, widget({ size: 1, name: 'toolong', ports: [{}, {}, {}] }))), ['spec.name: Too long: must have at most 5 bytes', 'spec.ports: Too many: 3: must have at most 2 items']);
  });

  it('checks array items, map values and int-or-string', () => {
    assert.deepEqual(lines(validateAgainstSchema(widgetSchema, widget({ size: 1, ports: [{ port: 'x' }], labels: { a: 1 }, port: true }))), [
      'spec.ports[0].port: Invalid value: "string": spec.ports[0].port in body must be of type integer: "string"',
      'spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"',
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
    ]);
  });

  it('rejects null for a field that is not nullable', () => {
    assert.deepEqual(lines(validateAgainstSchema(widgetSchema, widget({ size: null }))), ['spec.size: Invalid value: "null": spec.size in body must be of type integer: "null"']);
  });
});

describe('custom resource pruning', () => {
  it('removes unspecified fields and keeps apiVersion, kind, metadata and preserved subtrees', () => {
    const object = widget({ size: 1, extra: true, raw: { kept: { deep: 1 } }, ports: [{ port: 1, junk: 2 }], labels: { a: 'b' } }, { unknownTop: 1, status: { ready: true, phase: 'x' } });
    const pruned = pruneToSchema(widgetSchema, object);
    assert.deepEqual(pruned.sort(), ['spec.extra', 'spec.ports[0].junk', 'status.phase', 'unknownTop']);
    assert.deepEqual(object, widget({ size: 1, raw: { kept: { deep: 1 } }, ports: [{ port: 1 }], labels: { a: 'b' } }, { status: { ready: true } }));
  });

  it('prunes nothing under x-kubernetes-preserve-unknown-fields at the root', () => {
    const object = widget({ anything: { goes: 1 } }, { other: 2 });
    assert.deepEqual(pruneToSchema({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, object), []);
    assert.equal((object.spec as Record<string, unknown>).anything !== undefined && object.other === 2, true);
  });
});

describe('custom resource defaulting', () => {
  it('fills in missing properties with their defaults, inside the objects and array items present', () => {
    const schema: JsonSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            replicas: { type: 'integer', default: 1 },
            mode: { type: 'string', default: 'auto' },
            ports: { type: 'array', items: { type: 'object', properties: { protocol: { type: 'string', default: 'TCP' }, port: { type: 'integer' } } } },
            tls: { type: 'object', properties: { enabled: { type: 'boolean', default: false } } },
          },
        },
      },
    };
    const object = widget({ mode: 'manual', ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] });
    applySchemaDefaults(schema, object);
    assert.deepEqual(object.spec, { mode: 'manual', replicas: 1, ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }] });
  });
});

describe('structural schemas', () => {
  const at = 'spec.versions[0].schema.openAPIV3Schema';

  it('accepts a schema with a type on every node', () => {
    assert.deepEqual(structuralSchemaErrors(widgetSchema, at), []);
  });

  it('requires types at the root, on object fields and on array items', () => {
    const schema: JsonSchemaProps = { properties: { spec: { properties: { list: { type: 'array', items: {} } } } } };
    assert.deepEqual(lines(structuralSchemaErrors(schema, at)), [
      `${at}.type: Required value: must not be empty at the root`,
      `${at}.properties[spec].type: Required value: must not be empty for specified object fields`,
      `${at}.properties[spec].properties[list].items.type: Required value: must not be empty for specified array items`,
    ]);
  });

  it('requires an object at the root and x-kubernetes-preserve-unknown-fields to be true when set', () => {
    assert.deepEqual(lines(structuralSchemaErrors({ type: 'string' }, at)), [`${at}.type: Invalid value: "string": must be object at the root`]);
    assert.deepEqual(lines(structuralSchemaErrors({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false }, at)), [`${at}.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`]);
  });
});
