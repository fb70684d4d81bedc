import assert from 'node:assert/strict';
import { describeReadiness, findPodCounts, jsonFormat, JsonLinesCheck, SummaryReadiness } from '../../../bench/output-checks';

function readiness(lines: string[], expected: number) {
  const check = new SummaryReadiness();
  for (const line of lines) check.add(line);
  return check.result(expected);
}

function jsonLines(text: string) {
  const check = new JsonLinesCheck();
  for (const line of text.split('\n')) check.add(line);
  return check.result();
}

describe('bench output checks', () => {
  it('adds up per-journey summaries when no summary counts the whole file', () => {
    const lines = ['Summary', '  pods      100/100 ready · 100 running · 100 scheduled', 'Summary', '  pods      99/100 ready · 100 running · 100 scheduled', '  Deployment default/app-0   100/100 ready'];
    const r = readiness(lines, 200);
    assert.deepEqual(r, { summaries: 2, ready: 199, desired: 200, wholeFile: false, allReady: false });
    assert.match(describeReadiness(r, 200), /^NOT all ready \(expected 200\): 199\/200 \(sum of 2 per-journey summaries\)$/);
  });

  it('takes the summary of the whole file when there is one, digits grouped or not', () => {
    const lines = ['  pods      100/100 ready · 100 running', '  pods      10,000/10,000 ready · 10,000 running'];
    const r = readiness(lines, 10_000);
    assert.deepEqual(r, { summaries: 2, ready: 10_000, desired: 10_000, wholeFile: true, allReady: true });
    assert.equal(describeReadiness(r, 10_000), 'all ready: 10000/10000 (file summary)');
  });

  it('says so when the output has no summary at all', () => {
    const r = readiness(['error: out of memory'], 10);
    assert.equal(r.allReady, false);
    assert.equal(describeReadiness(r, 10), 'no "pods … ready" summary line');
  });

  it('recognises newline-delimited records ending with a summary record', () => {
    const lines = jsonLines('{"type":"object","kind":"Pod"}\n{"type":"object","kind":"Pod"}\n{"type":"summary","pods":{"ready":2,"desired":2}}\n');
    assert.equal(jsonFormat(lines, undefined), 'ndjson');
    assert.deepEqual([lines.records, lines.summaryRecords, lines.lastRecordIsSummary, lines.summaryPods], [3, 1, true, { ready: 2, desired: 2 }]);
  });

  it('tells a single document on one line from one printed over many lines, and from output that is not JSON', () => {
    assert.equal(jsonFormat(jsonLines('[{"journey":1}]\n'), undefined), 'single JSON document');
    const pretty = jsonLines('[\n  {\n    "journey": 1\n  }\n]\n');
    assert.equal(pretty.records, 0);
    assert.equal(pretty.firstFailure?.line, 1);
    assert.equal(jsonFormat(pretty, true), 'single JSON document');
    assert.equal(jsonFormat(jsonLines('{"a":1}\n<--- Last few GCs --->\n'), false), 'not JSON');
    assert.equal(jsonFormat(jsonLines(''), undefined), 'not JSON');
  });

  it('finds pod counts a few levels down a summary record, and only numbers', () => {
    assert.deepEqual(findPodCounts({ totals: { pods: { ready: 5, desired: 6 } } }), { ready: 5, desired: 6 });
    assert.equal(findPodCounts({ pods: { ready: '5', desired: 6 } }), undefined);
  });
});
