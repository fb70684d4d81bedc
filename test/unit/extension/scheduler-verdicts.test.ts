import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { allPods } from '../../../src/core/explain/live';
import { fitErrorReasons, schedulerVerdictsMarkdown } from '../../../src/extension/headless/scheduler-verdicts';
import { goldenJourney, simulatedJourneys } from './fixtures';

describe('scheduler verdicts', () => {
  it('lists the filter that rejected each node, verbatim, for a pod the simulator could not place', () => {
    const { journeys } = simulatedJourneys(readFileSync('examples/node-selector.yaml', 'utf8'));
    // The run stops once the journey is stuck: the pod the scheduler has already turned down.
    const pod = allPods(journeys[0]).find((candidate) => candidate.stages.some((stage) => stage.kind === 'failedScheduling'))!;
    const markdown = schedulerVerdictsMarkdown(pod);
    assert.match(markdown, /^# Scheduler verdicts for pod default\/ssd-only-/);
    assert.match(markdown, /\*\*Unschedulable\*\*/);
    assert.ok(markdown.includes("> 0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."), markdown);
    const rows = markdown.split('\n').filter((line) => /^\| node-\d/.test(line));
    assert.equal(rows.length, 3);
    for (const row of rows) assert.match(row, /\| ✗ UnschedulableAndUnresolvable \| NodeAffinity \| node\(s\) didn't match Pod's node affinity\/selector \|$/);
  });

  it('shows the scores of feasible nodes and marks the chosen one', () => {
    const { journeys } = simulatedJourneys(readFileSync('examples/resource-requests.yaml', 'utf8'));
    const [pod] = allPods(journeys[0]);
    const markdown = schedulerVerdictsMarkdown(pod);
    assert.match(markdown, /\*\*Scheduled\*\* on (node-\d)/);
    const chosen = /on (node-\d)/.exec(markdown)![1];
    assert.match(markdown, new RegExp(`\\| ${chosen} ★ \\| ✓ total \\d+ \\| all filters passed \\| .*NodeResourcesFit \\d+`));
  });

  it('breaks a real cluster\'s FailedScheduling message into its reasons', () => {
    const pod = allPods(goldenJourney('unschedulable'))[0];
    const markdown = schedulerVerdictsMarkdown(pod);
    assert.match(markdown, /\| 3 \| Insufficient cpu \|/);
    assert.match(markdown, /recorded by the built-in simulator only/);
    assert.deepEqual(fitErrorReasons("0/5 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 4 Insufficient memory. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling."), [
      { count: 1, reason: 'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }' },
      { count: 4, reason: 'Insufficient memory' },
    ]);
    assert.deepEqual(fitErrorReasons('something else'), []);
  });
});
