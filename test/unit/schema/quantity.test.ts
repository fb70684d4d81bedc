import assert from 'node:assert/strict';
import { canonicalResourceQuantity, compareQuantities, formatQuantity, parseQuantity, roundUpToMilli } from '../../../src/core/schema/quantity';

function canonical(input: string | number): string {
  const parsed = parseQuantity(input);
  assert.ok(parsed.quantity, `${input} should parse: ${parsed.error}`);
  return formatQuantity(parsed.quantity);
}

describe('schema: quantities', () => {
  it('prints the canonical form kube-apiserver returns', () => {
    const cases: [string | number, string][] = [
      ['0.5', '500m'],
      ['1.5', '1500m'],
      ['1000m', '1'],
      ['100m', '100m'],
      ['1000', '1k'],
      ['1024Mi', '1Gi'],
      ['1.5Gi', '1536Mi'],
      ['0.5Ki', '512'],
      ['1Ki', '1Ki'],
      ['129M', '129M'],
      ['1e3', '1e3'],
      ['5e-3', '5e-3'],
      ['-1', '-1'],
      ['0', '0'],
      ['+2', '2'],
      [1, '1'],
      [0.25, '250m'],
    ];
    for (const [input, expected] of cases) assert.equal(canonical(input), expected, `canonical form of ${input}`);
  });

  it('rejects what ParseQuantity rejects, with its messages', () => {
    const format = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    for (const bad of ['', 'abc', '1Gb', '1 Gi', '1.2.3']) assert.equal(parseQuantity(bad).error, format, `"${bad}"`);
    for (const bad of ['1K', '1e', '2ki', '--1']) assert.equal(parseQuantity(bad).error, "unable to parse quantity's suffix", `"${bad}"`);
  });

  it('compares exactly, across suffixes', () => {
    const q = (text: string) => parseQuantity(text).quantity!;
    assert.equal(compareQuantities(q('1'), q('1000m')), 0);
    assert.equal(compareQuantities(q('1Gi'), q('1G')), 1);
    assert.equal(compareQuantities(q('0.1'), q('100m')), 0);
    assert.equal(compareQuantities(q('999m'), q('1')), -1);
  });

  it('rounds resource lists up to milli units, as SetDefaults_ResourceList does', () => {
    assert.equal(formatQuantity(roundUpToMilli(parseQuantity('0.1m').quantity!)), '1m');
    assert.equal(formatQuantity(roundUpToMilli(parseQuantity('1500u').quantity!)), '2m');
    assert.equal(canonicalResourceQuantity('0.5'), '500m');
    assert.equal(canonicalResourceQuantity('nope'), undefined);
  });
});
