/**
 * What the details pane shows for a selected stage (or a whole object): plain strings and tables,
 * built without the DOM. Kubernetes' own text (event and condition messages, scheduler reasons)
 * is passed through verbatim; the view puts every string in with `textContent`.
 */
import { cycleVerdicts } from '../../common/verdict-table';
import { formatDuration, formatOffset } from '../../common/duration-format';
import type { NodeVerdict } from '../../core/internals';
import type { ConditionChange, FieldChange, Journey, ObjectJourney, Stage } from '../../core/journey/types';
import { componentGroup, type ComponentGroup } from './components';

export interface EvidenceTable {
  readonly columns: readonly string[];
  /** Right-align these columns (numbers). */
  readonly numeric: readonly boolean[];
  readonly rows: readonly EvidenceRow[];
  /** Rows left out, with why. */
  readonly note?: string;
}

export interface EvidenceRow {
  readonly cells: readonly string[];
  /** `chosen`: the node the pod was bound to; `rejected`: a filter failed. */
  readonly mark?: 'chosen' | 'rejected';
  /** Per cell: a failed filter (shown as a warning). */
  readonly failed?: readonly boolean[];
}

export type EvidenceSection =
  | { readonly kind: 'list'; readonly title: string; readonly items: readonly string[] }
  | { readonly kind: 'text'; readonly title: string; readonly text: string; readonly verbatim: boolean }
  | { readonly kind: 'table'; readonly title: string; readonly summary: string; readonly table: EvidenceTable };

export interface EvidenceView {
  readonly heading: string;
  /** `Pod default/web-5d567cc74c-ss4lb`. */
  readonly subject: string;
  /** Key facts in one line each: time, component, repeats. */
  readonly facts: readonly string[];
  readonly group?: ComponentGroup;
  readonly warning: boolean;
  readonly sections: readonly EvidenceSection[];
}

/** `spec.nodeName: → node-2`, `status.phase: Pending → Running`, `metadata.x: a → (removed)`. */
export function formatFieldChange(change: FieldChange): string {
  const from = change.from === undefined ? '' : `${change.from} `;
  return `${change.path}: ${from}→ ${change.to ?? '(removed)'}`;
}

/** `PodScheduled: → True (reason)`. */
export function formatConditionChange(change: ConditionChange): string {
  const from = change.from === undefined ? '' : `${change.from} `;
  return `${change.type}: ${from}→ ${change.to}${change.reason ? ` (${change.reason})` : ''}`;
}

