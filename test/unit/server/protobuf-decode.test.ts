/**
 * The protobuf request bodies kubectl sends, built by hand here field by field (as gogo writes
 * them: every value field, zero or not), decode to the JSON Go would write for the same object.
 */
import assert from 'node:assert/strict';
import { ApiError } from '../../../src/sim/store/types';
import { parseJsonBody, parseObjectBody } from '../../../src/server/http-util';
import { ProtobufDecodeError, decodeKubernetesProtobuf } from '../../../src/server/protobuf/decode';

type Part = Uint8Array;

function varint(value: bigint | number): number[] {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return out;
}

const concat = (...parts: Part[]): Uint8Array => Uint8Array.from(parts.flatMap((part) => [...part]));
/** A varint field (int32, int64, bool). */
const num = (field: number, value: bigint | number | boolean): Part => Uint8Array.from([...varint(field << 3), ...varint(typeof value === 'boolean' ? Number(value) : value)]);
/** A length-delimited field: string, bytes or an embedded message. */
const len = (field: number, value: string | Part): Part => {
  const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
  return Uint8Array.from([...varint((field << 3) | 2), ...varint(bytes.length), ...bytes]);
};
const msg = (field: number, ...parts: Part[]): Part => len(field, concat(...parts));
const mapEntry = (field: number, key: string, value: string | Part): Part => msg(field, len(1, key), len(2, value));
/** An IntOrString as gogo writes it: all three fields. */
const intOrString = (field: number, value: number | string): Part =>
  typeof value === 'number' ? msg(field, num(1, 0), num(2, value), len(3, '')) : msg(field, num(1, 1), num(2, 0), len(3, value));

function envelope(apiVersion: string, kind: string, raw: Part): Uint8Array {
  return concat(Uint8Array.from([0x6b, 0x38, 0x73, 0x00]), msg(1, len(1, apiVersion), len(2, kind)), len(2, raw), len(3, ''), len(4, ''));
}

/** ObjectMeta with the value fields gogo always writes, creationTimestamp zero (empty). */
function objectMeta(name: string, ...more: Part[]): Part {
  return msg(1, len(1, name), len(2, ''), len(3, ''), len(4, ''), len(5, ''), len(6, ''), num(7, 0), len(8, new Uint8Array()), ...more);
}

