import assert from 'node:assert/strict';
import { planApply } from '../../../src/extension/headless/apply-plan';

describe('apply plan of a manifest the YAML library refuses while converting it', () => {
  it('turns an alias bomb into a diagnostic on its file line and sends nothing', () => {
    const levels = Array.from({ length: 6 }, (_, i) => `  l${i + 1}: &l${i + 1} [${Array(9).fill(`*l${i}`).join(',')}]`);
    const text = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: lol', 'data:', '  l0: &l0 lol', ...levels, ''].join('\n');
    const plan = planApply(text, { startLine: 20 });
    assert.equal(plan.documents.length, 0);
    assert.equal(plan.problems.length, 1);
    const [problem] = plan.problems;
    assert.match(problem.message, /^Excessive alias count indicates a resource exhaustion attack/);
    // l3 (line 9 of the text) passes the limit at its second alias of l2 (2 × 81 copies): line 29 of the file.
    assert.deepEqual([problem.line, problem.column, problem.severity], [29, 16, 'error']);
  });
});
