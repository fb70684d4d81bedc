/**
 * Plain-text timeline of a journey for the CLI: each object with its stages (time from the apply,
 * stage, component, what Kubernetes said), then a summary. Fits a 100-column terminal: long
 * messages wrap under their column instead of being cut, because the exact text (a
 * FailedScheduling message) is the point. Large journeys show a few pods in full, every stuck pod,
 * and per-stage statistics for the rest.
 */
import { formatDuration, formatOffset } from './time';
import { STAGE_RANK } from './records';
import { durationStats } from './snapshot';
import { journeyGoal, podsInOrder } from '../../common/kind-order';
import { PHASE_NAMES, type DurationStats, type Journey, type JourneyStatus, type ObjectJourney, type PhaseName, type PodCounts, type ServiceDetails, type Stage, type StageKind, type StuckDetail, type StuckEntry } from './types';
import { isBatchKind, type FileSummary } from './file-summary';
import { fitSuggestionText, type FitSuggestions } from './fit-suggestions';

export interface RenderOptions {
  /** Terminal width (default 100). */
  width?: number;
  /** Show each stage's evidence (field changes, conditions, event, internals) under it. */
  evidence?: boolean;
  /** Pods per owner (ReplicaSet, StatefulSet, DaemonSet, Job, RC) shown in full before the rest are summarised (default 5). */
  podsInFull?: number;
  /** Stuck pods shown in full beyond `podsInFull` (default 5). */
  stuckPodsInFull?: number;
  /** ANSI colours for statuses and warnings. */
  color?: boolean;
}

interface Ctx {
  width: number;
  evidence: boolean;
  podsInFull: number;
  stuckPodsInFull: number;
  color: boolean;
  origin: number;
  timeWidth: number;
  kindWidth: number;
  componentWidth: number;
}

const ANSI = { red: '\x1b[31m', green: '\x1b[32m', yellow: '\x1b[33m', dim: '\x1b[2m', bold: '\x1b[1m', reset: '\x1b[0m' };

function paint(ctx: Ctx, code: keyof typeof ANSI, text: string): string {
  return ctx.color ? `${ANSI[code]}${text}${ANSI.reset}` : text;
}

function statusText(ctx: Ctx, status: JourneyStatus): string {
  switch (status) {
    case 'complete':
      return paint(ctx, 'green', status);
    case 'stuck':
      return paint(ctx, 'yellow', status);
    case 'failed':
      return paint(ctx, 'red', status);
    case 'deleted':
    case 'pending':
      return paint(ctx, 'dim', status);
    default:
      return status;
  }
}

/** Word-wraps `text` to `width`, splitting words longer than a line. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  const max = Math.max(10, width);
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (let word of paragraph.split(' ')) {
      while (word.length > max) {
        if (line) {
          lines.push(line);
          line = '';
        }
        lines.push(word.slice(0, max));
        word = word.slice(max);
      }
      if (!line) line = word;
      else if (line.length + 1 + word.length <= max) line += ` ${word}`;
      else {
        lines.push(line);
        line = word;
      }
    }
    lines.push(line);
  }
  return lines;
}

function refText(o: ObjectJourney): string {
  return `${o.ref.kind} ${o.ref.namespace}/${o.ref.name}`;
}

/** `ClusterIP 10.96.4.7 · NodePort 30080 · 3 endpoints · programmed on 3 nodes`, as `kubectl get svc` and `describe` would say it. */
export function serviceFacts(s: ServiceDetails): string[] {
  const facts: string[] = [s.type];
  if (s.externalName) facts.push(`→ ${s.externalName}`);
  else if (s.clusterIP === 'None') facts.push('headless');
  else if (s.clusterIP) facts.push(`ClusterIP ${s.clusterIP}`);
  if (s.nodePorts.length > 0) facts.push(`NodePort ${s.nodePorts.join(', ')}`);
  if (s.type === 'LoadBalancer') facts.push('EXTERNAL-IP <pending>');
  if (s.selector) facts.push(`${s.readyEndpoints} endpoint${s.readyEndpoints === 1 ? '' : 's'}`);
  else if (s.type !== 'ExternalName') facts.push('no selector');
  if (s.programmedNodes !== undefined) facts.push(`programmed on ${s.programmedNodes} node${s.programmedNodes === 1 ? '' : 's'}`);
  return facts;
}