function clock(ms: number): string {
  // Local wall time with milliseconds: what someone compares with `kubectl get events -w`.
  const d = new Date(ms);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** `+0.025s after the apply`, or `0.377s before the apply` for stamps that precede it. */
export function relativeToApply(offsetMs: number): string {
  return offsetMs < 0 ? `${formatOffset(offsetMs).slice(1)} before the apply` : `${formatOffset(offsetMs)} after the apply`;
}

export function subjectText(o: ObjectJourney): string {
  return `${o.ref.kind} ${o.ref.namespace}/${o.ref.name}`;
}

const TIME_SOURCE_TEXT: Record<Stage['timeSource'], string> = {
  object: "the object's own timestamp",
  event: 'the event time',
  internal: "the simulator's internal clock",
  observed: 'when the watch delivered it',
  applied: 'the apply',
};

/** Default row cap of the scheduling table: a 5,000-node cluster's cycle would be unreadable. */
export const SCHEDULING_TABLE_ROWS = 100;

/**
 * The scheduler's table for one cycle: one row per evaluated node, its verdict (chosen, feasible,
 * or the rejecting plugin with its verbatim reason), one column per filter plugin (✓, the reason,
 * or `—` where filtering had stopped), one per score plugin (normalised × weight) and the total.
 * The chosen node first, then by total.
 */
export function schedulingTable(verdicts: readonly NodeVerdict[], chosen: string | undefined, maxRows = SCHEDULING_TABLE_ROWS): EvidenceTable {
  const filterPlugins: string[] = [];
  const scorePlugins: string[] = [];
  const weights = new Map<string, number>();
  for (const v of verdicts) {
    for (const f of v.filters) if (!filterPlugins.includes(f.plugin)) filterPlugins.push(f.plugin);
    for (const s of v.scores ?? []) {
      if (!scorePlugins.includes(s.plugin)) scorePlugins.push(s.plugin);
      weights.set(s.plugin, s.weight);
    }
  }
  const rank = (v: NodeVerdict): number => (v.node === chosen ? 2 : v.filters.every((f) => f.code === 'Success') ? 1 : 0);
  const sorted = [...verdicts].sort((a, b) => rank(b) - rank(a) || (b.total ?? -1) - (a.total ?? -1) || (a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
  const shown = sorted.slice(0, maxRows);
  const rows = shown.map((v): EvidenceRow => {
    const failing = v.filters.find((f) => f.code !== 'Success');
    // The verdict column says it all without scrolling to the plugin that decided.
    const verdict = v.node === chosen ? 'chosen' : failing ? `${failing.plugin}: ${failing.reason ?? failing.code}` : 'feasible';
    const failed: boolean[] = [false, failing !== undefined];
    const cells = [v.node, verdict];
    for (const plugin of filterPlugins) {
      const f = v.filters.find((x) => x.plugin === plugin);
      cells.push(f === undefined ? '—' : f.code === 'Success' ? '✓' : f.reason ?? f.code);
      failed.push(f !== undefined && f.code !== 'Success');
    }
    for (const plugin of scorePlugins) {
      const s = v.scores?.find((x) => x.plugin === plugin);
      cells.push(s === undefined ? '' : String(s.score));
      failed.push(false);
    }
    cells.push(v.total === undefined ? '' : String(v.total));
    failed.push(false);
    return { cells, failed, mark: v.node === chosen ? 'chosen' : failing ? 'rejected' : undefined };
  });
  const columns = ['Node', 'Verdict', ...filterPlugins, ...scorePlugins.map((p) => `${p} ×${weights.get(p) ?? 1}`), 'Total'];
  const numeric = columns.map((_, i) => i > filterPlugins.length + 1);
  const hidden = verdicts.length - shown.length;
  return { columns, numeric, rows, note: hidden > 0 ? `${hidden} more evaluated nodes not shown` : undefined };
}

/** What a real cluster does instead of what the simulator assumed on this stage. */
function assumptionCaveat(stage: Stage): string {
  if (stage.kind === 'pulled' || stage.kind === 'imagePresent') return 'A real cluster pulls the image from its registry, which may not have it (the pod then waits in ImagePullBackOff).';
  return 'A real cluster runs the program; its outcome may differ.';
}

function stageSections(stage: Stage, origin: number): EvidenceSection[] {
  const sections: EvidenceSection[] = [];
  const e = stage.evidence;
  if (stage.assumed) sections.push({ kind: 'text', title: 'Assumed by the simulator', text: `${stage.assumed}. ${assumptionCaveat(stage)}`, verbatim: false });
  if (stage.message) sections.push({ kind: 'text', title: stage.evidence.event ? 'Event message' : 'Message', text: stage.message, verbatim: true });
  if (e.fields && e.fields.length > 0) sections.push({ kind: 'list', title: 'Field changes', items: e.fields.map(formatFieldChange) });
  if (e.conditions && e.conditions.length > 0) {
    const items: string[] = [];
    for (const c of e.conditions) {
      items.push(formatConditionChange(c));
      if (c.message) items.push(`  ${c.message}`);
    }
    sections.push({ kind: 'list', title: 'Conditions', items });
  }
  if (e.event) {
    const ev = e.event;
    const items = [`${ev.type} ${ev.reason}${ev.count > 1 ? ` ×${ev.count}` : ''}`];
    if (ev.component) items.push(`from ${ev.component}${ev.host ? ` on ${ev.host}` : ''}`);
    if (ev.action) items.push(`action ${ev.action}`);
    if (ev.fieldPath) items.push(`about ${ev.fieldPath}`);
    items.push(ev.lastTime > ev.firstTime ? `first ${formatOffset(ev.firstTime - origin)}, last ${formatOffset(ev.lastTime - origin)}` : `at ${formatOffset(ev.firstTime - origin)}`);
    items.push(`event ${ev.name}`);
    sections.push({ kind: 'list', title: 'Event', items });
  }
  if (e.manager) sections.push({ kind: 'list', title: 'Field manager', items: [`${e.manager.name}${e.manager.operation ? ` (${e.manager.operation})` : ''}`] });
  const internals = e.internals;
  if (internals?.etcd && internals.etcd.length > 0) {
    sections.push({ kind: 'list', title: 'etcd', items: internals.etcd.map((w) => `${w.verb} ${w.key} · resourceVersion ${w.resourceVersion} · by ${w.actor} · ${formatOffset(w.time - origin)}`) });
  }
  if (internals?.watch && internals.watch.length > 0) {
    sections.push({ kind: 'list', title: 'Watch deliveries', items: internals.watch.map((d) => `${d.component} ← ${d.eventType} ${d.object.kind} (resourceVersion ${d.resourceVersion}) · ${formatOffset(d.time - origin)}`) });
  }
  const cycle = internals?.scheduling;
  if (cycle) {
    const outcome = cycle.result === 'Scheduled' ? `bound to ${cycle.node ?? '?'}` : 'no node fits';
    const attempts = internals?.schedulingAttempts && internals.schedulingAttempts > 1 ? ` (${internals.schedulingAttempts} attempts seen)` : '';
    const summary = `Attempt ${cycle.attempt}${attempts}: ${cycle.feasibleNodes} of ${cycle.evaluatedNodes} evaluated nodes feasible, ${cycle.totalNodes} in the cluster; ${outcome}.`;
    const verdicts = cycleVerdicts(cycle);
    if (verdicts.length > 0) sections.push({ kind: 'table', title: 'Scheduler', summary, table: schedulingTable(verdicts, cycle.node) });
    else sections.push({ kind: 'text', title: 'Scheduler', text: `${summary} Per-node verdicts were not recorded for this attempt.`, verbatim: false });
    if (cycle.message && cycle.message !== stage.message) sections.push({ kind: 'text', title: 'Scheduler message', text: cycle.message, verbatim: true });
  }
  return sections;
}

/** The details of one stage. `previous` is the stage before it in the same object, if any. */
export function stageEvidence(journey: Journey, object: ObjectJourney, stageIndex: number): EvidenceView | undefined {
  const stage = object.stages[stageIndex];
  if (!stage) return undefined;
  const origin = journey.appliedAt;
  const previous = stageIndex > 0 ? object.stages[stageIndex - 1] : undefined;
  const facts = [`${relativeToApply(stage.time - origin)} · ${clock(stage.time)} (from ${TIME_SOURCE_TEXT[stage.timeSource]})`];
  if (previous) facts.push(`${formatDuration(stage.time - previous.time)} after ${previous.title}`);
  facts.push(`by ${stage.component}`);
  if (stage.reason && stage.reason !== stage.evidence.event?.reason) facts.push(`reason ${stage.reason}`);
  if (stage.container) facts.push(`container ${stage.container}`);
  if (stage.count && stage.count > 1) facts.push(`seen ${stage.count} times${stage.lastTime !== undefined ? `, last ${formatOffset(stage.lastTime - origin)}` : ''}`);
  return {
    heading: stage.title,
    subject: subjectText(object),
    facts,
    group: componentGroup(stage.component),
    warning: stage.warning === true || stage.assumed !== undefined,
    sections: stageSections(stage, origin),
  };
}

/** The details of an object's lane when no stage is selected. */
export function objectEvidence(journey: Journey, object: ObjectJourney): EvidenceView {
  const origin = journey.appliedAt;
  const facts = [`status ${object.status}`];
  if (object.createdAt !== undefined) facts.push(`created ${relativeToApply(object.createdAt - origin)}`);
  if (object.deletedAt !== undefined) facts.push(`deleted ${formatOffset(object.deletedAt - origin)}`);
  if (object.preexisting) facts.push('existed before the apply');
  facts.push(`${object.stages.length} stage${object.stages.length === 1 ? '' : 's'}`);
  const sections: EvidenceSection[] = [];
  if (object.stuck) {
    const s = object.stuck;
    const items = [`${s.reason} · by ${s.component} · since ${formatOffset(s.since - origin)}${s.count && s.count > 1 ? ` · ×${s.count}` : ''}`];
    if (s.container) items.push(`container ${s.container}`);
    if (s.lastTermination) {
      const t = s.lastTermination;
      items.push(`last ended: ${t.reason ?? 'Unknown'}${t.exitCode === undefined ? '' : `, exit code ${t.exitCode}`}`);
    }
    sections.push({ kind: 'text', title: object.status === 'failed' ? 'Failed' : 'Stuck', text: s.message, verbatim: true });
    sections.push({ kind: 'list', title: 'Problem', items });
  }
  const pod = object.pod;
  if (pod) {
    const items = [`node ${pod.node ?? '(not scheduled)'}${pod.nodeReady === false ? ' (NotReady)' : ''}`, `phase ${pod.phase ?? 'unknown'}`, `${pod.readyContainers}/${pod.totalContainers} containers ready, ${pod.restarts} restart${pod.restarts === 1 ? '' : 's'}`];
    if (pod.podIP) items.push(`pod IP ${pod.podIP}`);
    for (const c of pod.containers) items.push(`container ${c.name}: ${c.state}${c.ready ? ', ready' : ''}${c.restarts > 0 ? `, ${c.restarts} restarts` : ''}${c.image ? ` · ${c.image}` : ''}`);
    sections.push({ kind: 'list', title: 'Pod', items });
    const phases = Object.entries(pod.phases).filter((entry): entry is [string, number] => typeof entry[1] === 'number');
    if (phases.length > 0) sections.push({ kind: 'list', title: 'Phases', items: phases.map(([name, ms]) => `${name} ${formatDuration(ms)}`) });
  }
  const r = object.replicas;
  if (r) {
    const items = [`${r.ready}/${r.desired} ready, ${r.available} available, ${r.current} current${r.updated === undefined ? '' : `, ${r.updated} updated`}`];
    if (r.revision) items.push(`revision ${r.revision}`);
    for (const image of r.images) items.push(`image ${image}`);
    sections.push({ kind: 'list', title: 'Replicas', items });
  }
  return { heading: `${object.ref.kind} ${object.ref.name}`, subject: subjectText(object), facts, warning: object.status === 'stuck' || object.status === 'failed', sections };
}
