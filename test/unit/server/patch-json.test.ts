import assert from 'node:assert/strict';
import { PatchError } from '../../../src/server/patch/errors';
import { applyJsonPatch } from '../../../src/server/patch/json-patch';

/** RFC 6902 Appendix A. */
const rfcExamples: { name: string; target: unknown; patch: unknown[]; result: unknown }[] = [
  { name: 'A.1 adding an object member', target: { foo: 'bar' }, patch: [{ op: 'add', path: '/baz', value: 'qux' }], result: { baz: 'qux', foo: 'bar' } },
  { name: 'A.2 adding an array element', target: { foo: ['bar', 'baz'] }, patch: [{ op: 'add', path: '/foo/1', value: 'qux' }], result: { foo: ['bar', 'qux', 'baz'] } },
  { name: 'A.3 removing an object member', target: { baz: 'qux', foo: 'bar' }, patch: [{ op: 'remove', path: '/baz' }], result: { foo: 'bar' } },
  { name: 'A.4 removing an array element', target: { foo: ['bar', 'qux', 'baz'] }, patch: [{ op: 'remove', path: '/foo/1' }], result: { foo: ['bar', 'baz'] } },
  { name: 'A.5 replacing a value', target: { baz: 'qux', foo: 'bar' }, patch: [{ op: 'replace', path: '/baz', value: 'boo' }], result: { baz: 'boo', foo: 'bar' } },
  {
    name: 'A.6 moving a value',
    target: { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
    patch: [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
    result: { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
  },
  {
    name: 'A.7 moving an array element',
    target: { foo: ['all', 'grass', 'cows', 'eat'] },
    patch: [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
    result: { foo: ['all', 'cows', 'eat', 'grass'] },
  },
  {
    name: 'A.8 testing a value: success',
    target: { baz: 'qux', foo: ['a', 2, 'c'] },
    patch: [
      { op: 'test', path: '/baz', value: 'qux' },
      { op: 'test', path: '/foo/1', value: 2 },
    ],
    result: { baz: 'qux', foo: ['a', 2, 'c'] },
  },
  { name: 'A.10 adding a nested member object', target: { foo: 'bar' }, patch: [{ op: 'add', path: '/child', value: { grandchild: {} } }], result: { foo: 'bar', child: { grandchild: {} } } },
  { name: 'A.11 ignoring unrecognized elements', target: { foo: 'bar' }, patch: [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }], result: { foo: 'bar', baz: 'qux' } },
  { name: 'A.14 ~ escape ordering', target: { '/': 9, '~1': 10 }, patch: [{ op: 'test', path: '/~01', value: 10 }], result: { '/': 9, '~1': 10 } },
  { name: 'A.16 adding an array value', target: { foo: ['bar'] }, patch: [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], result: { foo: ['bar', ['abc', 'def']] } },
  { name: 'copy', target: { a: { b: [1] } }, patch: [{ op: 'copy', from: '/a', path: '/c' }], result: { a: { b: [1] }, c: { b: [1] } } },
  { name: 'test compares objects regardless of member order', target: { a: { x: 1, y: [1, { z: 2 }] } }, patch: [{ op: 'test', path: '/a', value: { y: [1, { z: 2 }], x: 1 } }], result: { a: { x: 1, y: [1, { z: 2 }] } } },
  { name: 'add at the root replaces the document', target: { a: 1 }, patch: [{ op: 'add', path: '', value: { b: 2 } }], result: { b: 2 } },
];

const isUnprocessable = (detail: RegExp) => (error: unknown) =>
  error instanceof PatchError &&
  error.code === 422 &&
  error.reason === 'Invalid' &&
  error.message === 'the server rejected our request due to an error in our request' &&
  detail.test(error.detail);

describe('JSON patch (RFC 6902)', () => {
  for (const example of rfcExamples) {
    it(example.name, () => {
      assert.deepEqual(applyJsonPatch(example.target, example.patch), example.result);
    });
  }

  it('A.9 testing a value: error', () => {
    assert.throws(() => applyJsonPatch({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]), isUnprocessable(/testing value \/baz failed: test failed/));
  });

  it('A.12 adding to a nonexistent target', () => {
    assert.throws(() => applyJsonPatch({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]), isUnprocessable(/add operation does not apply: doc is missing path/));
  });

  it('A.15 comparing strings and numbers', () => {
    assert.throws(() => applyJsonPatch({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }]), isUnprocessable(/test failed/));
  });

  it('fails on a missing member to replace or remove, an index out of range, and an unknown op', () => {
    assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }]), isUnprocessable(/replace operation does not apply: doc is missing key: \/b/));
    assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'remove', path: '/b' }]), isUnprocessable(/Unable to remove nonexistent key: b/));
    assert.throws(() => applyJsonPatch({ a: [1] }, [{ op: 'add', path: '/a/2', value: 2 }]), isUnprocessable(/invalid index referenced/));
    assert.throws(() => applyJsonPatch({ a: [1] }, [{ op: 'remove', path: '/a/01' }]), isUnprocessable(/invalid index referenced/));
    assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'frobnicate', path: '/a' }]), isUnprocessable(/Unexpected kind: frobnicate/));
    assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'add', path: '/b' }]), isUnprocessable(/no value/));
    assert.throws(() => applyJsonPatch({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a/b/c' }]), isUnprocessable(/prefix/));
  });

  it('is atomic: a failing operation leaves the target untouched', () => {
    const target = { spec: { replicas: 1 } };
    assert.throws(() =>
      applyJsonPatch(target, [
        { op: 'replace', path: '/spec/replicas', value: 3 },
        { op: 'test', path: '/spec/replicas', value: 1 },
      ]),
    );
    assert.deepEqual(target, { spec: { replicas: 1 } });
  });

  it('applies what client-node patchNamespacedDeploymentScale and kubectl rollout undo send', () => {
    const scaled = applyJsonPatch({ spec: { replicas: 1 } }, [{ op: 'replace', path: '/spec/replicas', value: 3 }]);
    assert.deepEqual(scaled, { spec: { replicas: 3 } });
    const undone = applyJsonPatch(
      { metadata: { annotations: { 'deployment.kubernetes.io/revision': '2' } }, spec: { template: { spec: { containers: [{ name: 'a', image: 'nginx:1.26' }] } } } },
      [
        { op: 'replace', path: '/spec/template', value: { spec: { containers: [{ name: 'a', image: 'nginx:1.25' }] } } },
        { op: 'replace', path: '/metadata/annotations', value: { 'deployment.kubernetes.io/revision': '1' } },
      ],
    );
    assert.deepEqual(undone, { metadata: { annotations: { 'deployment.kubernetes.io/revision': '1' } }, spec: { template: { spec: { containers: [{ name: 'a', image: 'nginx:1.25' }] } } } });
  });

  it('answers a body that is not a list of operations with 400 BadRequest', () => {
    assert.throws(
      () => applyJsonPatch({}, { op: 'add', path: '/a', value: 1 }),
      (error: unknown) => error instanceof PatchError && error.code === 400 && error.message === 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    );
    assert.throws(() => applyJsonPatch({}, ['add']), /cannot unmarshal string into Go value of type jsonpatch.Operation/);
  });
});