/** `owner` is the kind of the object above: a Job's pods are its tries, read by how they exited. */
function objectFacts(o: ObjectJourney, owner: string | undefined): string[] {
  const facts: string[] = [];
  if (o.pod) {
    const p = o.pod;
    facts.push(p.node ? `on ${p.node}${p.nodeReady === false ? ' (NotReady)' : ''}` : 'not scheduled');
    if (p.phase) facts.push(p.phase);
    facts.push(`${p.readyContainers}/${p.totalContainers} ready`);
    if (p.restarts > 0) facts.push(`${p.restarts} restart${p.restarts === 1 ? '' : 's'}`);
    const exited = owner === 'Job' ? (p.containers.find((c) => c.exitCode !== undefined && c.exitCode !== 0) ?? p.containers.find((c) => c.exitCode !== undefined)) : undefined;
    if (exited) facts.push(`${exited.state}, exit code ${exited.exitCode}`);
  } else if (o.replicas) {
    const r = o.replicas;
    if (r.job) {
      facts.push(`${r.job.succeeded}/${r.job.completions ?? 1} succeeded`);
      if (r.job.failed > 0) facts.push(`${r.job.failed} failed of backoffLimit ${r.job.backoffLimit}`);
      if (r.job.active > 0) facts.push(`${r.job.active} active`);
    } else if (r.cronJob) {
      facts.push(`schedule ${r.cronJob.schedule}${r.cronJob.timeZone ? ` ${r.cronJob.timeZone}` : ''}`);
      if (r.cronJob.suspended) facts.push('suspended');
    } else if (o.ref.kind === 'DaemonSet') facts.push(`${r.ready}/${r.desired} ready, one per eligible node`);
    else facts.push(`${r.ready}/${r.desired} ready`);
    if (r.revision) facts.push(r.currentRevision ? `revision ${r.currentRevision} → ${r.revision}` : `revision ${r.revision}`);
    if (r.images.length > 0) facts.push(r.images.map((entry) => entry.slice(entry.indexOf('=') + 1)).join(', '));
  }
  if (o.service) facts.push(...serviceFacts(o.service));
  if (o.endpoints) {
    const ready = o.endpoints.filter((endpoint) => endpoint.ready).length;
    facts.push(`${ready}/${o.endpoints.length} endpoints ready`);
  }
  if (o.preexisting) facts.push('existed before');
  return facts;
}

const REASON_FIRST: ReadonlySet<StageKind> = new Set(['failed', 'backOff', 'containerTerminated', 'unhealthy', 'event']);

function stageDetail(stage: Stage): string {
  let text = stage.message ?? stage.title;
  // "ErrImagePull: rpc error …": the reason is what people search for, the message says why.
  if (stage.message && stage.reason && REASON_FIRST.has(stage.kind) && !stage.message.includes(stage.reason)) text = `${stage.reason}: ${text}`;
  if (stage.count && stage.count > 1) {
    const span = stage.lastTime !== undefined ? ` over ${formatDuration(stage.lastTime - stage.time)}` : '';
    text += ` (x${stage.count}${span})`;
  }
  return text;
}

