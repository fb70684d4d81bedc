import assert from 'node:assert/strict';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, nameIsDNSLabel, nameIsDNSSubdomain } from '../../../src/core/schema/name-rules';

// apimachinery's regular expressions (k8s.io/apimachinery/pkg/util/validation): the checks scan
// characters instead, and must accept exactly what these accept.
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** IsQualifiedName as upstream writes it: split on '/', a DNS subdomain prefix, a 63-character name. */
function referenceQualifiedNameIsValid(value: string): boolean {
  const parts = value.split('/');
  if (parts.length > 2) return false;
  const name = parts[parts.length - 1];
  const prefixValid = parts.length === 1 || (parts[0].length > 0 && parts[0].length <= 253 && DNS1123_SUBDOMAIN.test(parts[0]));
  return prefixValid && name.length <= 63 && QUALIFIED_NAME.test(name);
}

const EDGE_CASES = [
  '', 'a', 'A', '0', '-', '.', '_', '/', 'a-', '-a', 'a.', '.a', 'a_', '_a', 'a--b', 'a..b', 'a.-b', 'a-.b', 'a.b', 'a_b', 'a.b.c',
  'ab', 'a-b', 'A-b', 'my-name', '123-abc', 'example.com', 'Example.com', 'example.com/', '/name', 'example.com/name', 'example.com/Name',
  'a/b/c', 'a//b', 'example.com/-x', 'example.com/x-', 'ex_ample.com/x', 'kubernetes.io/metadata.name', 'node.kubernetes.io/not-ready',
  'a b', 'a\n', '\na', 'é', 'aé', 'a\u0000b', 'x'.repeat(63), 'x'.repeat(64), `${'x'.repeat(253)}/a`, `${'x'.repeat(254)}/a`,
  `a/${'x'.repeat(63)}`, `a/${'x'.repeat(64)}`, 'x'.repeat(253), 'x'.repeat(254), `${'a'.repeat(63)}.${'b'.repeat(63)}`,
];

/** Deterministic strings from an alphabet heavy in the characters the rules treat specially. */
function generatedStrings(count: number): string[] {
  const alphabet = 'az09AZ-._/ é';
  let state = 12345;
  const next = (bound: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % bound;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let value = '';
    for (let length = next(10); length > 0; length--) value += alphabet[next(alphabet.length)];
    out.push(value);
  }
  return out;
}

const SAMPLES = [...EDGE_CASES, ...generatedStrings(20_000)];

describe('schema: name rules accept exactly what upstream regexes accept', () => {
  it('DNS-1123 labels', () => {
    for (const value of SAMPLES) {
      assert.equal(isDNS1123Label(value).length === 0, value.length <= 63 && DNS1123_LABEL.test(value), JSON.stringify(value));
    }
  });

  it('DNS-1123 subdomains', () => {
    for (const value of SAMPLES) {
      assert.equal(isDNS1123Subdomain(value).length === 0, value.length <= 253 && DNS1123_SUBDOMAIN.test(value), JSON.stringify(value));
    }
  });

  it('qualified names, with and without a prefix', () => {
    for (const value of SAMPLES) assert.equal(isQualifiedName(value).length === 0, referenceQualifiedNameIsValid(value), JSON.stringify(value));
  });

  it('label values', () => {
    for (const value of SAMPLES) {
      assert.equal(isValidLabelValue(value).length === 0, value.length <= 63 && LABEL_VALUE.test(value), JSON.stringify(value));
    }
  });

  it('generateName prefixes may end with a dash', () => {
    assert.deepEqual(nameIsDNSSubdomain('web-', true), []);
    assert.deepEqual(nameIsDNSLabel('web-', true), []);
    assert.equal(nameIsDNSSubdomain('web-', false).length, 1);
    assert.equal(nameIsDNSSubdomain('-', true).length, 1);
  });
});

describe('schema: name rule messages', () => {
  it('a label with dots is a subdomain, not a label', () => {
    assert.deepEqual(isDNS1123Label('a.b'), ['must not contain dots']);
  });

  it('lists the length and the syntax problems of an overlong invalid label', () => {
    const messages = isDNS1123Label(`-${'a'.repeat(63)}`);
    assert.equal(messages.length, 2);
    assert.equal(messages[0], 'must be no more than 63 characters');
    assert.match(messages[1], /^a lowercase RFC 1123 label must consist of/);
  });

  it('names the prefix and the name part of a qualified name', () => {
    assert.deepEqual(isQualifiedName('/a'), ['prefix part must be non-empty']);
    assert.deepEqual(isQualifiedName('a/'), [
      'name part must be non-empty',
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
    assert.deepEqual(isQualifiedName('Example.com/app'), [
      "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
    assert.equal(isQualifiedName('a/b/c').length, 1);
    assert.match(isQualifiedName('a/b/c')[0], /^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
  });

  it('reports a 254-character prefix as too long only', () => {
    assert.deepEqual(isQualifiedName(`${'x'.repeat(254)}/a`), ['prefix part must be no more than 253 characters']);
  });
});