describe('protobuf request bodies', () => {
  it('decodes a Deployment: pointer zeros kept, value zeros and zero times dropped, IntOrString both ways', () => {
    const container = msg(2, len(1, 'web'), len(2, 'nginx:1.27'), len(5, ''), msg(8), len(13, ''), len(14, ''), num(16, false), num(17, false), num(18, false), len(20, ''));
    const podSpec = msg(2, container, len(3, ''), len(6, ''), len(8, ''), len(9, ''), len(10, ''), num(11, false), num(12, false), num(13, false), len(16, ''), len(17, ''), len(19, ''), num(21, false));
    const template = msg(3, objectMeta('', mapEntry(11, 'app', 'web')), podSpec);
    const strategy = msg(4, len(1, 'RollingUpdate'), msg(2, intOrString(1, 1), intOrString(2, '25%')));
    const spec = msg(2, num(1, 0), msg(2, mapEntry(1, 'app', 'web')), template, strategy, num(5, 0), num(7, false), len(99, 'a field this server does not know'));
    const body = envelope('apps/v1', 'Deployment', concat(objectMeta('web', mapEntry(11, 'app', 'web')), spec, msg(3)));

    assert.deepEqual(decodeKubernetesProtobuf(body), {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.27', resources: {} }], automountServiceAccountToken: false },
        },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '25%' } },
      },
      status: {},
    });
  });

  it('merges the structs Go embeds inline: volume sources, probe handlers, configMapKeyRef names', () => {
    const envFromConfigMap = msg(7, len(1, 'MODE'), len(2, ''), msg(3, msg(3, msg(1, len(1, 'settings')), len(2, 'mode'))));
    const probe = msg(11, msg(1, msg(2, len(1, '/healthz'), intOrString(2, 8080), len(3, ''), len(4, 'HTTP'))), num(2, 5), num(3, 0));
    const container = msg(2, len(1, 'app'), len(2, 'app:1'), envFromConfigMap, probe, msg(9, len(1, 'config'), len(3, '/etc/config')));
    const volume = msg(1, len(1, 'config'), msg(2, msg(19, msg(1, len(1, 'settings')))));
    const body = envelope('v1', 'Pod', concat(objectMeta('p'), msg(2, volume, container)));
    assert.deepEqual((decodeKubernetesProtobuf(body) as { spec: unknown }).spec, {
      volumes: [{ name: 'config', configMap: { name: 'settings' } }],
      containers: [
        {
          name: 'app',
          image: 'app:1',
          env: [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'settings', key: 'mode' } } }],
          readinessProbe: { httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, initialDelaySeconds: 5 },
          volumeMounts: [{ name: 'config', mountPath: '/etc/config' }],
        },
      ],
    });
  });

  it('decodes a Secret: binary data as base64, an empty map value kept, a pointer false kept', () => {
    const body = envelope('v1', 'Secret', concat(objectMeta('creds'), mapEntry(2, 'key', Uint8Array.from([0x00, 0xff, 0x01])), mapEntry(2, 'empty', new Uint8Array()), len(3, 'Opaque'), num(5, false)));
    assert.deepEqual(decodeKubernetesProtobuf(body), {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'creds' },
      data: { key: 'AP8B', empty: '' },
      type: 'Opaque',
      immutable: false,
    });
  });

  it('decodes a map entry without a value as the zero value', () => {
    const body = envelope('v1', 'ConfigMap', concat(objectMeta('cfg', msg(12, len(1, 'note'))), mapEntry(2, 'a', '1')));
    assert.deepEqual(decodeKubernetesProtobuf(body), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', annotations: { note: '' } }, data: { a: '1' } });
  });

  it('formats Time as RFC 3339 seconds and MicroTime with microseconds', () => {
    const time = (field: number, seconds: number, nanos: number): Part => msg(field, num(1, seconds), num(2, nanos));
    const job = envelope('batch/v1', 'Job', concat(objectMeta('pi', time(9, 1_700_000_000, 0)), msg(3, time(2, 1_700_000_000, 999_000_000))));
    const decoded = decodeKubernetesProtobuf(job) as { metadata: Record<string, unknown>; status: Record<string, unknown> };
    assert.equal(decoded.metadata.deletionTimestamp, '2023-11-14T22:13:20Z');
    assert.deepEqual(decoded.status, { startTime: '2023-11-14T22:13:20Z' });

    const event = envelope('v1', 'Event', concat(objectMeta('e'), msg(2, len(2, 'Pod')), time(10, 1_700_000_000, 123_456_789)));
    assert.equal((decodeKubernetesProtobuf(event) as { eventTime: string }).eventTime, '2023-11-14T22:13:20.123456Z');
  });

  it('reads repeated scalars packed and unpacked, and negative int32s', () => {
    const packed = len(4, Uint8Array.from([...varint(1000), ...varint(2000)]));
    const unpacked = concat(num(4, 3000), num(4, 4000));
    const pod = (securityContext: Part): Uint8Array => envelope('v1', 'Pod', concat(objectMeta('p'), msg(2, msg(14, securityContext))));
    const groups = (bytes: Uint8Array) => ((decodeKubernetesProtobuf(bytes) as { spec: { securityContext: { supplementalGroups: number[] } } }).spec.securityContext.supplementalGroups);
    assert.deepEqual(groups(pod(packed)), [1000, 2000]);
    assert.deepEqual(groups(pod(unpacked)), [3000, 4000]);

    const priority = envelope('scheduling.k8s.io/v1', 'PriorityClass', concat(objectMeta('low'), num(2, -5), num(3, false), len(4, '')));
    assert.deepEqual(decodeKubernetesProtobuf(priority), { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'low' }, value: -5 });
  });

  it('keeps a pointer empty string (storageClassName "" turns dynamic provisioning off)', () => {
    const body = envelope('v1', 'PersistentVolumeClaim', concat(objectMeta('data'), msg(2, len(1, 'ReadWriteOnce'), msg(2, mapEntry(2, 'storage', len(1, '1Gi'))), len(3, ''), len(5, ''))));
    assert.deepEqual((decodeKubernetesProtobuf(body) as { spec: unknown }).spec, { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: '' });
  });

  it('parses a RawExtension as JSON and reads DeleteOptions', () => {
    const revision = envelope('apps/v1', 'ControllerRevision', concat(objectMeta('web-1'), msg(2, len(1, '{"spec":{"template":{"$patch":"replace"}}}')), num(3, 2)));
    assert.deepEqual((decodeKubernetesProtobuf(revision) as { data: unknown }).data, { spec: { template: { $patch: 'replace' } } });

    const options = envelope('meta.k8s.io/v1', 'DeleteOptions', concat(num(1, 0), len(4, 'Foreground'), len(5, 'All')));
    assert.deepEqual(decodeKubernetesProtobuf(options), { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, propagationPolicy: 'Foreground', dryRun: ['All'] });
  });

  it('takes the kind from the request when the envelope names none', () => {
    const body = concat(Uint8Array.from([0x6b, 0x38, 0x73, 0x00]), len(2, objectMeta('ns1')));
    assert.deepEqual(decodeKubernetesProtobuf(body, { apiVersion: 'v1', kind: 'Namespace' }), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } });
  });

  it('refuses what it cannot decode with a 400 that says why', () => {
    const refusal = (body: Uint8Array): string => {
      try {
        parseObjectBody(Buffer.from(body), 'application/vnd.kubernetes.protobuf', { apiVersion: 'v1', kind: 'Pod' });
      } catch (error) {
        assert.ok(error instanceof ApiError);
        assert.equal(error.code, 400);
        assert.equal(error.reason, 'BadRequest');
        return error.message;
      }
      return assert.fail('the body was accepted');
    };
    assert.equal(refusal(new TextEncoder().encode('{"kind":"Pod"}')), 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
    const pod = envelope('v1', 'Pod', objectMeta('p'));
    assert.equal(refusal(pod.subarray(0, pod.length - 3)), 'unexpected EOF');
    assert.equal(refusal(envelope('v1', 'Pod', num(1, 7))), 'proto: wrong wireType = 0 for field metadata');
    assert.equal(refusal(envelope('example.com/v1', 'Widget', new Uint8Array())), 'no kind "Widget" is registered for version "example.com/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"');
    assert.throws(() => decodeKubernetesProtobuf(envelope('v1', 'Pod', msg(1, len(5, Uint8Array.from([0xff]))))), ProtobufDecodeError);
    assert.equal(refusal(envelope('v1', 'Pod', msg(1, msg(9, num(1, 1e15))))), 'Time.MarshalJSON: year outside of range [0,9999]');
    const revision = (raw: Part) => envelope('apps/v1', 'ControllerRevision', concat(objectMeta('r'), msg(2, len(1, raw))));
    assert.throws(() => decodeKubernetesProtobuf(revision(envelope('apps/v1', 'ControllerRevision', objectMeta('inner')))), /the RawExtension of the protobuf body is not JSON/);
  });

  it('JSON bodies are parsed as before; a patch or an unknown protobuf type gets a 415 listing what is accepted', () => {
    assert.deepEqual(parseObjectBody(Buffer.from('{"kind":"Pod"}'), 'application/json'), { kind: 'Pod' });
    assert.throws(() => parseJsonBody('k8s', 'application/vnd.kubernetes.protobuf'), {
      code: 415,
      message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json',
    });
    assert.throws(() => parseObjectBody(Buffer.from('k8s'), 'application/x-protobuf'), {
      code: 415,
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    });
  });
});