function evidenceLines(ctx: Ctx, stage: Stage): string[] {
  const lines: string[] = [];
  const e = stage.evidence;
  for (const f of e.fields ?? []) lines.push(`${f.path}: ${f.from ?? ''} → ${f.to ?? '(removed)'}`.replace(':  →', ': →'));
  for (const c of e.conditions ?? []) {
    lines.push(`condition ${c.type}: ${c.from ?? ''} → ${c.to}${c.reason ? ` (${c.reason})` : ''}`.replace(':  →', ': →'));
  }
  if (e.manager) lines.push(`field manager ${e.manager.name}${e.manager.operation ? ` (${e.manager.operation})` : ''}`);
  if (e.event) {
    const ev = e.event;
    const from = ev.component ? ` · ${ev.component}${ev.host ? ` on ${ev.host}` : ''}` : '';
    lines.push(`event ${ev.type} ${ev.reason}${ev.count > 1 ? ` x${ev.count}` : ''}${from}${ev.action ? ` · action ${ev.action}` : ''}`);
  }
  const internals = e.internals;
  for (const w of internals?.etcd ?? []) lines.push(`etcd ${w.verb} ${w.key} (resourceVersion ${w.resourceVersion}, by ${w.actor})`);
  if (internals?.watch?.length) {
    lines.push(`watch delivered to ${internals.watch.map((d) => `${d.component} ${formatOffset(d.time - ctx.origin)}`).join(', ')}`);
  }
  const cycle = internals?.scheduling;
  if (cycle) {
    const verdict = cycle.result === 'Scheduled' ? `picked ${cycle.node ?? '?'}` : 'no fit';
    lines.push(`scheduling attempt ${cycle.attempt}: ${cycle.feasibleNodes}/${cycle.evaluatedNodes} evaluated nodes feasible of ${cycle.totalNodes}, ${verdict}`);
  }
  return lines;
}

function stageLines(ctx: Ctx, stage: Stage): string[] {
  const prefix = `  ${formatOffset(stage.time - ctx.origin).padStart(ctx.timeWidth)}  ${stage.kind.padEnd(ctx.kindWidth)}  ${String(stage.component).padEnd(ctx.componentWidth)}  `;
  const indent = ' '.repeat(prefix.length);
  const room = ctx.width - prefix.length;
  const detail = wrap(stage.assumed ? `${stageDetail(stage)} [${stage.assumed}]` : stageDetail(stage), room);
  const mark = (text: string): string => (stage.warning ? paint(ctx, 'yellow', text) : text);
  const lines = [prefix + mark(detail[0]), ...detail.slice(1).map((line) => indent + mark(line))];
  if (ctx.evidence) {
    // Evidence sits under the stage column, where there is room for field paths and event sources.
    const evidenceIndent = ' '.repeat(2 + ctx.timeWidth + 2 + 2);
    const evidenceRoom = ctx.width - evidenceIndent.length - 2;
    for (const item of evidenceLines(ctx, stage)) {
      const wrapped = wrap(item, evidenceRoom);
      lines.push(`${evidenceIndent}${paint(ctx, 'dim', `· ${wrapped[0]}`)}`);
      for (const more of wrapped.slice(1)) lines.push(`${evidenceIndent}  ${paint(ctx, 'dim', more)}`);
    }
  }
  return lines;
}

function header(ctx: Ctx, o: ObjectJourney, depth: number, owner: string | undefined): string[] {
  const indent = '  '.repeat(depth);
  const title = `${refText(o)}  [${o.status}]`;
  const facts = objectFacts(o, owner).join(' · ');
  const fits = indent.length + title.length + 2 + facts.length <= ctx.width;
  const lines = [`${indent}${paint(ctx, 'bold', refText(o))}  [${statusText(ctx, o.status)}]${facts && fits ? `  ${facts}` : ''}`];
  if (facts && !fits) lines.push(...wrap(facts, ctx.width - indent.length - 4).map((line) => `${indent}    ${line}`));
  if (o.stuck && o.ref.uid === o.stuck.object.uid) {
    const color = o.status === 'failed' ? 'red' : 'yellow';
    for (const line of problemLines(ctx, o.stuck, `${'  '.repeat(depth)}  `, ctx.origin)) lines.push(paint(ctx, color, line));
    if (o.stuck.fits) for (const line of fitLines(ctx, o.stuck.fits, `${'  '.repeat(depth)}    `, ctx.origin)) lines.push(line);
  }
  return lines;
}

/**
 * Under a pod the scheduler refused: `fits if: requests.cpu ≤ 3920m (fits on 3 of 3 nodes) · line 22`
 * per suggestion, and when its rollout gives up (`ProgressDeadlineExceeded at +600.000s`).
 */
