import assert from 'node:assert/strict';
import { canonicalJson, computePodTemplateHash, fnv32a, safeEncodeString, SAFE_ENCODE_ALPHABET } from '../../../src/sim/controllers/pod-template-hash';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

const template = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
};

describe('pod-template-hash', () => {
  it('computes FNV-32a (published test vectors)', () => {
    assert.equal(fnv32a(bytes('')), 0x811c9dc5);
    assert.equal(fnv32a(bytes('a')), 0xe40c292c);
    assert.equal(fnv32a(bytes('foobar')), 0xbf9cf968);
  });

  it('encodes with rand.SafeEncodeString: byte % 27 into bcdfghjklmnpqrstvwxz2456789', () => {
    assert.equal(SAFE_ENCODE_ALPHABET, 'bcdfghjklmnpqrstvwxz2456789');
    // Digits are bytes 48..57: 48 % 27 = 21 → '4', …, 53 % 27 = 26 → '9', 54 % 27 = 0 → 'b', …, 57 → 'f'.
    assert.equal(safeEncodeString('0123456789'), '456789bcdf');
  });

  it('gives a hash with the shape of real ones (e.g. 5d567cc74c) and is stable for a template', () => {
    const hash = computePodTemplateHash(template);
    assert.match(hash, /^[4-9bcdf]{1,10}$/);
    assert.equal(computePodTemplateHash(structuredClone(template)), hash);
    // Pinned: a change here renames every simulated ReplicaSet.
    assert.equal(hash, '5b9cc8f5fc');
  });

  it('does not depend on key order, and ignores undefined fields', () => {
    const reordered = { spec: { containers: [{ image: 'nginx:1.25', name: 'nginx' }] }, metadata: { labels: { app: 'web' } } };
    assert.equal(computePodTemplateHash(reordered), computePodTemplateHash(template));
    assert.equal(computePodTemplateHash({ ...template, extra: undefined }), computePodTemplateHash(template));
    assert.equal(canonicalJson({ b: 1, a: [1, { d: 2, c: 3 }] }), '{"a":[1,{"c":3,"d":2}],"b":1}');
  });

  it('changes with the template and with collisionCount (set to 0 differs from unset)', () => {
    const base = computePodTemplateHash(template);
    const other = computePodTemplateHash({ ...template, spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } });
    assert.notEqual(other, base);
    const zero = computePodTemplateHash(template, 0);
    const one = computePodTemplateHash(template, 1);
    assert.notEqual(zero, base);
    assert.notEqual(one, zero);
    assert.match(one, /^[4-9bcdf]{1,10}$/);
  });

  it('appends the collision count as 8 little-endian bytes, as binary.LittleEndian.PutUint32 into make([]byte, 8)', () => {
    const templateHash = fnv32a(bytes(canonicalJson(template)));
    const expected = fnv32a(new Uint8Array([2, 1, 0, 0, 0, 0, 0, 0]), templateHash);
    assert.equal(computePodTemplateHash(template, 0x0102), safeEncodeString(String(expected)));
  });
});
