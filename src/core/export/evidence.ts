/**
 * A stage's evidence as an export carries it: the field and condition changes, the event and the
 * field manager as they are, the simulator's internals summed up. A scheduling cycle's per-node
 * verdict table and every watch delivery would make a 10,000-pod export many times its journey
 * file; the tree and the hovers keep them.
 */
import type { Stage, StageEvidence } from '../journey/types';

/** Plain JSON data, as the exports hold it. */
export type ExportValue = string | number | boolean | ExportValue[] | { [key: string]: ExportValue };

function plain(value: unknown): ExportValue | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value)) return value.map((item) => plain(item)).filter((item): item is ExportValue => item !== undefined);
  if (typeof value === 'object') {
    const out: Record<string, ExportValue> = {};
    for (const [key, item] of Object.entries(value)) {
      const kept = plain(item);
      if (kept !== undefined) out[key] = kept;
    }
    return out;
  }
  return undefined;
}

/** The evidence of a stage, summed up as described above; undefined when there is none. */
export function exportedEvidence(evidence: StageEvidence): Record<string, ExportValue> | undefined {
  const out: Record<string, ExportValue> = {};
  if (evidence.fields?.length) out.fields = plain(evidence.fields)!;
  if (evidence.conditions?.length) out.conditions = plain(evidence.conditions)!;
  if (evidence.event) out.event = plain(evidence.event)!;
  if (evidence.manager) out.manager = plain(evidence.manager)!;
  const internals = evidence.internals;
  if (internals) {
    const summary: Record<string, ExportValue> = {};
    if (internals.etcd?.length) summary.etcd = internals.etcd.map((write) => `${write.verb} ${write.key} rv=${write.resourceVersion} by ${write.actor}`);
    if (internals.watch?.length) summary.watchDeliveries = internals.watch.length;
    const cycle = internals.scheduling;
    if (cycle) {
      summary.scheduling = plain({
        attempt: cycle.attempt,
        result: cycle.result,
        node: cycle.node,
        totalNodes: cycle.totalNodes,
        evaluatedNodes: cycle.evaluatedNodes,
        feasibleNodes: cycle.feasibleNodes,
        message: cycle.message,
      })!;
    }
    if (internals.schedulingAttempts !== undefined) summary.schedulingAttempts = internals.schedulingAttempts;
    if (Object.keys(summary).length > 0) out.internals = summary;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** What a stage says, as flat fields: its kind, component, reason, message, container and repeats. */
export function stageFacts(stage: Stage): Record<string, string | number | boolean> {
  const facts: Record<string, string | number | boolean> = { kind: stage.kind, component: stage.component, title: stage.title, timeSource: stage.timeSource };
  if (stage.reason !== undefined) facts.reason = stage.reason;
  if (stage.message !== undefined) facts.message = stage.message;
  if (stage.container !== undefined) facts.container = stage.container;
  if (stage.warning) facts.warning = true;
  if (stage.count !== undefined) facts.count = stage.count;
  if (stage.assumed !== undefined) facts.assumed = stage.assumed;
  return facts;
}