function fitLines(ctx: Ctx, fits: FitSuggestions, indent: string, origin: number): string[] {
  const texts: string[] = [];
  if (fits.fitsNow) texts.push(`fits now on ${fits.fitsNow} of ${fits.totalNodes} node${fits.totalNodes === 1 ? '' : 's'} (the scheduler will retry it)`);
  else if (fits.suggestions.length === 0) texts.push('fits if: no single change is enough (several filters refuse every node)');
  for (const suggestion of fits.suggestions) texts.push(`fits if: ${fitSuggestionText(suggestion)}`);
  const deadline = fits.progressDeadline;
  if (deadline) texts.push(`ProgressDeadlineExceeded at ${formatOffset(deadline.at - origin)}${deadline.exceeded ? ' (the rollout gave up)' : ` (progressDeadlineSeconds ${deadline.seconds})`}`);
  const lines: string[] = [];
  for (const text of texts) {
    const [first, ...rest] = wrap(text, ctx.width - indent.length - 2);
    lines.push(`${indent}${first}`);
    for (const more of rest) lines.push(`${indent}  ${more}`);
  }
  return lines;
}

/** `! Reason (container) since +1.2s, x3: message…`, wrapped under a small indent. */
function problemLines(ctx: Ctx, s: StuckDetail, indent: string, origin: number): string[] {
  const head = `${indent}! ${s.reason}${s.container ? ` (${s.container})` : ''} since ${formatOffset(s.since - origin)}${s.count && s.count > 1 ? `, x${s.count}` : ''}: `;
  const more = `${indent}  `;
  const first = wrap(s.message, ctx.width - head.length)[0];
  const rest = s.message.slice(first.length).trim();
  const lines = [head + first, ...(rest ? wrap(rest, ctx.width - more.length).map((line) => more + line) : [])];
  if (s.lastTermination) {
    const t = s.lastTermination;
    lines.push(`${more}last ended: ${t.reason ?? 'Unknown'}${t.exitCode === undefined ? '' : `, exit code ${t.exitCode}`}`);
  }
  return lines;
}

function renderObject(ctx: Ctx, o: ObjectJourney, depth: number, out: string[], owner?: string): void {
  out.push(...header(ctx, o, depth, owner));
  for (const stage of o.stages) out.push(...stageLines(ctx, stage));
  const pods = podsInOrder(o).filter((c) => c.ref.kind === 'Pod');
  const others = o.children.filter((c) => c.ref.kind !== 'Pod');
  for (const child of others) renderObject(ctx, child, depth + 1, out, o.ref.kind);
  if (pods.length === 0) return;
  const shown = new Set(pods.slice(0, ctx.podsInFull));
  let extraStuck = 0;
  for (const pod of pods) {
    if (extraStuck >= ctx.stuckPodsInFull) break;
    if (!shown.has(pod) && (pod.status === 'stuck' || pod.status === 'failed')) {
      shown.add(pod);
      extraStuck++;
    }
  }
  for (const pod of pods) if (shown.has(pod)) renderObject(ctx, pod, depth + 1, out, o.ref.kind);
  const rest = pods.filter((pod) => !shown.has(pod));
  if (rest.length > 0) renderCollapsed(ctx, rest, depth + 1, out);
}

function renderCollapsed(ctx: Ctx, pods: ObjectJourney[], depth: number, out: string[]): void {
  const byStatus = new Map<JourneyStatus, number>();
  for (const pod of pods) byStatus.set(pod.status, (byStatus.get(pod.status) ?? 0) + 1);
  const statuses = [...byStatus.entries()].map(([status, n]) => `${n} ${status}`).join(', ');
  const pad = '  '.repeat(depth);
  out.push(`${pad}… ${pods.length} more pod${pods.length === 1 ? '' : 's'} (${statuses}); stage times from the apply:`);
  const byKind = new Map<StageKind, number[]>();
  for (const pod of pods) {
    const firstOfKind = new Set<StageKind>();
    for (const stage of pod.stages) {
      if (firstOfKind.has(stage.kind)) continue;
      firstOfKind.add(stage.kind);
      let list = byKind.get(stage.kind);
      if (!list) byKind.set(stage.kind, (list = []));
      list.push(stage.time - ctx.origin);
    }
  }
  const kinds = [...byKind.keys()].sort((a, b) => STAGE_RANK[a] - STAGE_RANK[b]);
  const cols = ['pods', 'first', 'p50', 'p90', 'max'];
  out.push(`${pad}  ${'stage'.padEnd(ctx.kindWidth)}${cols.map((c) => c.padStart(11)).join('')}`);
  for (const kind of kinds) {
    const stats = durationStats(byKind.get(kind) ?? []);
    if (!stats) continue;
    const values = [String(stats.count), formatOffset(stats.min), formatOffset(stats.p50), formatOffset(stats.p90), formatOffset(stats.max)];
    out.push(`${pad}  ${kind.padEnd(ctx.kindWidth)}${values.map((v) => v.padStart(11)).join('')}`);
  }
}

