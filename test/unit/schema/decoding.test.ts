/**
 * Decoding messages against upstream's strings:
 * - create/update bodies: sigs.k8s.io/json internal/golang/encoding/json decode.go
 *   (UnmarshalTypeError with the struct and the field stack; an UnmarshalJSON error ends decoding),
 *   wrapped by apiserver handlers/rest.go transformDecodeError;
 * - server-side apply: structured-merge-diff typed/validate.go and helpers.go, wrapped by
 *   apimachinery managedfields/internal/structuredmerge.go;
 * - unknown kinds: kubectl's `resource mapping not found …` (cli-runtime) around meta.NoKindMatchError.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'mocha';
import { goIntegerType, inspectDecoding, schemaTypeFields, unstructuredConversionError } from '../../../src/core/schema/fields';
import { applyConfigurationErrors, objectGvkNn, validationErrorsText } from '../../../src/core/schema/apply-decoding';
import { decodeCheck } from '../../../src/sim/apis/validation';
import { resourceMappingNotFound } from '../../../src/core/kind-mapping';
import { rfc3339ParseError } from '../../../src/core/schema/go-time';
import schema from '../../../src/core/schema/kubernetes-schema.json';

function deployment(podSpec: Record<string, unknown>, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }], ...podSpec } } },
  };
}

describe('decoding a create or update body as kube-apiserver does', () => {
  it('refuses a list where an object belongs, naming the Go struct, the field path and the Go type', () => {
    const object = deployment({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ nodeSelectorTerms: [] }] } } });
    const { error, field } = decodeCheck('Deployment', object as never, 'Ignore');
    assert.equal(error?.code, 400);
    assert.equal(error?.reason, 'BadRequest');
    assert.equal(
      error?.message,
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal array into Go struct field NodeAffinity.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution of type v1.NodeSelector',
    );
    assert.equal(field, 'spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution');
  });

  it('names int32 and int64 fields, and refuses numbers they cannot hold with the literal', () => {
    assert.equal(
      inspectDecoding('Deployment', deployment({}, { replicas: 3.5 })).error,
      'json: cannot unmarshal number 3.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    assert.equal(
      inspectDecoding('Deployment', deployment({}, { replicas: 3_000_000_000 })).error,
      'json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    assert.equal(inspectDecoding('Deployment', deployment({ terminationGracePeriodSeconds: 3_000_000_000 })).error, undefined);
    assert.equal(
      inspectDecoding('Deployment', deployment({ terminationGracePeriodSeconds: '30' })).error,
      'json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.terminationGracePeriodSeconds of type int64',
    );
    const ports = deployment({ containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: '80' }] }] });
    const inspection = inspectDecoding('Deployment', ports);
    assert.equal(inspection.error, 'json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32');
    assert.equal(inspection.errorPath, 'spec.template.spec.containers[0].ports[0].containerPort');
  });

  it("gives IntOrString's own error, without a struct field, and lets it win over an earlier type error", () => {
    const probe = { httpGet: { path: '/', port: true } };
    const object = deployment({ containers: [{ name: 'web', image: 'nginx', readinessProbe: probe }] }, { replicas: 'two' });
    assert.equal(inspectDecoding('Deployment', object).error, 'json: cannot unmarshal bool into Go value of type int32');
  });

  it("refuses a timestamp with metav1.Time's UnmarshalJSON errors (time.Parse with RFC 3339)", () => {
    const stamped = (creationTimestamp: unknown): Record<string, unknown> => ({ ...deployment({}), metadata: { name: 'web', creationTimestamp } });
    assert.equal(inspectDecoding('Deployment', stamped(null)).error, undefined);
    assert.equal(inspectDecoding('Deployment', stamped('2024-02-29T10:00:00.5+02:00')).error, undefined);
    assert.equal(inspectDecoding('Deployment', stamped('yesterday')).error, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
    assert.equal(inspectDecoding('Deployment', stamped(1700000000)).error, 'json: cannot unmarshal number into Go value of type string');
    // Worked through Go's time/format.go parse for the RFC 3339 layout.
    assert.equal(rfc3339ParseError('2024-01-01'), 'parsing time "2024-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"');
    assert.equal(rfc3339ParseError('2024-13-01T00:00:00Z'), 'parsing time "2024-13-01T00:00:00Z": month out of range');
    assert.equal(rfc3339ParseError('2023-02-29T00:00:00Z'), 'parsing time "2023-02-29T00:00:00Z": day out of range');
    assert.equal(rfc3339ParseError('2024-01-01T25:00:00Z'), 'parsing time "2024-01-01T25:00:00Z": hour out of range');
    assert.equal(rfc3339ParseError('2024-01-01T10:00:00Zjunk'), 'parsing time "2024-01-01T10:00:00Zjunk": extra text: "junk"');
    assert.equal(rfc3339ParseError('2024-01-01T10:00:00 UTC'), 'parsing time "2024-01-01T10:00:00 UTC" as "2006-01-02T15:04:05Z07:00": cannot parse " UTC" as "Z07:00"');
  });

  it('uses the Go package of types from other API versions (autoscaling/v2)', () => {
    const hpa = { metadata: { name: 'h' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, metrics: { type: 'Resource' } } };
    assert.equal(inspectDecoding('HorizontalPodAutoscaler', hpa).error, 'json: cannot unmarshal object into Go struct field HorizontalPodAutoscalerSpec.spec.metrics of type []v2.MetricSpec');
  });

  it('lists every int64 field of the served kinds, as @kubernetes/client-node formats them', () => {
    // The schema keeps no integer formats: compare the int64 list with the OpenAPI formats that
    // client-node's generated models carry (`"format": "int64"`).
    const models = join('node_modules', '@kubernetes', 'client-node', 'dist', 'gen', 'models');
    const formats = new Map<string, Map<string, string>>();
    for (const file of readdirSync(models).filter((name) => name.endsWith('.js'))) {
      const fields = new Map<string, string>();
      for (const match of readFileSync(join(models, file), 'utf8').matchAll(/"baseName": "([^"]+)",\s*"type": "[^"]+",\s*"format": "(int32|int64)"/g)) fields.set(match[1], match[2]);
      formats.set(file.slice(0, -3), fields);
    }
    const mismatches: string[] = [];
    let checked = 0;
    for (const typeName of Object.keys(schema.types)) {
      const bare = typeName.slice(typeName.lastIndexOf('.') + 1);
      const model = [...formats.keys()].find((name) => new RegExp(`^(?:[A-Z][a-z]+)?V\\d+(?:beta\\d+)?${bare}$`).test(name));
      const fields = schemaTypeFields(typeName);
      if (!model || !fields) continue;
      for (const [name, field] of fields) {
        const inner = field.type.kind === 'array' ? field.type.items : field.type;
        if (inner.kind !== 'scalar' || inner.name !== 'integer') continue;
        const format = formats.get(model)!.get(name);
        if (!format) continue;
        checked++;
        if (format !== goIntegerType(name)) mismatches.push(`${typeName}.${name}: ${format}`);
      }
    }
    assert.ok(checked > 100, `only ${checked} integer fields found in the models`);
    assert.deepEqual(mismatches, []);
  });
});

describe("converting a strategic merge patch's result as runtime.DefaultUnstructuredConverter does", () => {
  it('words each mismatch as converter.go does', () => {
    assert.equal(unstructuredConversionError('Deployment', deployment({}, { replicas: '3' })), 'unrecognized type: int32');
    assert.equal(unstructuredConversionError('Deployment', deployment({}, { replicas: 3.5 })), 'cannot convert float64 to int32');
    assert.equal(unstructuredConversionError('Deployment', deployment({}, { replicas: 3.0 })), undefined);
    assert.equal(unstructuredConversionError('Deployment', deployment({ hostname: 7 })), 'cannot convert int64 to string');
    assert.equal(unstructuredConversionError('Deployment', deployment({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [] } } })), 'cannot restore struct from: slice');
    assert.equal(unstructuredConversionError('Deployment', deployment({ containers: { name: 'web' } })), 'cannot restore slice from map');
  });
});

describe('decoding a server-side apply configuration as structured-merge-diff does', () => {
  it('says which field the schema does not declare, with list items named by their keys', () => {
    const object = deployment({ containers: [{ name: 'web', image: 'nginx', portz: [] }] });
    assert.deepEqual(applyConfigurationErrors('Deployment', object), ['.spec.template.spec.containers[name="web"].portz: field not declared in schema']);
  });

  it('words type errors as structured-merge-diff prints Go values', () => {
    assert.deepEqual(applyConfigurationErrors('Deployment', deployment({}, { replicas: 'three' })), ['.spec.replicas: expected numeric (int or float), got string']);
    const labels = { ...deployment({}), metadata: { name: 'web', labels: { tier: 1 } } };
    assert.deepEqual(applyConfigurationErrors('Deployment', labels), ['.metadata.labels.tier: expected string, got &value.valueUnstructured{Value:1}']);
    const affinity = deployment({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: ['a'] } } });
    assert.deepEqual(applyConfigurationErrors('Deployment', affinity), ['.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution: expected map, got &{[a]}']);
    assert.deepEqual(applyConfigurationErrors('Deployment', deployment({ hostNetwork: 'yes' })), ['.spec.template.spec.hostNetwork: expected boolean, got &{yes}']);
  });

  it('formats the field manager error as upstream wraps it', () => {
    const errors = ['.spec.foo: field not declared in schema', '.spec.replicas: expected numeric (int or float), got string'];
    assert.equal(
      `failed to create typed patch object (${objectGvkNn('default', 'web', 'apps/v1', 'Deployment')}): ${validationErrorsText(errors)}`,
      'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): errors:\n  .spec.foo: field not declared in schema\n  .spec.replicas: expected numeric (int or float), got string',
    );
    assert.equal(objectGvkNn('default', 'web', 'v1', 'Service'), 'default/web; /v1, Kind=Service');
  });
});

describe("kubectl's refusal of a kind the server does not serve", () => {
  it('names the object, its namespace as written, the source and the version', () => {
    assert.equal(
      resourceMappingNotFound('hello', '', 'cronjob.yaml', 'batch/v1beta1', 'CronJob'),
      'resource mapping not found for name: "hello" namespace: "" from "cronjob.yaml": no matches for kind "CronJob" in version "batch/v1beta1"',
    );
  });
});
