/**
 * The scheduler's per-node verdicts for one pod, as a Markdown document: which filter plugin
 * rejected each node and why (verbatim), and the scores of the feasible ones. The simulator
 * records every cycle; a real cluster only says the summary (FailedScheduling), which is then
 * broken down into its per-reason counts.
 */
import { cycleVerdicts } from '../../common/verdict-table';
import type { NodeVerdict, SchedulingCycle } from '../../core/internals';
import type { ObjectJourney, Stage } from '../../core/journey/types';

/** Rows shown before the rest are counted (a 5,000-node cluster). */
const ROWS = 200;

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The latest scheduling cycle recorded for the pod, with the stage that carries it. */
export function latestCycle(pod: ObjectJourney): { cycle: SchedulingCycle; stage: Stage } | undefined {
  for (let i = pod.stages.length - 1; i >= 0; i--) {
    const cycle = pod.stages[i].evidence.internals?.scheduling;
    if (cycle) return { cycle, stage: pod.stages[i] };
  }
  return undefined;
}

/**
 * `0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient cpu. preemption: …`
 * → the per-reason counts.
 */
export function fitErrorReasons(message: string): { count: number; reason: string }[] {
  const match = /^0\/\d+ nodes are available: (.*?)\.(?: preemption:|$)/.exec(message.trim());
  if (!match) return [];
  return match[1].split(', ').flatMap((part) => {
    const m = /^(\d+) (.+)$/.exec(part);
    return m ? [{ count: Number(m[1]), reason: m[2] }] : [];
  });
}

function verdictRow(verdict: NodeVerdict, chosen: string | undefined): string {
  const failed = verdict.filters.find((f) => f.code !== 'Success');
  if (failed) return `| ${cell(verdict.node)} | ✗ ${failed.code} | ${cell(failed.plugin)} | ${cell(failed.reason ?? '')} |`;
  const scores = verdict.scores?.map((s) => `${s.plugin} ${s.score}${s.weight !== 1 ? ` (weight ${s.weight})` : ''}`).join(', ') ?? '';
  const total = verdict.total !== undefined ? `total ${verdict.total}` : 'feasible';
  return `| ${cell(verdict.node)}${verdict.node === chosen ? ' ★' : ''} | ✓ ${total} | all filters passed | ${cell(scores)} |`;
}

function timeOf(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', ' UTC');
}

export function schedulerVerdictsMarkdown(pod: ObjectJourney): string {
  const title = `# Scheduler verdicts for pod ${pod.ref.namespace}/${pod.ref.name}`;
  const found = latestCycle(pod);
  const failedStage = [...pod.stages].reverse().find((s) => s.kind === 'failedScheduling');
  const lines = [title, ''];
  if (!found) {
    if (failedStage?.message) {
      lines.push('default-scheduler:', '', `> ${failedStage.message}`, '');
      const reasons = fitErrorReasons(failedStage.message);
      if (reasons.length > 0) {
        lines.push('| nodes | reason |', '| ---: | --- |', ...reasons.map((r) => `| ${r.count} | ${cell(r.reason)} |`), '');
      }
      lines.push('Per-node verdicts are recorded by the built-in simulator only; a real cluster reports this summary.');
    } else if (pod.pod?.node) {
      lines.push(`Bound to ${pod.pod.node}. No scheduling cycle was recorded (a real cluster does not report per-node verdicts).`);
    } else {
      lines.push('The scheduler has not reported on this pod yet.');
    }
    return `${lines.join('\n')}\n`;
  }
  const { cycle } = found;
  lines.push(`Attempt ${cycle.attempt} at ${timeOf(cycle.time)}: **${cycle.result}**${cycle.node ? ` on ${cycle.node}` : ''}.`, '');
  if (cycle.message) lines.push(`> ${cycle.message}`, '');
  lines.push(`${cycle.evaluatedNodes} of ${cycle.totalNodes} nodes evaluated, ${cycle.feasibleNodes} feasible.`, '');
  const verdicts = cycleVerdicts(cycle);
  if (verdicts.length === 0) {
    lines.push('Per-node verdicts were not recorded for this attempt.');
  } else {
    const sorted = [...verdicts].sort((a, b) => (b.total ?? -1) - (a.total ?? -1) || a.node.localeCompare(b.node, undefined, { numeric: true }));
    lines.push('| node | verdict | plugin | reason / scores |', '| --- | --- | --- | --- |');
    for (const verdict of sorted.slice(0, ROWS)) lines.push(verdictRow(verdict, cycle.node));
    if (sorted.length > ROWS) lines.push('', `… and ${sorted.length - ROWS} more nodes.`);
  }
  return `${lines.join('\n')}\n`;
}
