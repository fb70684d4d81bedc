import assert from 'node:assert/strict';
import { nextActivation, parseCronSchedule } from '../../../../src/sim/controllers/cronjob/cron-schedule';

/** The next `count` activations after `from`, as ISO strings. */
function fires(spec: string, from: string, count: number, zone?: string): string[] {
  const schedule = parseCronSchedule(spec);
  const out: string[] = [];
  let t = Date.parse(from);
  for (let i = 0; i < count; i++) {
    const next = nextActivation(schedule, t, zone);
    assert.ok(next !== undefined);
    out.push(new Date(next).toISOString());
    t = next;
  }
  return out;
}

describe('cron schedules', () => {
  it('fires */15 at the quarter hours, strictly after the given time', () => {
    assert.deepEqual(fires('*/15 * * * *', '2026-01-01T12:00:00Z', 3), ['2026-01-01T12:15:00.000Z', '2026-01-01T12:30:00.000Z', '2026-01-01T12:45:00.000Z']);
  });

  it('reads lists, ranges, names and steps', () => {
    assert.deepEqual(fires('30 9-17/4 * * mon-fri', '2026-01-02T16:00:00Z', 3), ['2026-01-02T17:30:00.000Z', '2026-01-05T09:30:00.000Z', '2026-01-05T13:30:00.000Z']);
    assert.deepEqual(fires('0 0 1 jan,jul *', '2026-01-01T12:00:00Z', 2), ['2026-07-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
  });

  it('matches either day field when both are restricted, as robfig/cron', () => {
    // 2026-01-13 is a Tuesday; the 15th is a Thursday.
    assert.deepEqual(fires('0 0 15 * 2', '2026-01-12T00:00:00Z', 3), ['2026-01-13T00:00:00.000Z', '2026-01-15T00:00:00.000Z', '2026-01-20T00:00:00.000Z']);
  });

  it('expands the macros', () => {
    assert.deepEqual(fires('@hourly', '2026-01-01T12:10:00Z', 1), ['2026-01-01T13:00:00.000Z']);
    assert.deepEqual(fires('@daily', '2026-01-01T12:10:00Z', 1), ['2026-01-02T00:00:00.000Z']);
    assert.deepEqual(fires('@midnight', '2026-01-01T12:10:00Z', 1), ['2026-01-02T00:00:00.000Z']);
    assert.deepEqual(fires('@weekly', '2026-01-01T12:10:00Z', 1), ['2026-01-04T00:00:00.000Z']);
    assert.deepEqual(fires('@monthly', '2026-01-01T12:10:00Z', 1), ['2026-02-01T00:00:00.000Z']);
    assert.deepEqual(fires('@yearly', '2026-01-01T12:10:00Z', 1), ['2027-01-01T00:00:00.000Z']);
    assert.deepEqual(fires('@annually', '2026-01-01T12:10:00Z', 1), ['2027-01-01T00:00:00.000Z']);
  });

  it('evaluates wall-clock times in the timeZone, across a DST change', () => {
    // 09:00 in New York is 14:00 UTC in winter and 13:00 UTC after 8 March 2026.
    assert.deepEqual(fires('0 9 * * *', '2026-03-07T00:00:00Z', 2, 'America/New_York'), ['2026-03-07T14:00:00.000Z', '2026-03-08T13:00:00.000Z']);
    assert.deepEqual(fires('0 0 * * *', '2026-01-01T12:00:00Z', 1, 'Asia/Tokyo'), ['2026-01-01T15:00:00.000Z']);
  });

  it('rejects bad specs with robfig’s messages', () => {
    assert.throws(() => parseCronSchedule('* * *'), /^Error: expected exactly 5 fields, found 3: \[\* \* \*\]$/);
    assert.throws(() => parseCronSchedule('61 * * * *'), /end of range \(61\) above maximum \(59\): 61/);
    assert.throws(() => parseCronSchedule('@fortnightly'), /unrecognized descriptor: @fortnightly/);
    assert.throws(() => parseCronSchedule('x * * * *'), /failed to parse int from x/);
  });

  it('has no activation for a date that never comes', () => {
    assert.equal(nextActivation(parseCronSchedule('0 0 30 2 *'), Date.parse('2026-01-01T00:00:00Z')), undefined);
  });
});
