import assert from 'node:assert/strict';
import { formatQuantity, parseQuantity, QUANTITY_FORMAT_ERROR, QUANTITY_SUFFIX_ERROR } from '../../../src/core/schema/quantity';

describe('schema: parsed quantities are cached', () => {
  it('returns one shared, frozen result for a repeated string', () => {
    const first = parseQuantity('16Mi');
    const second = parseQuantity('16Mi');
    assert.equal(first, second);
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.quantity));
    assert.equal(first.quantity?.nano, 16n * 1024n * 1024n * 1_000_000_000n);
    assert.throws(() => {
      (first.quantity as { nano: bigint }).nano = 0n;
    }, TypeError);
  });

  it('parses a number as its decimal string', () => {
    assert.equal(parseQuantity(0.25).quantity?.nano, parseQuantity('0.25').quantity?.nano);
    assert.equal(formatQuantity(parseQuantity(1500).quantity!), '1500');
  });

  it('caches errors too', () => {
    assert.equal(parseQuantity('1Gb').error, QUANTITY_FORMAT_ERROR);
    assert.equal(parseQuantity('1Gb').error, QUANTITY_FORMAT_ERROR);
    assert.equal(parseQuantity('2ki').error, QUANTITY_SUFFIX_ERROR);
  });

  it('keeps answering correctly once more distinct strings than the cache holds have been parsed', () => {
    for (let i = 0; i < 12_000; i++) assert.equal(parseQuantity(`${i}m`).quantity?.nano, BigInt(i) * 1_000_000n);
    assert.equal(formatQuantity(parseQuantity('10m').quantity!), '10m');
    assert.equal(parseQuantity(' 1').quantity?.nano, 1_000_000_000n);
  });
});
