import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { KubeObject, Pod } from '../../../src/core/k8s';
import { planApply } from '../../../src/extension/headless/apply-plan';
import { FIT_DIAGNOSTIC_CODE, fitDiagnostics, fitQuickFixes, fitQuickFixTitle, type RefusedPod } from '../../../src/extension/headless/fit-diagnostics';
import { applyChange } from '../../../src/extension/headless/fit-yaml-edit';
import { Simulator } from '../../../src/sim/simulator';

/** Each document applied to a 3-node simulator; the first refused pod of each with what the simulator suggests, as the extension gets them from the fits route. */
function refusedPods(plan: ReturnType<typeof planApply>): RefusedPod[] {
  const sim = new Simulator({ nodes: 3, seed: 3 });
  for (const document of plan.documents) sim.apply(document.object!);
  sim.runUntil(() => false, 5_000);
  const pods = sim.store.list<Pod & KubeObject>('Pod').items.filter((pod) => !pod.spec?.nodeName);
  return plan.documents.flatMap((document, index) => {
    const name = document.object!.metadata!.name!;
    const pod = pods.find((p) => p.metadata?.name === name || p.metadata?.name?.startsWith(`${name}-`));
    if (!pod) return [];
    const message = sim.store.list<KubeObject & { reason?: string; message?: string; involvedObject?: { name?: string } }>('Event').items.find((e) => e.reason === 'FailedScheduling' && e.involvedObject?.name === pod.metadata?.name)?.message ?? '';
    return [{ document: index, pod: { namespace: 'default', name: pod.metadata!.name! }, stuck: { reason: 'FailedScheduling', message }, fits: sim.components.scheduler.suggestFits(pod) }];
  });
}

const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((line) => line.includes(needle)) + 1;

describe('fit diagnostics: a refused pod on the line a change would make it fit', () => {
  const text = readFileSync('test/fixtures/fit-quick-fix.yaml', 'utf8');
  const plan = planApply(text);
  const refused = refusedPods(plan);

  it('puts the scheduler’s message and the suggestion on the cpu line', () => {
    const [problem, ...more] = fitDiagnostics(plan, refused);
    assert.equal(more.length, 0);
    assert.equal(problem.line, lineOf(text, 'cpu: "8"'));
    assert.equal(problem.code, FIT_DIAGNOSTIC_CODE);
    assert.equal(problem.severity, 'warning');
    assert.match(problem.message, /^Pod too-big-[a-z0-9]+-[a-z0-9]{5} is not scheduled: FailedScheduling: 0\/3 nodes are available: 3 Insufficient cpu\./);
    assert.match(problem.message, /\nFits if: requests\.cpu ≤ 3920m \(fits on 3 of 3 nodes\)$/);
    assert.deepEqual(problem.suggestions.map((s) => s.kind), ['cpu']);
  });

  it('maps the editor’s diagnostic to one Quick Fix per suggestion, by code and words, wherever the line moved', () => {
    const problems = fitDiagnostics(plan, refused);
    const diagnostics = [{ message: 'something else', code: 'Invalid' }, { message: problems[0].message, code: FIT_DIAGNOSTIC_CODE }];
    const [fix, ...more] = fitQuickFixes(text, diagnostics, problems);
    assert.equal(more.length, 0);
    assert.deepEqual({ title: fix.title, diagnostic: fix.diagnostic, preferred: fix.preferred }, { title: 'Set cpu: 3920m (fits on 3 of 3 nodes)', diagnostic: 1, preferred: true });
    const fixed = applyChange(text, fix.change);
    assert.equal(fixed.split('\n')[lineOf(text, 'cpu: "8"') - 1], '            cpu: 3920m  # more than a node has');
    // Lines added above the field: the fix still edits the field.
    const moved = `# a new comment\n${text}`;
    assert.equal(applyChange(moved, fitQuickFixes(moved, diagnostics, problems)[0].change), `# a new comment\n${fixed}`);
    // Taken already, another code, other words: nothing to offer.
    assert.deepEqual(fitQuickFixes(fixed, diagnostics, problems), []);
    assert.deepEqual(fitQuickFixes(text, [{ message: problems[0].message, code: 'Invalid' }], problems), []);
    assert.deepEqual(fitQuickFixes(text, [{ message: `${problems[0].message}!`, code: FIT_DIAGNOSTIC_CODE }], problems), []);
  });

  it('places each suggestion of test/fixtures/fit-stuck.yaml on its own field, and titles the fixes by their edits', () => {
    const stuck = readFileSync('test/fixtures/fit-stuck.yaml', 'utf8');
    const stuckPlan = planApply(stuck);
    const problems = fitDiagnostics(stuckPlan, refusedPods(stuckPlan));
    const at = (kind: string): number | undefined => problems.find((p) => p.suggestions.some((s) => s.kind === kind && !s.together))?.line;
    assert.equal(at('cpu'), lineOf(stuck, 'cpu: "8"'));
    assert.equal(at('memory'), lineOf(stuck, 'memory: 64Gi'));
    assert.equal(at('nodeSelector'), lineOf(stuck, 'nodeSelector:'));
    assert.equal(at('nodeAffinity'), lineOf(stuck, 'values: [arm64]'));
    assert.equal(at('replicas'), lineOf(stuck, 'replicas: 4'));
    assert.equal(at('claim'), lineOf(stuck, 'claimName: data'));
    const titles = problems.flatMap((p) => p.suggestions.map(fitQuickFixTitle));
    for (const title of [
      'Set memory: 14442Mi (fits on 3 of 3 nodes)',
      'Set nodeSelector: kubernetes.io/os: linux (fits on 3 of 3 nodes)',
      'Add amd64 to values (fits on 3 of 3 nodes)',
      'Set replicas: 3 (fits on 3 of 3 nodes)',
      'Create PersistentVolumeClaim data (fits on 3 of 3 nodes)',
      'Set cpu: 3920m and set nodeSelector: kubernetes.io/os: linux (fits on 3 of 3 nodes)',
      'Remove requiredDuringSchedulingIgnoredDuringExecution[0] (fits on 3 of 3 nodes)',
    ]) {
      assert.ok(titles.includes(title), `${title} in ${titles.join(' | ')}`);
    }
  });
});