function collectStages(o: ObjectJourney, into: Stage[], podsInFull: number): void {
  into.push(...o.stages);
  let pods = 0;
  for (const child of podsInOrder(o)) {
    if (child.ref.kind === 'Pod' && ++pods > podsInFull && child.status !== 'stuck' && child.status !== 'failed') continue;
    collectStages(child, into, podsInFull);
  }
}

/** The phase table: pods with the phase and the chosen percentiles of its durations. */
function phaseLines(phaseStats: Partial<Record<PhaseName, DurationStats>>, columns: readonly ('p50' | 'p90' | 'p99' | 'max')[]): string[] {
  const phases = PHASE_NAMES.filter((name) => phaseStats[name]);
  if (phases.length === 0) return [];
  const lines = [`  ${'phase'.padEnd(20)}${['pods', ...columns].map((h) => h.padStart(10)).join('')}`];
  for (const name of phases) {
    const s = phaseStats[name];
    if (s) lines.push(`  ${name.padEnd(20)}${[String(s.count), ...columns.map((column) => formatDuration(s[column]))].map((v) => v.padStart(10)).join('')}`);
  }
  return lines;
}

/** `3/3 ready · 3 running · 3 scheduled · 1 restarts`; for Jobs and CronJobs, whose pods end, `3 pods` instead of ready. */
function podCountFacts(c: PodCounts, batch: boolean): string[] {
  const facts = batch ? [`${c.live} pod${c.live === 1 ? '' : 's'}`, `${c.running} running`, `${c.scheduled} scheduled`] : [`${c.ready}/${c.desired} ready`, `${c.running} running`, `${c.scheduled} scheduled`];
  if (c.stuck > 0) facts.push(`${c.stuck} stuck`);
  if (c.terminating > 0) facts.push(`${c.terminating} terminating`);
  if (c.deleted > 0) facts.push(`${c.deleted} deleted`);
  if (c.oldLive > 0) facts.push(`${c.oldLive} old still running`);
  if (c.restarts > 0) facts.push(`${c.restarts} restarts`);
  return facts;
}

/**
 * `2 outcomes, for 100 pods`: the distinct assumptions, each of which may hold for many pods, and
 * how many pods they hold for (the kubelet makes every assumption; absent in older saved files).
 */
function assumptionsText(assumptions: number, objects: number | undefined): string {
  const outcomes = `${assumptions} outcome${assumptions === 1 ? '' : 's'}`;
  return objects === undefined ? outcomes : `${outcomes}, for ${objects} pod${objects === 1 ? '' : 's'}`;
}

