import assert from 'node:assert/strict';
import { buildLanes } from '../../../src/webview/model/lanes';
import { defaultViewState, keyAction, moveCursor, restoreViewState } from '../../../src/webview/model/navigation';
import { buildLargeJourney } from '../../webview/journey-fixtures';

const journey = buildLargeJourney({ pods: 3, nodes: 3, brokenNode: '' });
const lanes = buildLanes(journey.tree, journey.appliedAt, journey.lastChangeAt, { showAllPods: false }).lanes;
const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('lanes keyboard model', () => {
  it('maps keys to actions and leaves the rest to the browser', () => {
    assert.deepEqual(keyAction(key('ArrowDown')), { type: 'move', key: 'ArrowDown', toEdge: false });
    assert.deepEqual(keyAction(key('Home', { ctrlKey: true })), { type: 'move', key: 'Home', toEdge: true });
    assert.deepEqual(keyAction(key('Enter')), { type: 'select' });
    assert.deepEqual(keyAction(key(' ')), { type: 'select' });
    assert.deepEqual(keyAction(key('Escape')), { type: 'clearSelection' });
    assert.deepEqual(keyAction(key('+')), { type: 'zoom', factor: 0.5 });
    assert.deepEqual(keyAction(key('-')), { type: 'zoom', factor: 2 });
    assert.deepEqual(keyAction(key('0')), { type: 'fit' });
    assert.deepEqual(keyAction(key('l')), { type: 'toggleScale' });
    assert.equal(keyAction(key('Tab')), undefined);
    assert.equal(keyAction(key('c', { ctrlKey: true })), undefined);
    assert.equal(keyAction(key('ArrowDown', { altKey: true })), undefined);
  });

  it('moves between stages of a lane and stops at its ends', () => {
    const podLane = lanes[2];
    assert.equal(podLane.type, 'object');
    const count = podLane.type === 'object' ? podLane.object.stages.length : 0;
    let cursor = moveCursor(lanes, { laneIndex: 2 }, 'ArrowRight', false, 5);
    assert.deepEqual(cursor, { laneIndex: 2, stageIndex: 0 });
    cursor = moveCursor(lanes, cursor, 'ArrowRight', false, 5);
    assert.deepEqual(cursor, { laneIndex: 2, stageIndex: 1 });
    assert.deepEqual(moveCursor(lanes, cursor, 'ArrowLeft', false, 5), { laneIndex: 2, stageIndex: 0 });
    assert.deepEqual(moveCursor(lanes, { laneIndex: 2, stageIndex: 0 }, 'ArrowLeft', false, 5), { laneIndex: 2, stageIndex: 0 });
    assert.deepEqual(moveCursor(lanes, cursor, 'End', false, 5), { laneIndex: 2, stageIndex: count - 1 });
    assert.deepEqual(moveCursor(lanes, { laneIndex: 2, stageIndex: count - 1 }, 'ArrowRight', false, 5), { laneIndex: 2, stageIndex: count - 1 });
  });

  it('moves between lanes to the stage nearest in time', () => {
    const pod0 = lanes[2].type === 'object' ? lanes[2].object : undefined;
    const pod1 = lanes[3].type === 'object' ? lanes[3].object : undefined;
    const scheduledIndex = pod0!.stages.findIndex((s) => s.kind === 'scheduled');
    const down = moveCursor(lanes, { laneIndex: 2, stageIndex: scheduledIndex }, 'ArrowDown', false, 5)!;
    assert.equal(down.laneIndex, 3);
    const target = pod1!.stages[down.stageIndex!];
    for (const stage of pod1!.stages) assert.ok(Math.abs(target.time - pod0!.stages[scheduledIndex].time) <= Math.abs(stage.time - pod0!.stages[scheduledIndex].time));
    assert.equal(moveCursor(lanes, { laneIndex: 0 }, 'ArrowUp', false, 5)!.laneIndex, 0);
    assert.equal(moveCursor(lanes, { laneIndex: 0 }, 'ArrowDown', true, 5)!.laneIndex, lanes.length - 1);
    assert.equal(moveCursor(lanes, { laneIndex: 0 }, 'PageDown', false, 2)!.laneIndex, 2);
    assert.deepEqual(moveCursor(lanes, undefined, 'ArrowDown', false, 5), { laneIndex: 0, stageIndex: 0 });
    assert.equal(moveCursor(lanes, undefined, 'End', true, 5)!.laneIndex, lanes.length - 1, 'Ctrl+End jumps to the last lane even before any other move');
    assert.equal(moveCursor([], undefined, 'ArrowDown', false, 5), undefined);
  });

  it('restores a saved view state and repairs a broken one', () => {
    const saved = { ...defaultViewState(), journeyId: 'j', view: 'controlPlane', scale: 'log', scrollTop: 420, window: { startMs: 5, endMs: 50 }, showAllPods: true, controlPlaneStep: 7, selection: { journeyId: 'j', object: { kind: 'Pod', namespace: 'default', name: 'web-1' }, stageKey: 'ready' } };
    assert.deepEqual(restoreViewState(JSON.parse(JSON.stringify(saved))), saved);
    assert.deepEqual(restoreViewState(null), defaultViewState());
    assert.deepEqual(restoreViewState({ version: 0, view: 'controlPlane' }), defaultViewState());
    const repaired = restoreViewState({ version: 1, view: 'graph', scale: 'cubic', scrollTop: -5, window: { startMs: 9, endMs: 3 }, selection: { journeyId: 'j' }, controlPlaneStep: 'x' });
    assert.deepEqual(repaired, defaultViewState());
  });
});
