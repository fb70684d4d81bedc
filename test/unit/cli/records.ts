/** Reads `kube-journey trace --json` output as its users do: one JSON record per line. */
import assert from 'node:assert/strict';
import type { JourneyRecord, ObjectRecord, ResultRecord, StoredRecord, SummaryRecord, TraceRecord } from '../../../src/cli/trace-json';

export interface TraceRecords {
  all: TraceRecord[];
  results: ResultRecord[];
  journeys: JourneyRecord[];
  objects: ObjectRecord[];
  stored: StoredRecord[];
  summary: SummaryRecord;
}

/** Parses every line on its own (failing on the first that is not JSON) and checks there is exactly one summary, last. */
export function parseRecords(text: string): TraceRecords {
  assert.ok(text.endsWith('\n'), 'the output ends with a newline');
  const all = text
    .slice(0, -1)
    .split('\n')
    .map((line, index) => {
      try {
        return JSON.parse(line) as TraceRecord;
      } catch (error) {
        assert.fail(`line ${index + 1} is not JSON (${String(error)}): ${line.slice(0, 200)}`);
      }
    });
  const of = <T extends TraceRecord['type']>(type: T) => all.filter((record): record is Extract<TraceRecord, { type: T }> => record.type === type);
  const summaries = of('summary');
  assert.equal(summaries.length, 1, 'one summary record');
  assert.equal(all[all.length - 1], summaries[0], 'the summary comes last');
  return { all, results: of('result'), journeys: of('journey'), objects: of('object'), stored: of('stored'), summary: summaries[0] };
}