function summaryLines(ctx: Ctx, journey: Journey): string[] {
  const lines = ['Summary'];
  const c = journey.counts;
  const label = (name: string): string => `  ${name.padEnd(10)}`;
  const assumed = journey.assumptionCount ?? 0;
  // The pods stand where `(see "assumed")` did (files saved before they were counted keep it): the line stays within 100 columns.
  const forPods = journey.assumedObjects === undefined ? ' (see "assumed")' : `, for ${journey.assumedObjects} pod${journey.assumedObjects === 1 ? '' : 's'}`;
  const underAssumptions = assumed > 0 ? `, assuming ${assumed} outcome${assumed === 1 ? '' : 's'} the simulator cannot know${forPods}` : '';
  lines.push(`${label('status')}${statusText(ctx, journey.status)}${journey.done ? ' (done)' : ''}${underAssumptions}`);
  const root = journey.root.kind;
  const podFacts = podCountFacts(c, isBatchKind(root));
  const service = root === 'Service' ? journey.tree?.service : undefined;
  if (service) lines.push(`${label('service')}${serviceFacts(service).join(' · ')}`);
  else lines.push(`${label('pods')}${podFacts.join(' · ')}`);
  const job = root === 'Job' ? journey.tree?.replicas?.job : undefined;
  if (job) lines.push(`${label('job')}${job.succeeded}/${job.completions ?? 1} succeeded · ${job.failed} failed (backoffLimit ${job.backoffLimit}) · ${job.active} active`);
  if (root === 'CronJob' && journey.tree) lines.push(`${label('jobs')}${journey.tree.children.length} created · ${journey.tree.children.filter((j) => j.status === 'complete').length} complete · ${journey.tree.children.filter((j) => j.status === 'failed').length} failed`);
  if (journey.totalDurationMs !== undefined) lines.push(`${label('total')}apply → ${journeyGoal(root)} in ${formatDuration(journey.totalDurationMs)}`);
  else lines.push(`${label('elapsed')}${formatDuration(journey.lastChangeAt - journey.appliedAt)} so far (last change ${formatOffset(journey.lastChangeAt - journey.appliedAt)})`);
  lines.push(...phaseLines(journey.phaseStats, ['p50', 'p90', 'max']));
  if (assumed > 0) {
    lines.push(`${label('assumed')}${assumptionsText(assumed, journey.assumedObjects)} (a real cluster may differ)`);
    for (const entry of journey.assumptions ?? []) {
      const others = (entry.objects ?? 1) - 1;
      const also = others > 0 ? ` and ${others} more ${entry.object.kind.toLowerCase()}${others === 1 ? '' : 's'}` : '';
      const [first, ...rest] = wrap(`${entry.object.kind} ${entry.object.namespace}/${entry.object.name}${also}: ${entry.what}`, ctx.width - 6);
      lines.push(paint(ctx, 'yellow', `    ${first}`));
      for (const more of rest) lines.push(paint(ctx, 'yellow', `      ${more}`));
    }
    const unlisted = assumed - (journey.assumptions?.length ?? 0);
    if (unlisted > 0) lines.push(`    … and ${unlisted} more outcome${unlisted === 1 ? '' : 's'}`);
  }
  lines.push(...stuckLines(ctx, journey.stuckObjects, journey.stuckCount, journey.appliedAt));
  return lines;
}

/** `stuck  3 objects`, then each listed one with its problem, then `… and N more`. */
function stuckLines(ctx: Ctx, entries: readonly StuckEntry[], count: number, origin: number): string[] {
  if (count === 0) return [];
  const lines = [`  ${'stuck'.padEnd(10)}${count} object${count === 1 ? '' : 's'}`];
  for (const entry of entries) {
    lines.push(`    ${entry.ref.kind} ${entry.ref.namespace}/${entry.ref.name} [${statusText(ctx, entry.status)}]`);
    const color = entry.status === 'failed' ? 'red' : 'yellow';
    for (const line of problemLines(ctx, entry.stuck, '      ', origin)) lines.push(paint(ctx, color, line));
  }
  if (count > entries.length) lines.push(`    … and ${count - entries.length} more`);
  return lines;
}

const STATUS_ORDER: readonly JourneyStatus[] = ['complete', 'progressing', 'pending', 'stuck', 'failed', 'deleted'];

/**
 * The summary of a file's journeys, after each journey's own: the stuck objects of every journey
 * first (worst first), then journeys by status, pods summed over every journey, and the phase
 * percentiles over every pod.
 */
