import assert from 'node:assert/strict';
import { median } from '../../../bench/median';

describe('bench median', () => {
  it('is the middle value of an odd count and the mean of the middle two of an even one, whatever the order', () => {
    assert.equal(median([9, 1, 5]), 5);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([7]), 7);
  });

  it('leaves the values it was given in their order', () => {
    const values = [3, 1, 2];
    median(values);
    assert.deepEqual(values, [3, 1, 2]);
  });
});
