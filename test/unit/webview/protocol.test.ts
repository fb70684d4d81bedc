import assert from 'node:assert/strict';
import { answerObjectDetail, isHostToWebviewMessage, isWebviewToHostMessage, persistedJourneyId, TIMELINE_PROTOCOL_VERSION } from '../../../src/protocol/timeline-protocol';
import { buildSnapshot } from '../../../src/protocol/timeline-sync';
import { buildLargeJourney } from '../../webview/journey-fixtures';

const pod = { kind: 'Pod', namespace: 'default', name: 'web-1' };

describe('timeline protocol guards', () => {
  it('accepts every webview message in its documented shape', () => {
    const messages: unknown[] = [
      { type: 'ready', protocolVersion: TIMELINE_PROTOCOL_VERSION },
      { type: 'selectionChanged' },
      { type: 'selectionChanged', selection: { journeyId: 'j', object: pod, stageKey: 'scheduled' } },
      { type: 'openObjectYaml', requestId: 1, journeyId: 'j', object: pod, time: 1_767_268_800_025 },
      { type: 'openObjectYaml', requestId: 2, journeyId: 'j', object: pod },
      { type: 'revealInTree', requestId: 3, journeyId: 'j', object: pod },
      { type: 'requestObjectDetail', requestId: 4, journeyId: 'j', object: pod },
      { type: 'resync', lastSeq: 3 },
      { type: 'resync', lastSeq: -1 },
      { type: 'requestAllPods', journeyId: 'j' },
      { type: 'webviewError', message: 'boom' },
    ];
    for (const message of messages) assert.equal(isWebviewToHostMessage(message), true, JSON.stringify(message));
  });

  it('rejects unknown types, missing ids and objects of kinds a journey cannot hold', () => {
    const messages: unknown[] = [
      null,
      'ready',
      { type: 'ready' },
      { type: 'nope' },
      { type: 'openObjectYaml', journeyId: 'j', object: pod },
      { type: 'openObjectYaml', requestId: 1.5, journeyId: 'j', object: pod },
      { type: 'openObjectYaml', requestId: 1, journeyId: 'j', object: { ...pod, kind: 'Secret' } },
      { type: 'openObjectYaml', requestId: 1, journeyId: 'j', object: pod, time: '12:00' },
      { type: 'selectionChanged', selection: { journeyId: 'j', object: { kind: 'Pod', name: 'x' } } },
      { type: 'resync' },
      { type: 'resync', lastSeq: 1.5 },
      { type: 'requestAllPods' },
    ];
    for (const message of messages) assert.equal(isWebviewToHostMessage(message), false, JSON.stringify(message));
  });

  it('checks host messages before the webview switches on them', () => {
    const snapshot = buildSnapshot([], { now: 5 });
    assert.equal(isHostToWebviewMessage(snapshot), true);
    assert.equal(isHostToWebviewMessage({ ...snapshot, seq: -1 }), false);
    assert.equal(isHostToWebviewMessage({ ...snapshot, now: Number.NaN }), false);
    assert.equal(isHostToWebviewMessage({ type: 'snapshot', seq: 0, journeys: [{}], lanes: [] }), false);
    assert.equal(isHostToWebviewMessage({ type: 'reveal', target: { journeyId: 'j', object: pod }, view: 'controlPlane' }), true);
    assert.equal(isHostToWebviewMessage({ type: 'reveal', target: { journeyId: 'j', object: pod }, view: 'graph' }), false);
    assert.equal(isHostToWebviewMessage({ type: 'requestResult', requestId: 4, ok: true }), true);
    assert.equal(isHostToWebviewMessage({ type: 'requestResult', requestId: 4, ok: false }), false);
    assert.equal(isHostToWebviewMessage({ type: 'requestResult', requestId: 4, ok: false, error: 'gone' }), true);
    assert.equal(isHostToWebviewMessage({ type: 'objectDetail', requestId: 4, journeyId: 'j', version: 3, object: { ref: pod, stages: [], children: [] } }), true);
    assert.equal(isHostToWebviewMessage({ type: 'objectDetail', requestId: 4, journeyId: 'j', object: { ref: pod } }), false);
  });

  it('reads the journey id back from a persisted state, whatever its shape', () => {
    assert.equal(persistedJourneyId({ version: 1, journeyId: 'Deployment/default/web@1' }), 'Deployment/default/web@1');
    assert.equal(persistedJourneyId({ version: 2, journeyId: 'x' }), undefined);
    assert.equal(persistedJourneyId(undefined), undefined);
    assert.equal(persistedJourneyId({ version: 1, journeyId: 42 }), undefined);
  });

  describe('object detail', () => {
    const journey = buildLargeJourney({ pods: 120, nodes: 4, podsPerNode: 28, brokenNode: 'node-3', detailPods: 10 });
    const pods = journey.tree!.children[0].children;

    it('answers a detail request with the full object, or an error', () => {
      const request = { type: 'requestObjectDetail', requestId: 9, journeyId: journey.id, object: pods[70].ref } as const;
      const answer = answerObjectDetail(journey, request);
      assert.equal(answer.type, 'objectDetail');
      if (answer.type === 'objectDetail') {
        assert.equal(answer.version, journey.version);
        assert.deepEqual(answer.object, { ...pods[70], children: [] });
      }
      const missing = answerObjectDetail(journey, { ...request, object: { kind: 'Pod', namespace: 'shop', name: 'gone' } });
      assert.deepEqual(missing, { type: 'requestResult', requestId: 9, ok: false, error: 'Pod shop/gone is no longer part of this journey.' });
      assert.equal(answerObjectDetail(undefined, request).type, 'requestResult');
    });
  });
});
