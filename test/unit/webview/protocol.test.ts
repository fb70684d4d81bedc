import assert from 'node:assert/strict';
import { answerObjectDetail, buildSnapshot, isHostToWebviewMessage, isWebviewToHostMessage, journeyObjectKey, persistedJourneyId, TIMELINE_PROTOCOL_VERSION } from '../../../src/protocol/timeline-protocol';
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
    ];
    for (const message of messages) assert.equal(isWebviewToHostMessage(message), false, JSON.stringify(message));
  });

  it('checks host messages before the webview switches on them', () => {
    assert.equal(isHostToWebviewMessage({ type: 'snapshot', journeys: [{ id: 'a' }], now: 5 }), true);
    assert.equal(isHostToWebviewMessage({ type: 'snapshot', journeys: [{}] }), false);
    assert.equal(isHostToWebviewMessage({ type: 'snapshot', journeys: [], now: Number.NaN }), false);
    assert.equal(isHostToWebviewMessage({ type: 'reveal', target: { journeyId: 'j', object: pod }, view: 'controlPlane' }), true);
    assert.equal(isHostToWebviewMessage({ type: 'reveal', target: { journeyId: 'j', object: pod }, view: 'graph' }), false);
    assert.equal(isHostToWebviewMessage({ type: 'requestResult', requestId: 4, ok: true }), true);
    assert.equal(isHostToWebviewMessage({ type: 'requestResult', requestId: 4, ok: false }), false);
    assert.equal(isHostToWebviewMessage({ type: 'requestResult', requestId: 4, ok: false, error: 'gone' }), true);
    assert.equal(isHostToWebviewMessage({ type: 'objectDetail', requestId: 4, journeyId: 'j', version: 3, object: { ref: pod, stages: [], children: [] } }), true);
    assert.equal(isHostToWebviewMessage({ type: 'objectDetail', requestId: 4, journeyId: 'j', object: { ref: pod } }), false);
    assert.equal(isHostToWebviewMessage({ type: 'snapshot', journeys: [], compacted: { detailed: ['Pod/a/b'] } }), true);
    assert.equal(isHostToWebviewMessage({ type: 'snapshot', journeys: [], compacted: true }), false);
  });

  it('reads the journey id back from a persisted state, whatever its shape', () => {
    assert.equal(persistedJourneyId({ version: 1, journeyId: 'Deployment/default/web@1' }), 'Deployment/default/web@1');
    assert.equal(persistedJourneyId({ version: 2, journeyId: 'x' }), undefined);
    assert.equal(persistedJourneyId(undefined), undefined);
    assert.equal(persistedJourneyId({ version: 1, journeyId: 42 }), undefined);
  });

  describe('snapshots of large journeys', () => {
    const journey = buildLargeJourney({ pods: 120, nodes: 4, podsPerNode: 28, brokenNode: 'node-3', detailPods: 10 });
    const pods = journey.tree!.children[0].children;

    it('sends small journeys as they are', () => {
      const snapshot = buildSnapshot([journey], { compactAbovePods: 1000, now: 5, source: 'sim' });
      assert.equal(snapshot.journeys[0], journey);
      assert.equal(snapshot.compacted, undefined);
      assert.equal(snapshot.now, 5);
      assert.equal(snapshot.source, 'sim');
    });

    it('keeps the first, the stuck and the selected pods in full and strips the rest to what the lanes draw', () => {
      const selected = pods.find((p, i) => i > 40 && p.status === 'complete')!;
      const snapshot = buildSnapshot([journey], { compactAbovePods: 100, detailedPods: 5, keep: new Set([journeyObjectKey(selected.ref)]) });
      const detailed = new Set(snapshot.compacted!.detailed);
      const out = snapshot.journeys[0].tree!.children[0].children;
      assert.equal(out.length, pods.length);
      const expected = new Set([...pods.slice(0, 5), ...pods.filter((p) => p.status === 'stuck'), selected].map((p) => journeyObjectKey(p.ref)));
      assert.deepEqual(new Set([...detailed].filter((k) => k.startsWith('Pod/'))), expected);
      assert.ok(detailed.has(journeyObjectKey(journey.root)));
      out.forEach((pod, i) => {
        const key = journeyObjectKey(pod.ref);
        if (detailed.has(key)) assert.equal(pod, pods[i], 'detailed pods are the same objects');
        else {
          assert.equal(pod.stages.length, pods[i].stages.length);
          for (const [j, stage] of pod.stages.entries()) {
            assert.deepEqual(stage.evidence, {});
            assert.equal(stage.message, undefined);
            assert.equal(stage.time, pods[i].stages[j].time);
            assert.equal(stage.title, pods[i].stages[j].title);
          }
        }
      });
      assert.ok(pods[60].stages[0].message, 'the journey itself is not modified');
      assert.ok(JSON.stringify(snapshot).length < JSON.stringify(journey).length * 0.6);
    });

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
