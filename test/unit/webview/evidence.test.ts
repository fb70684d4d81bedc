import assert from 'node:assert/strict';
import type { NodeVerdict } from '../../../src/core/internals';
import { formatConditionChange, formatFieldChange, objectEvidence, relativeToApply, schedulingTable, stageEvidence, type EvidenceSection } from '../../../src/webview/model/evidence';
import { buildLargeJourney } from '../../webview/journey-fixtures';

function section(sections: readonly EvidenceSection[], title: string): EvidenceSection {
  const found = sections.find((s) => s.title === title);
  assert.ok(found, `no ${title} section in ${sections.map((s) => s.title).join(', ')}`);
  return found;
}

const verdict = (node: string, fit: boolean, total?: number): NodeVerdict => ({
  node,
  filters: [{ plugin: 'NodeUnschedulable', code: 'Success' }, fit ? { plugin: 'NodeResourcesFit', code: 'Success' } : { plugin: 'NodeResourcesFit', code: 'Unschedulable', reason: 'Insufficient cpu' }],
  ...(fit ? { scores: [{ plugin: 'TaintToleration', score: 300, weight: 3 }, { plugin: 'NodeResourcesFit', score: (total ?? 300) - 300, weight: 1 }], total } : {}),
});

describe('evidence formatting', () => {
  it('writes field and condition changes as path: from → to', () => {
    assert.equal(formatFieldChange({ path: 'spec.nodeName', to: 'node-2' }), 'spec.nodeName: → node-2');
    assert.equal(formatFieldChange({ path: 'status.phase', from: 'Pending', to: 'Running' }), 'status.phase: Pending → Running');
    assert.equal(formatFieldChange({ path: 'metadata.labels[app]', from: 'web' }), 'metadata.labels[app]: web → (removed)');
    assert.equal(formatConditionChange({ type: 'PodScheduled', to: 'True' }), 'PodScheduled: → True');
    assert.equal(formatConditionChange({ type: 'Ready', from: 'False', to: 'True', reason: 'PodCompleted' }), 'Ready: False → True (PodCompleted)');
  });

  it('says when a stamp precedes the apply', () => {
    assert.equal(relativeToApply(25), '+0.025s after the apply');
    assert.equal(relativeToApply(-377), '0.377s before the apply');
  });

  it('lays out the scheduler table: chosen node first, then by score, filters as ✓ or their verbatim reason', () => {
    const table = schedulingTable([verdict('node-3', false), verdict('node-1', true, 390), verdict('node-2', true, 397)], 'node-1');
    assert.deepEqual(table.columns, ['Node', 'Verdict', 'NodeUnschedulable', 'NodeResourcesFit', 'TaintToleration ×3', 'NodeResourcesFit ×1', 'Total']);
    assert.deepEqual(table.numeric, [false, false, false, false, true, true, true]);
    assert.deepEqual(table.rows.map((r) => r.cells), [
      ['node-1', 'chosen', '✓', '✓', '300', '90', '390'],
      ['node-2', 'feasible', '✓', '✓', '300', '97', '397'],
      ['node-3', 'NodeResourcesFit: Insufficient cpu', '✓', 'Insufficient cpu', '', '', ''],
    ]);
    assert.deepEqual(table.rows.map((r) => r.mark), ['chosen', undefined, 'rejected']);
    assert.deepEqual(table.rows[2].failed, [false, true, false, true, false, false, false]);
    assert.equal(table.note, undefined);
  });

  it('marks filters that never ran and caps long tables with a note', () => {
    const stopped: NodeVerdict = { node: 'node-9', filters: [{ plugin: 'NodeUnschedulable', code: 'UnschedulableAndUnresolvable', reason: 'node(s) were unschedulable' }] };
    const table = schedulingTable([verdict('node-1', true, 397), stopped], undefined);
    assert.deepEqual(table.rows[1].cells.slice(0, 4), ['node-9', 'NodeUnschedulable: node(s) were unschedulable', 'node(s) were unschedulable', '—']);
    const many = Array.from({ length: 250 }, (_, i) => verdict(`node-${i}`, true, 300 + (i % 50)));
    const capped = schedulingTable(many, 'node-7', 100);
    assert.equal(capped.rows.length, 100);
    assert.equal(capped.rows[0].cells[0], 'node-7');
    assert.equal(capped.note, '150 more evaluated nodes not shown');
  });

  describe('of journey stages', () => {
    const journey = buildLargeJourney({ pods: 12, nodes: 3, podsPerNode: 3, brokenNode: 'node-2', detailPods: 5 });
    const pods = journey.tree!.children[0].children;

    it('shows a binding with its event message, field change, etcd write, watches and node table', () => {
      const pod = pods[0];
      const index = pod.stages.findIndex((s) => s.kind === 'scheduled');
      const view = stageEvidence(journey, pod, index)!;
      assert.match(view.heading, /^Bound to node-\d$/);
      assert.equal(view.group, 'scheduler');
      assert.equal(view.subject, `Pod shop/${pod.ref.name}`);
      assert.match(view.facts[0], /^\+0\.0\d\ds after the apply · \d\d:\d\d:\d\d\.\d{3} \(from the event time\)$/);
      assert.match(view.facts[1], /^\d+ms after Created by ReplicaSet /);
      const message = section(view.sections, 'Event message');
      assert.equal(message.kind === 'text' && message.text, `Successfully assigned shop/${pod.ref.name} to ${pod.pod!.node}`);
      const fields = section(view.sections, 'Field changes');
      assert.deepEqual(fields.kind === 'list' && fields.items, [`spec.nodeName: → ${pod.pod!.node}`]);
      const etcd = section(view.sections, 'etcd');
      assert.match(etcd.kind === 'list' ? etcd.items[0] : '', new RegExp(`^update /registry/pods/shop/${pod.ref.name} · resourceVersion \\d+ · by default-scheduler · \\+0\\.0\\d\\ds$`));
      const watches = section(view.sections, 'Watch deliveries');
      assert.match(watches.kind === 'list' ? watches.items[0] : '', /^kubelet ← MODIFIED Pod \(resourceVersion \d+\) · \+/);
      const scheduler = section(view.sections, 'Scheduler');
      assert.equal(scheduler.kind, 'table');
      if (scheduler.kind === 'table') {
        assert.match(scheduler.summary, /^Attempt 1: \d+ of \d+ evaluated nodes feasible, 3 in the cluster; bound to node-\d\.$/);
        assert.equal(scheduler.table.rows[0].mark, 'chosen');
        assert.equal(scheduler.table.rows[0].cells[0], pod.pod!.node);
      }
    });

    it('shows an unschedulable pod verbatim, and explains missing per-node verdicts', () => {
      const stuck = pods.filter((p) => p.stuck?.reason === 'FailedScheduling');
      assert.ok(stuck.length > 0);
      const pod = stuck[stuck.length - 1];
      const view = stageEvidence(journey, pod, pod.stages.findIndex((s) => s.kind === 'failedScheduling'))!;
      assert.equal(view.warning, true);
      const message = section(view.sections, 'Event message');
      assert.equal(message.kind === 'text' && message.text, '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.');
      const scheduler = section(view.sections, 'Scheduler');
      assert.equal(scheduler.kind, 'text');
      assert.match(scheduler.kind === 'text' ? scheduler.text : '', /Per-node verdicts were not recorded for this attempt\.$/);
      const object = objectEvidence(journey, pod);
      assert.equal(section(object.sections, 'Stuck').kind, 'text');
      assert.match(object.facts[0], /^status stuck$/);
    });

    it('says what a real cluster does instead of an assumed pull or an assumed run', () => {
      const pod = pods.find((p) => p.stages.some((s) => s.kind === 'pulled'))!;
      const assumed = { ...pod, stages: pod.stages.map((s) => (s.kind === 'pulled' || s.kind === 'containerStarted' ? { ...s, assumed: `assumed: ${s.kind}` } : s)) };
      const sentence = (kind: string): string => {
        const found = section(stageEvidence(journey, assumed, assumed.stages.findIndex((s) => s.kind === kind))!.sections, 'Assumed by the simulator');
        return found.kind === 'text' ? found.text : '';
      };
      assert.equal(sentence('pulled'), 'assumed: pulled. A real cluster pulls the image from its registry, which may not have it (the pod then waits in ImagePullBackOff).');
      assert.equal(sentence('containerStarted'), 'assumed: containerStarted. A real cluster runs the program; its outcome may differ.');
    });

    it('counts repeats of a back-off and summarises objects', () => {
      const pod = pods.find((p) => p.stuck?.reason === 'ImagePullBackOff')!;
      const index = pod.stages.findIndex((s) => s.kind === 'backOff');
      const view = stageEvidence(journey, pod, index)!;
      assert.ok(view.facts.some((f) => /^seen \d+ times, last \+/.test(f)));
      assert.ok(view.facts.includes('container web'));
      const rs = objectEvidence(journey, journey.tree!.children[0]);
      const replicas = section(rs.sections, 'Replicas');
      assert.match(replicas.kind === 'list' ? replicas.items[0] : '', /^\d+\/12 ready/);
      assert.equal(stageEvidence(journey, pod, 999), undefined);
    });
  });
});
