import assert from 'node:assert/strict';
import { EventNames } from '../../../src/sim/store/event-names';

/** The rule spelled with BigInts throughout: the millisecond in nanoseconds, or the last name plus one. */
function reference(): (now: number) => string {
  let last = 0n;
  return (now) => {
    const exact = BigInt(Math.floor(now)) * 1_000_000n;
    last = exact > last ? exact : last + 1n;
    return last.toString(16);
  };
}

describe('event names', () => {
  it('match the nanosecond rule over many events per millisecond, carries past five hex digits included', () => {
    const names = new EventNames();
    const expected = reference();
    let now = 1_767_268_800_123.4;
    for (let i = 0; i < 50_000; i++) {
      // Mostly several events in one millisecond; sometimes a jump, sometimes time standing still.
      if (i % 7 === 0) now += 1;
      if (i % 1000 === 0) now += 0.5;
      assert.equal(names.nextHex(now), expected(now), `event ${i} at ${now}`);
    }
  });

  it('keeps counting from the last name when more events than nanoseconds fell in a millisecond', () => {
    const names = new EventNames();
    const expected = reference();
    const start = 1_767_268_800_000;
    for (let i = 0; i < 1_000_005; i++) {
      names.nextHex(start);
      expected(start);
    }
    assert.equal(names.nextHex(start + 1), expected(start + 1), 'the next millisecond is already used up');
    assert.equal(names.nextHex(start + 2), expected(start + 2));
  });
});
