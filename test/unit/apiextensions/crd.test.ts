/** CustomResourceDefinition defaulting, validation and status, and the resources an established CRD serves. */
import assert from 'node:assert/strict';
import { type CustomResourceDefinition, customResourceInfos, defaultCustomResourceDefinition, establishedStatus, validateCustomResourceDefinition } from '../../../src/sim/apis/apiextensions/crd';
import { customResourceCells, customResourceColumns, evaluateJsonPath } from '../../../src/server/printers/custom-resource';

function crd(spec: Record<string, unknown> = {}, name = 'widgets.example.com'): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
      ...spec,
    },
  };
}

function causes(object: CustomResourceDefinition, old?: CustomResourceDefinition): string[] {
  defaultCustomResourceDefinition(object);
  return validateCustomResourceDefinition(object, old).map((e) => `${e.field}: ${e.message}`);
}

describe('CustomResourceDefinition validation', () => {
  it('defaults singular and listKind, and accepts a valid CRD', () => {
    const object = crd();
    assert.deepEqual(causes(object), []);
    assert.equal(object.spec?.names?.singular, 'widget');
    assert.equal(object.spec?.names?.listKind, 'WidgetList');
  });

  it('requires the name to be <plural>.<group>, a dotted group and a known scope', () => {
    assert.deepEqual(causes(crd({}, 'widgets')), ['metadata.name: Invalid value: "widgets": must be spec.names.plural+"."+spec.group']);
    assert.deepEqual(causes(crd({ group: 'example' }, 'widgets.example')), ['spec.group: Invalid value: "example": should be a domain with at least one dot']);
    assert.deepEqual(causes(crd({ scope: 'Global' })), ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"']);
  });

  it('requires exactly one storage version and a structural schema', () => {
    const two = crd({ versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }, { name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] });
    assert.deepEqual(causes(two), ['spec.versions: Invalid value: ["v1","v2"]: must have exactly one version marked as storage version']);
    assert.deepEqual(causes(crd({ versions: [{ name: 'v1', served: true, storage: true }] })), ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']);
    const typeless = crd({ versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { properties: {} } } } } }] });
    assert.deepEqual(causes(typeless), ['spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields']);
  });

  it('keeps the group and plural immutable', () => {
    const old = crd();
    assert.deepEqual(causes(crd({ group: 'other.com' }, 'widgets.other.com'), old), ['spec.group: Invalid value: "other.com": field is immutable']);
  });

  it('writes the status of upstream\'s naming and establishing controllers', () => {
    const object = crd({ names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd'] } });
    defaultCustomResourceDefinition(object);
    const status = establishedStatus(object, '2026-01-01T00:00:00Z');
    assert.deepEqual(status.acceptedNames, { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'] });
    assert.deepEqual((status.conditions as { type: string; reason: string }[]).map((c) => `${c.type} ${c.reason}`), ['NamesAccepted NoConflicts', 'Established InitialNamesAccepted']);
    assert.deepEqual(status.storedVersions, ['v1']);
  });

  it('serves each served version, with its subresources', () => {
    const object = crd({ versions: [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } }, subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } },
      { name: 'v0', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
    ] });
    defaultCustomResourceDefinition(object);
    const infos = customResourceInfos(object);
    assert.deepEqual(infos.map((i) => [i.apiVersion, i.hasStatus, i.scale?.specReplicasPath, i.namespaced]), [['example.com/v1', true, '.spec.replicas', true]]);
  });
});

describe('custom resource printer columns', () => {
  const object = { metadata: { name: 'w', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { size: 3, tags: ['a', 'b'] }, status: { conditions: [{ type: 'Ready', status: 'True' }] } };

  it('evaluates the JSONPath forms CRDs use', () => {
    assert.deepEqual(evaluateJsonPath('.spec.size', object), [3]);
    assert.deepEqual(evaluateJsonPath('{.spec.tags[1]}', object), ['b']);
    assert.deepEqual(evaluateJsonPath('.spec.tags[*]', object), ['a', 'b']);
    assert.deepEqual(evaluateJsonPath('.status.conditions[?(@.type=="Ready")].status', object), ['True']);
    assert.deepEqual(evaluateJsonPath('.spec.missing', object), []);
  });

  it('prints Name then the declared columns, a value of another type or a missing one as null', () => {
    const [info] = customResourceInfos(crd({ versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } }, additionalPrinterColumns: [
      { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Missing', type: 'string', jsonPath: '.spec.missing', priority: 1 },
      { name: 'Wrong', type: 'integer', jsonPath: '.spec.tags[0]' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ] }] }));
    assert.deepEqual(customResourceColumns(info).map((c) => `${c.name}:${c.type}:${c.priority}`), ['Name:string:0', 'Size:integer:0', 'Ready:string:0', 'Missing:string:1', 'Wrong:integer:0', 'Age:date:0']);
    assert.deepEqual(customResourceCells(info, object, Date.parse('2026-01-01T00:05:00Z')), ['w', 3, 'True', null, null, '5m']);
  });

  it('prints Name and Age when the CRD declares no columns', () => {
    const [info] = customResourceInfos(crd());
    assert.deepEqual(customResourceColumns(info).map((c) => c.name), ['Name', 'Age']);
  });
});
