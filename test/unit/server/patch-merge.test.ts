import assert from 'node:assert/strict';
import { applyMergePatch } from '../../../src/server/patch/merge-patch';

/** RFC 7386 Appendix A, every row. */
const rfcExamples: [original: unknown, patch: unknown, result: unknown][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe('JSON merge patch (RFC 7386)', () => {
  rfcExamples.forEach(([original, patch, result], i) => {
    it(`Appendix A row ${i + 1}: ${JSON.stringify(original)} + ${JSON.stringify(patch)}`, () => {
      assert.deepEqual(applyMergePatch(original, patch), result);
    });
  });

  it('applies what kubectl label and kubectl scale send', () => {
    const deployment = { metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 1, template: { spec: { containers: [{ name: 'a' }] } } } };
    const labelled = applyMergePatch(deployment, { metadata: { labels: { tier: 'front', app: null } } });
    assert.deepEqual(labelled, { metadata: { name: 'web', labels: { tier: 'front' } }, spec: { replicas: 1, template: { spec: { containers: [{ name: 'a' }] } } } });
    const scaled = applyMergePatch(deployment, { spec: { replicas: 3 } }) as typeof deployment;
    assert.equal(scaled.spec.replicas, 3);
    assert.deepEqual(scaled.spec.template, deployment.spec.template);
  });

  it('neither modifies nor shares its inputs', () => {
    const target = { a: { b: 1 }, c: [1] };
    const patch = { a: { d: { e: 1 } } };
    const result = applyMergePatch(target, patch) as { a: { d: { e: number } }; c: number[] };
    assert.deepEqual(target, { a: { b: 1 }, c: [1] });
    result.c.push(2);
    result.a.d.e = 2;
    assert.deepEqual(target.c, [1]);
    assert.deepEqual(patch, { a: { d: { e: 1 } } });
  });
});
