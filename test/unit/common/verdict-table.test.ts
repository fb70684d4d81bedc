import assert from 'node:assert/strict';
import {
  cycleVerdicts,
  decodeOutcomes,
  encodeOutcomes,
  expandVerdictTable,
  nodeListResolver,
  nodeListsOnce,
  SCORED_ROWS_KEPT,
  verdictTableOf,
  type NodeVerdict,
  type VerdictTable,
} from '../../../src/common/verdict-table';

const passed = (plugins: string[]): NodeVerdict['filters'] => plugins.map((plugin) => ({ plugin, code: 'Success' }));
const PLUGINS = ['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeResourcesFit'];

function scoredRow(node: string, fit: number): NodeVerdict {
  return { node, filters: passed(PLUGINS), scores: [{ plugin: 'TaintToleration', score: 300, weight: 3 }, { plugin: 'NodeResourcesFit', score: fit, weight: 1 }], total: 300 + fit };
}

function rejectedRow(node: string, reason: string): NodeVerdict {
  return { node, filters: [...passed(PLUGINS.slice(0, 3)), { plugin: 'NodeResourcesFit', code: 'Unschedulable', reason }] };
}

describe('verdict tables', () => {
  it('run-length encodes per-node outcomes and decodes them back', () => {
    const outcomes = [0, 0, 0, 2, 2, 1, 0];
    assert.equal(encodeOutcomes(outcomes), '3*0 2*2 1*1 1*0');
    assert.deepEqual(decodeOutcomes(encodeOutcomes(outcomes)), outcomes);
    assert.deepEqual(decodeOutcomes(''), []);
  });

  it('rebuilds the rows it encoded: scored nodes by total, then rejected ones with their first failing filter', () => {
    const rows = [scoredRow('node-3', 90), scoredRow('node-1', 80), rejectedRow('node-2', 'Insufficient cpu'), rejectedRow('node-4', 'Insufficient memory'), rejectedRow('node-5', 'Insufficient cpu')];
    const table = verdictTableOf(rows);
    assert.equal(table.failures.length, 2, 'identical failures are stored once');
    assert.deepEqual(expandVerdictTable(table), rows);
  });

  it('keeps the scores of the best feasible nodes only', () => {
    const rows = Array.from({ length: SCORED_ROWS_KEPT + 3 }, (_, i) => scoredRow(`node-${i}`, 100 - i));
    const expanded = expandVerdictTable(verdictTableOf(rows));
    assert.equal(expanded.length, rows.length);
    assert.equal(expanded.filter((row) => row.total !== undefined).length, SCORED_ROWS_KEPT);
    assert.deepEqual(expanded.slice(SCORED_ROWS_KEPT).map((row) => [row.node, row.total, row.filters.every((f) => f.code === 'Success')]), rows.slice(SCORED_ROWS_KEPT).map((row) => [row.node, undefined, true]));
  });

  it('names a walk’s nodes from the shared node list, wrapping around its end', () => {
    const table: VerdictTable = {
      nodes: { list: { id: 1, names: ['a', 'b', 'c', 'd'] }, start: 2, count: 3 },
      filters: PLUGINS,
      outcomes: '1*0 1*1 1*0',
      failures: [{ plugin: 'TaintToleration', code: 'UnschedulableAndUnresolvable', reason: 'node(s) had untolerated taint {x: y}' }],
      scorePlugins: [],
      scored: [],
    };
    assert.deepEqual(
      cycleVerdicts({ table }).map((row) => [row.node, row.filters.at(-1)?.code]),
      [
        ['c', 'Success'],
        ['a', 'Success'],
        ['d', 'UnschedulableAndUnresolvable'],
      ],
    );
    assert.deepEqual(cycleVerdicts({}), []);
  });

  it('sends each node list once on a stream, and the reader puts it back', () => {
    const list = { id: 7, names: ['a', 'b'] };
    const step = (start: number) => ({ type: 'schedulingCycle', table: { nodes: { list, start, count: 1 }, filters: [], outcomes: '1*0', failures: [], scorePlugins: [], scored: [] } });
    const replacer = nodeListsOnce();
    const lines = [JSON.stringify(step(0), replacer), JSON.stringify(step(1), replacer)];
    assert.ok(lines[0].includes('"names"'));
    assert.ok(!lines[1].includes('"names"'), 'the second attempt refers to the list by id');
    const resolve = nodeListResolver();
    const read = lines.map((line) => JSON.parse(line) as { table: VerdictTable });
    for (const r of read) resolve(r);
    assert.deepEqual(read.map((r) => cycleVerdicts(r).map((row) => row.node)), [['a'], ['b']]);
  });
});
