/** The small parts of journey files: where JSON stops being JSON, the tool version, the schema's strictness. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { TOOL_VERSION } from '../../../src/common/tool-version';
import { jsonErrorOffset, lineAndColumn } from '../../../src/core/journey-file/json-position';
import { formatJourneyFile } from '../../../src/core/journey-file/read';
import type { JourneyFile } from '../../../src/core/journey-file/types';
import { assertMatchesSchema } from './schema';

describe('journey file parts', () => {
  it('places the first character that is not JSON; the end of the text when it ends too early; -1 when valid', () => {
    const cases: [string, number][] = [
      ['{"a":1,\n "b": x}', 14],
      ['{"a": [1,2', 10],
      ['{"a":"abc', 9],
      ['[1,2,]', 5],
      ['{"a" 1}', 5],
      ['tr', 2],
      ['{"a":1} x', 8],
      ['{"a":"\\u12"}', 10],
      ['{"a":[{"b":[]},{}],"c":null,"d":-1.5e3,"e":"\\n"}', -1],
    ];
    for (const [text, offset] of cases) {
      assert.equal(jsonErrorOffset(text), offset, text);
      if (offset === -1) assert.doesNotThrow(() => JSON.parse(text));
      else assert.throws(() => JSON.parse(text));
    }
    assert.deepEqual(lineAndColumn('ab\ncd\nef', 7), { line: 3, column: 2 });
  });

  it('the tool version written into files is package.json\'s', () => {
    assert.equal(TOOL_VERSION, (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
  });

  it('the schema accepts a written file and refuses one with a column of no known form or a field it does not know', () => {
    const file: JourneyFile = {
      meta: { toolVersion: TOOL_VERSION, createdAt: '2026-01-01T00:00:00.000Z', source: 'x.yaml', target: { type: 'context', context: 'kind-kind' }, exitCode: 1, outcome: 'timeout', limit: 'within 300s' },
      results: [{ document: 0, line: 1, object: 'pod/x', error: 'no', clientError: true, hint: 'fix it' }],
      warnings: ['kube-journey: warning: x'],
      claimNotes: [],
      journeys: [],
      stored: [],
      unfinished: ['kube-journey: pod/x did not finish'],
      closing: [],
      extra: { context: 'kind-kind', problems: [] },
    };
    const document = JSON.parse(formatJourneyFile(file)) as Record<string, unknown>;
    assertMatchesSchema(document, 'a file without journeys');
    const validate = new Ajv().compile(JSON.parse(readFileSync('docs/journey-file.schema.json', 'utf8')) as object);
    assert.equal(validate({ ...document, groups: [{ shape: 0, rows: 1, columns: [{ q: 1 }] }] }), false);
    assert.equal(validate({ ...document, surprise: true }), false);
    assert.equal(validate({ ...document, meta: { ...(document.meta as object), token: 'x' } }), false);
  });
});