export function renderFileSummary(summary: FileSummary, options: RenderOptions = {}): string {
  const ctx: Ctx = { width: options.width ?? 100, evidence: false, podsInFull: 0, stuckPodsInFull: 0, color: options.color ?? false, origin: summary.appliedAt, timeWidth: 0, kindWidth: 0, componentWidth: 0 };
  const label = (name: string): string => `  ${name.padEnd(10)}`;
  const lines = [paint(ctx, 'bold', `Summary of ${summary.journeys} journeys`)];
  const byStatus = STATUS_ORDER.filter((status) => summary.statuses[status]).map((status) => `${summary.statuses[status]} ${statusText(ctx, status)}`);
  // A journey can be on its way with a stuck object in it (a Deployment with one unschedulable pod of ten).
  const stuckOrFailed = (summary.statuses.stuck ?? 0) + (summary.statuses.failed ?? 0);
  const withStuck = summary.stuckJourneys > stuckOrFailed ? [`${summary.stuckJourneys} with stuck objects`] : [];
  lines.push(`${label('journeys')}${[`${summary.done}/${summary.journeys} done`, ...byStatus, ...withStuck].join(' · ')}`);
  lines.push(...stuckLines(ctx, summary.stuckObjects, summary.stuckCount, summary.appliedAt));
  const batchOnly = summary.batchCounts !== undefined && summary.counts.desired === 0 && summary.counts.live === 0;
  if (!batchOnly) lines.push(`${label('pods')}${podCountFacts(summary.counts, false).join(' · ')}`);
  if (summary.batchCounts) lines.push(`${label('job pods')}${podCountFacts(summary.batchCounts, true).join(' · ')}`);
  if (summary.totalDurationMs !== undefined) lines.push(`${label('total')}first apply → every journey complete in ${formatDuration(summary.totalDurationMs)}`);
  else lines.push(`${label('elapsed')}${formatDuration(summary.lastChangeAt - summary.appliedAt)} so far (last change ${formatOffset(summary.lastChangeAt - summary.appliedAt)})`);
  lines.push(...phaseLines(summary.phaseStats, ['p50', 'p90', 'p99', 'max']));
  if (summary.assumptionCount > 0) lines.push(`${label('assumed')}${assumptionsText(summary.assumptionCount, summary.assumedObjects)} (a real cluster may differ; see each journey)`);
  return lines.map((line) => line.trimEnd()).join('\n') + '\n';
}

/** The timeline and summary of one journey. */
/** The widest of `stages` by `width`, at least `least`: a loop, as `Math.max(...spread)` overflows the stack past ~100,000 stages. */
function widest(stages: readonly Stage[], least: number, width: (stage: Stage) => number): number {
  let most = least;
  for (const stage of stages) most = Math.max(most, width(stage));
  return most;
}

export function renderJourney(journey: Journey, options: RenderOptions = {}): string {
  const podsInFull = options.podsInFull ?? 5;
  const stages: Stage[] = [];
  if (journey.tree) collectStages(journey.tree, stages, podsInFull + (options.stuckPodsInFull ?? 5));
  const ctx: Ctx = {
    width: options.width ?? 100,
    evidence: options.evidence ?? false,
    podsInFull,
    stuckPodsInFull: options.stuckPodsInFull ?? 5,
    color: options.color ?? false,
    origin: journey.appliedAt,
    timeWidth: widest(stages, 7, (s) => formatOffset(s.time - journey.appliedAt).length),
    kindWidth: widest(stages, 9, (s) => s.kind.length),
    componentWidth: widest(stages, 9, (s) => String(s.component).length),
  };
  const out: string[] = [];
  const title = `${journey.root.kind} ${journey.root.namespace}/${journey.root.name}`;
  out.push(paint(ctx, 'bold', `Journey of ${title}`) + `  [${statusText(ctx, journey.status)}]`);
  out.push(`applied ${new Date(journey.appliedAt).toISOString()}; times are from the apply`);
  out.push('');
  if (journey.tree) renderObject(ctx, journey.tree, 0, out);
  else out.push(`${title} not seen yet`);
  out.push('');
  out.push(...summaryLines(ctx, journey));
  return out.map((line) => line.trimEnd()).join('\n') + '\n';
}

/** Several journeys (a multi-document apply), separated by a blank line. */
export function renderJourneys(journeys: readonly Journey[], options: RenderOptions = {}): string {
  return journeys.map((journey) => renderJourney(journey, options)).join('\n');
}
