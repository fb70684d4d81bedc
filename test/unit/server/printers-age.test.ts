import assert from 'node:assert/strict';
import { ageSince, humanDuration, parseTime } from '../../../src/server/printers/time';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

/** k8s.io/apimachinery pkg/util/duration duration_test.go, TestHumanDuration and TestHumanDurationBoundaries. */
const cases: [milliseconds: number, expected: string][] = [
  [SECOND, '1s'],
  [70 * SECOND, '70s'],
  [190 * SECOND, '3m10s'],
  [70 * MINUTE, '70m'],
  [47 * HOUR, '47h'],
  [49 * HOUR, '2d1h'],
  [(8 * 24 + 2) * HOUR, '8d'],
  [367 * DAY, '367d'],
  [(365 * 2 * 24 + 25) * HOUR, '2y1d'],
  [(365 * 8 * 24 + 2) * HOUR, '8y'],
  [-2 * SECOND, '<invalid>'],
  [-2 * SECOND + 1, '0s'],
  [0, '0s'],
  [SECOND - 1, '0s'],
  [2 * MINUTE - 1, '119s'],
  [2 * MINUTE, '2m'],
  [2 * MINUTE + SECOND, '2m1s'],
  [10 * MINUTE - 1, '9m59s'],
  [10 * MINUTE, '10m'],
  [10 * MINUTE + SECOND, '10m'],
  [3 * HOUR - 1, '179m'],
  [3 * HOUR, '3h'],
  [3 * HOUR + MINUTE, '3h1m'],
  [8 * HOUR - 1, '7h59m'],
  [8 * HOUR, '8h'],
  [8 * HOUR + 59 * MINUTE, '8h'],
  [2 * DAY - 1, '47h'],
  [2 * DAY, '2d'],
  [2 * DAY + HOUR, '2d1h'],
  [8 * DAY - 1, '7d23h'],
  [8 * DAY, '8d'],
  [8 * DAY + 23 * HOUR, '8d'],
  [2 * YEAR - 1, '729d'],
  [2 * YEAR, '2y'],
  [2 * YEAR + 23 * HOUR + 59 * MINUTE, '2y'],
  [2 * YEAR + DAY - 1, '2y'],
  [2 * YEAR + DAY, '2y1d'],
  [3 * YEAR, '3y'],
  [7 * YEAR, '7y'],
  [8 * YEAR - 1, '7y364d'],
  [8 * YEAR, '8y'],
  [8 * YEAR + 364 * DAY, '8y'],
  [9 * YEAR, '9y'],
];

describe('AGE formatting (duration.HumanDuration)', () => {
  for (const [milliseconds, expected] of cases) {
    it(`${milliseconds} ms → ${expected}`, () => {
      assert.equal(humanDuration(milliseconds), expected);
    });
  }

  it('ages whole-second timestamps and says <unknown> for unset ones', () => {
    const now = Date.parse('2026-01-01T12:03:02.900Z');
    // The API server keeps metav1.Time at whole seconds, so a stored fraction does not count.
    assert.equal(ageSince(parseTime('2026-01-01T12:00:00.999Z'), now), '3m2s');
    assert.equal(ageSince(parseTime(undefined), now), '<unknown>');
    assert.equal(ageSince(parseTime(''), now), '<unknown>');
  });
});
