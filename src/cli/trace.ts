/**
 * `kube-journey trace`: apply a manifest file to a fresh built-in simulator, follow every applied
 * object with the journey tracer, and print the journeys. Exits 1 with the reason when a journey
 * cannot finish (unschedulable, image pull failure, crash loop) within the timeout.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Writable } from 'node:stream';
import { parseManifest, lineOfField, type ParsedManifest } from '../core/manifest';
import { JourneyTracer } from '../core/journey/tracer';
import { renderFileSummary, renderJourney } from '../core/journey/render-text';
import { FileSummaryBuilder, type PhaseValues } from '../core/journey/file-summary';
import { renderStoredOnly, storedOnlyJourney, type StoredOnlyJourney } from '../core/journey/stored-only';
import type { Journey } from '../core/journey/types';
import type { KubeObject, ResourceKind } from '../core/k8s';
import { Simulator, type SimulatorOptions } from '../sim/simulator';
import type { PodIdentity } from '../sim/scheduler/scheduler';
import { PacedDriver } from '../sim/driver';
import { ApiError, type ResourceInfo } from '../sim/store/types';
import { findServedKind, servedKind, servedVersionsOf } from '../sim/apply';
import { ENSURE_CRDS, resourceMappingNotFound, servedInsteadHint } from '../core/kind-mapping';
import { tuneHeapForSimulator } from '../server/heap-tuning';
import { TRACEABLE_KIND_NAMES, isTraceableKind } from '../common/traceable-kinds';
import { ClaimEventMemory, claimNotes, claimsSettled, type AppliedClaim } from './claim-notes';
import { probeRestartHorizon } from './probe-horizon';
import { HeapGuard, heapAdvice, podCount, type HeapNumbers } from '../server/heap-guard';
import { tracedPodBudget } from './trace-budget';
import { OutputWriter } from './output';
import { journeyRecord, line, objectRecords, summaryRecord } from './trace-json';
import { TraceFits, type AppliedPlace } from './trace-fits';
import { isUnfinished, unfinishedJourney, unfinishedLines, type UnfinishedJourney } from './unfinished';
import type { DocumentResult } from '../core/document-result';
import { TraceRecording, saveProblem, saveRecording } from './trace-recording';

export type { DocumentResult } from '../core/document-result';

export interface TraceOptions {
  file: string;
  nodes: number;
  /** Zones the simulator's nodes are spread over (none: kind's labels). */
  zones?: number;
  /** Virtual seconds per wall second; undefined runs as fast as possible. */
  speed?: number;
  seed: number;
  /** The simulator's pod budget (default: what fits in this process's heap, see trace-budget.ts). */
  maxPods?: number;
  /** The heap after the latest full collection, as the out-of-memory guard reads it (tests inject small numbers). */
  heapStatistics?: () => HeapNumbers | undefined;
  timeoutMs: number;
  json: boolean;
  evidence: boolean;
  /** Terminal width for the timeline (default 100). */
  width?: number;
  out: Writable;
  err: Writable;
  /** Save the trace to this journey file (`--save`): written atomically once the trace is over. */
  save?: string;
  /** The manifest, already read from `file` (the twin reads it first to copy what it updates). */
  manifest?: ParsedManifest;
  /** Makes the simulator from the options `trace` would use (the twin restores a cluster's objects into it). */
  makeSimulator?: (options: SimulatorOptions) => Simulator;
  /** More fields for the JSON output's summary record (the twin's `twin` field). */
  extra?: Record<string, unknown>;
}

// Claims: the journey shows each pod's claims binding (see core/journey/claims.ts).
const TRACED_KINDS: readonly ResourceKind[] = [...TRACEABLE_KIND_NAMES, 'Event', 'Node', 'PersistentVolumeClaim'];
/** Kinds an applied object starts a journey from. */
/** Pods of each journey that keep their evidence when `trace` prints none. */
const PODS_WITH_EVIDENCE = 50;
/** Changes the store keeps per kind for resuming watches: `trace` serves none. */
const TRACE_HISTORY_PER_KIND = 100;
/**
 * The tracer reads every Event as it is written, so the store need not keep them for the API
 * server's hour: like a cluster run with `--event-ttl=2s`, a large trace holds only its recent
 * Events (at 150,000 pods, a million Events were a fifth of the heap; with 10 s, the 300,000 of
 * the last ten seconds were still a tenth of it at the peak). A repeat after expiry is created
 * again under the same name with its count, as client-go's recorder does when its patch finds
 * nothing: the recorders keep the counts, not the store.
 */
const TRACE_EVENT_TTL_MS = 2_000;
/**
 * The old generation may grow by 30 % past the live heap before a full collection, not by the
 * simulator's 60 %: a trace holds every journey besides the cluster, and while its pods fold the
 * live heap shrinks but the heap V8 committed is never given back. At 150,000 pods on 5,000 nodes
 * the peak RSS was 2,169 MiB with 60 % and 1,967 MiB with 30 %, in about the same time (one run
 * each, 115 and 104 s; the machine's spread is larger than the difference).
 */
const TRACE_HEAP_GROWING_PERCENT = 30;
/** Time watched after every journey finished, to catch crash loops. */
export const SETTLE_MS = 30_000;

/** What `finishTrace` prints and decides the exit code from. */
export interface TraceReport {
  results: DocumentResult[];
  /** Read once, in order: each journey can be built when it is printed and let go after. */
  journeys: Iterable<Journey>;
  /** Per-pod phase values of a journey, for the percentiles of the file's summary (see JourneyTracer.phaseValues). */
  phaseValues: (journeyId: string) => PhaseValues | undefined;
  /** Applied objects nothing in the simulator acts on: complete once stored (never unfinished). */
  stored?: StoredOnlyJourney[];
  outcome: string;
  /** How long was waited, for the message about unfinished journeys: `within 300s of simulated time`. */
  limit: string;
  json: boolean;
  evidence: boolean;
  width?: number;
  out: Writable;
  err: Writable;
  /** More fields for the JSON output's summary record. */
  extra?: Record<string, unknown>;
  /** Keeps every journey and line for a journey file (`--save`). */
  recording?: TraceRecording;
  /** The lines to print about unfinished journeys instead of working them out (`show` prints the saved ones). */
  unfinishedLines?: readonly string[];
}

/** Connect a tracer to a simulator: every change of the traced kinds, and the internals stream. */
export function connectTracer(simulator: Simulator, tracer: JourneyTracer): () => void {
  const stops = TRACED_KINDS.map((kind) => simulator.store.subscribe(kind, (change) => tracer.ingest({ type: change.type, object: change.object }, simulator.clock.now())));
  stops.push(simulator.internals.onStep((step) => tracer.ingestInternal(step)));
  return () => stops.forEach((stop) => stop());
}

function displayName(object: KubeObject, custom: readonly ResourceInfo[]): string {
  try {
    const info = servedKind(object, custom);
    return `${info.singular}${info.group ? `.${info.group}` : ''}/${object.metadata?.name ?? ''}`;
  } catch {
    return `${String(object.kind ?? 'object').toLowerCase()}/${object.metadata?.name ?? ''}`;
  }
}

/** Reads and parses the manifest; on any problem, says so on `err` and returns undefined. */
export function readManifest(file: string, err: Writable): ParsedManifest | undefined {
  const warn = (text: string): void => void err.write(text);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    warn(`kube-journey: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  }
  const manifest = parseManifest(text);
  const problems = manifest.documents.flatMap((d) => d.problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message}`));
  if (problems.length > 0) {
    warn(`${problems.join('\n')}\nkube-journey: nothing was applied; fix the manifest and try again.\n`);
    return undefined;
  }
  if (manifest.documents.length === 0) {
    warn(`kube-journey: ${file} holds no Kubernetes objects.\n`);
    return undefined;
  }
  return manifest;
}

/** Whether `--save` (when given) can write its file; says why not on `err`. */
export function canSave(path: string | undefined, err: Writable): boolean {
  const problem = path === undefined ? undefined : saveProblem(path);
  if (problem) err.write(`kube-journey: cannot save the journeys to ${path}: ${problem}; nothing was applied\n`);
  return problem === undefined;
}

/** Prints each document's apply result: errors on `err` (at their YAML line), actions on `out`. */
export function printResults(file: string, results: readonly DocumentResult[], json: boolean, out: Writable, err: Writable): void {
  for (const r of results) {
    if (r.error) {
      const prefix = r.clientError ? 'error when applying' : 'Error from server: error when applying';
      err.write(`${file}:${r.line}: ${prefix} ${r.object}: ${r.error}\n${r.hint ? `${r.hint}\n` : ''}`);
    } else if (!json) out.write(`${r.object} ${r.action}\n`);
  }
}

/**
 * Prints the journeys (text, or NDJSON records: see trace-json.ts) one at a time, the summary of
 * the whole file, and why unfinished ones did not finish; returns the exit code.
 */
export async function finishTrace(report: TraceReport): Promise<number> {
  const { results, outcome } = report;
  const stored = report.stored ?? [];
  const writer = new OutputWriter(report.out);
  const color = 'isTTY' in report.out && report.out.isTTY === true;
  const summary = new FileSummaryBuilder();
  const unfinished: UnfinishedJourney[] = [];
  try {
    if (report.json) for (const result of results) await writer.write(line({ type: 'result', ...result }));
    for (const journey of report.journeys) {
      const phaseValues = report.phaseValues(journey.id);
      summary.add(journey, phaseValues);
      report.recording?.addJourney(journey, phaseValues);
      if (isUnfinished(journey)) unfinished.push(unfinishedJourney(journey, report.limit));
      if (!writer.open) continue;
      if (report.json) {
        await writer.write(line(journeyRecord(journey)));
        for (const record of objectRecords(journey, report.evidence)) await writer.write(line(record));
      } else {
        // Journeys separated by a blank line, the first after one.
        await writer.write(`\n${renderJourney(journey, { evidence: report.evidence, width: report.width, color })}`);
      }
    }
    const file = summary.finish();
    if (report.json) {
      for (const entry of stored) await writer.write(line({ type: 'stored', ...entry }));
      await writer.write(line(summaryRecord(file, outcome, results, stored.length, report.extra)));
    } else {
      if (file.journeys > 0) await writer.write('\n');
      if (stored.length > 0) await writer.write(`${file.journeys > 0 ? '' : '\n'}${renderStoredOnly(stored, report.width)}\n`);
      // One journey's own summary is the file's.
      if (file.journeys > 1) await writer.write(`${stored.length > 0 ? '\n' : ''}${renderFileSummary(file, { width: report.width, color })}`);
    }
  } finally {
    await writer.end();
  }

  const lines = report.unfinishedLines ?? unfinishedLines(unfinished);
  for (const text of lines) report.err.write(`${text}\n`);
  report.recording?.finish({ results, stored, outcome, limit: report.limit, unfinished: lines, extra: report.extra });
  if (unfinished.length > 0 || lines.length > 0) return 1;
  return results.some((r) => r.error) ? 1 : 0;
}

export async function runTrace(options: TraceOptions): Promise<number> {
  const manifest = options.manifest ?? readManifest(options.file, options.err);
  if (!manifest || !canSave(options.save, options.err)) return 1;

  const budgetHint = 'kube-journey trace --max-pods';
  tuneHeapForSimulator({ watch: false, growingPercent: TRACE_HEAP_GROWING_PERCENT });
  const heapGuard = new HeapGuard({ statistics: options.heapStatistics, doing: () => `while tracing ${podCount(simulator.podBudget.used)}`, advice: heapAdvice(budgetHint) });
  const guard = (): void => heapGuard.check();
  // Without --evidence nothing prints a complete pod's evidence: past each journey's first pods it
  // is dropped, and so is the per-node verdict table of a pod that was placed (while it starts,
  // 150,000 of them weighed about a hundred megabytes), which the scheduler then does not build.
  // A saved trace keeps it all, for `show --evidence`.
  const detail = options.evidence || options.save ? undefined : PODS_WITH_EVIDENCE;
  const tracer = new JourneyTracer({ evidenceDetailPods: detail, schedulingDetailPods: detail });
  const verdictTableWhenPlaced = detail === undefined ? undefined : (pod: PodIdentity) => tracer.keepsPlacedVerdicts(pod);
  // The tracer listens to every change and internal step as it happens: no watch resumes and
  // nobody reads the internals log later, so neither keeps more than a little history.
  const simulatorOptions: SimulatorOptions = { nodes: options.nodes, verdictTableWhenPlaced, zones: options.zones, seed: options.seed, retainInternals: false, historyPerKind: TRACE_HISTORY_PER_KIND, eventTtlMs: TRACE_EVENT_TTL_MS, maxPods: options.maxPods ?? tracedPodBudget(options.nodes), maxPodsHint: budgetHint, guard };
  const simulator = options.makeSimulator ? options.makeSimulator(simulatorOptions) : new Simulator(simulatorOptions);
  const recording = options.save ? new TraceRecording() : undefined;
  const target = { type: 'simulator' as const, nodes: options.nodes, seed: options.seed, ...(options.zones ? { zones: options.zones } : {}), ...(options.speed ? { speed: options.speed } : {}), ...(options.maxPods ? { maxPods: options.maxPods } : {}) };
  const finish = async (code: number): Promise<number> => (recording && options.save ? saveRecording(recording, { path: options.save, source: options.file, target, exitCode: code, err: options.err }) : code);
  connectTracer(simulator, tracer);
  // The tracer is the internals stream's only reader here: nothing else needs the steps it drops.
  simulator.internals.followsObject = (kind, object) => tracer.followedSteps(kind, object);

  const stored: StoredOnlyJourney[] = [];
  const results: DocumentResult[] = [];
  const journeyIds: string[] = [];
  const appliedAt = simulator.clock.now();
  const claims: AppliedClaim[] = [];
  const claimEvents = new ClaimEventMemory(simulator.store);
  const definedInFile = new Set<string>();
  const places = new Map<string, AppliedPlace>();
  for (const { document, object, at } of manifestObjects(manifest)) {
    const custom = simulator.store.customResources();
    const result: DocumentResult = { document: document.index, line: at ? lineOfField(manifest, document, at) : document.startLine, object: displayName(object, custom) };
    const lineOf = (field: string): number => lineOfField(manifest, document, `${at}${at ? '.' : ''}${field}`);
    const served = findServedKind(object, custom);
    if (!served) {
      results.push(unservedKindResult(options.file, object, lineOf, result));
      continue;
    }
    try {
      const applied = simulator.apply(object);
      result.action = applied.action;
      places.set(TraceFits.keyOf(applied.object), { document, at });
      const kind = applied.object.kind ?? '';
      if (served.custom) {
        const storedOnly = storedOnlyJourney(applied.object, { group: served.group, crdInSameFile: definedInFile.has(served.key) });
        if (storedOnly) stored.push(storedOnly);
      } else if (isTraceableKind(kind)) {
        journeyIds.push(tracer.begin({ kind, namespace: applied.object.metadata?.namespace, name: applied.object.metadata?.name ?? '' }, simulator.clock.now()));
      } else {
        const storedOnly = storedOnlyJourney(applied.object);
        if (storedOnly) stored.push(storedOnly);
      }
      if (kind === 'CustomResourceDefinition') awaitEstablished(simulator, applied.object, definedInFile);
      if (kind === 'PersistentVolumeClaim') claims.push({ namespace: applied.object.metadata?.namespace ?? 'default', name: applied.object.metadata?.name ?? '' });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const field = error.details?.causes?.[0]?.field;
      result.line = field ? lineOf(field) : result.line;
      result.error = error.message;
    }
    results.push(result);
  }
  printResults(options.file, results, options.json, options.out, options.err);

  // Done, or waiting for what no document brings (a Service no pod matches): once every journey is, nothing will change.
  const allDone = (): boolean => journeyIds.every((id) => tracer.progress(id)?.settled === true);
  const anyStuck = (): boolean => journeyIds.some((id) => tracer.progress(id)?.stuck === true);
  // Past the pod budget a stuck journey waits for pods that will never be made: once every
  // journey finished or is stuck, say so instead of waiting for the timeout.
  const outOfBudget = (): boolean =>
    simulator.podBudget.refused > 0 &&
    journeyIds.every((id) => {
      const progress = tracer.progress(id);
      return progress?.done === true || progress?.stuck === true;
    });
  const run = (until: () => boolean, ms: number) => (options.speed === undefined ? Promise.resolve(simulator.runUntil(until, ms)) : runPaced(simulator, until, ms, options.speed, guard));
  const outcome = await run(() => allDone() || outOfBudget(), options.timeoutMs);
  if (outOfBudget()) {
    const code = await finishTrace({ ...options, results, journeys: new TraceFits(simulator, manifest, places).attach(journeysOf(tracer, journeyIds)), phaseValues: (id) => tracer.phaseValues(id), stored, outcome: 'pod budget used up', limit: `within the simulator's pod budget of ${podCount(simulator.podBudget.maxPods)}`, recording });
    // The tracer lists a bounded number of stuck objects: pods waiting for a node may hide the ReplicaSet that the budget stopped.
    const stopped = `kube-journey: stopped at the pod budget: ${simulator.podBudget.lastError?.message ?? ''}`;
    options.err.write(`${stopped}\n`);
    recording?.closing.push(stopped);
    return finish(Math.max(code, 1));
  }
  // A crash-looping container can look Ready for a moment, as in a real cluster; watch a little
  // longer so a journey that only looked finished is reported as stuck.
  if (outcome === 'done' && journeyIds.length > 0) {
    // A probe the simulator knows will fail restarts its container later: watch until it has.
    const probeHorizon = probeRestartHorizon(simulator.store, appliedAt);
    const budgetLeft = options.timeoutMs - (simulator.clock.now() - appliedAt);
    await run(anyStuck, Math.min(Math.max(SETTLE_MS, (probeHorizon ?? 0) - simulator.clock.now()), Math.max(SETTLE_MS, budgetLeft)));
  }
  if (claims.length > 0) {
    await run(() => claimsSettled(simulator.store, claims, claimEvents), SETTLE_MS);
    for (const note of claimNotes(simulator.store, claims, claimEvents)) {
      if (!options.json) options.out.write(`${note}\n`);
      recording?.claimNotes.push(note);
    }
  }
  const fits = new TraceFits(simulator, manifest, places);
  return finish(await finishTrace({ ...options, results, journeys: fits.attach(journeysOf(tracer, journeyIds)), phaseValues: (id) => tracer.phaseValues(id), stored, outcome, limit: `within ${options.timeoutMs / 1000}s of simulated time`, recording }));
}

/** The journeys of `ids`, each built as it is reached and its snapshot released once the reader moves on. */
export function* journeysOf(tracer: JourneyTracer, ids: readonly string[]): Generator<Journey> {
  for (const id of ids) {
    const journey = tracer.journey(id);
    if (!journey) continue;
    yield journey;
    tracer.releaseSnapshot(id);
  }
}

/**
 * The objects of a manifest, in order: each document's, and the items of a `kind: List` (which
 * kubectl unpacks on the client, cli-runtime's FlattenListVisitor), each with its path in the
 * document (`items[1]`) for placing errors on its lines.
 */
function manifestObjects(manifest: ParsedManifest): { document: ParsedManifest['documents'][number]; object: KubeObject; at: string }[] {
  return manifest.documents.flatMap((document) => {
    const object = document.object!;
    const items = (object as { items?: unknown }).items;
    const isList = object.apiVersion === 'v1' && object.kind === 'List' && Array.isArray(items);
    if (!isList) return [{ document, object, at: '' }];
    return (items as unknown[])
      .map((item, index) => ({ document, object: item as KubeObject, at: `items[${index}]` }))
      .filter(({ object: item }) => typeof item === 'object' && item !== null && !Array.isArray(item));
  });
}

/** Virtual time within which a CRD is Established (its controller reacts in a few ms). */
const ESTABLISH_MS = 1_000;

/**
 * Lets the simulator establish an applied CRD before the next document, as `kubectl wait --for
 * condition=established` would, so the file's custom resources of its kind can be applied.
 */
function awaitEstablished(simulator: Simulator, crd: KubeObject, definedInFile: Set<string>): void {
  const spec = crd.spec as { group?: string; names?: { kind?: string } } | undefined;
  const key = `${spec?.names?.kind ?? ''}.${spec?.group ?? ''}`;
  definedInFile.add(key);
  simulator.runUntil(() => simulator.store.customResources().some((info) => info.key === key), ESTABLISH_MS);
}

/** kubectl's refusal of a kind the server does not serve in that version, on the `apiVersion` line. */
function unservedKindResult(file: string, object: KubeObject, lineOf: (field: string) => number, result: DocumentResult): DocumentResult {
  const apiVersion = String(object.apiVersion ?? '');
  const kind = String(object.kind ?? '');
  const instead = servedInsteadHint(kind, servedVersionsOf(kind).filter((version) => version !== apiVersion));
  return {
    ...result,
    line: lineOf('apiVersion'),
    error: resourceMappingNotFound(object.metadata?.name ?? '', object.metadata?.namespace ?? '', basename(file), apiVersion, kind),
    clientError: true,
    hint: instead ? `${ENSURE_CRDS}\n${instead}` : ENSURE_CRDS,
  };
}

/** Paced mode: virtual time follows the wall clock × speed. */
async function runPaced(simulator: Simulator, done: () => boolean, maxVirtualMs: number, speed: number, guard: () => void): Promise<'done' | 'timeout'> {
  const driver = new PacedDriver(simulator.clock, { speed });
  const deadline = simulator.clock.now() + maxVirtualMs;
  driver.start();
  try {
    return await new Promise((resolve, reject) => {
      const check = setInterval(() => {
        try {
          guard();
        } catch (error) {
          clearInterval(check);
          reject(error);
          return;
        }
        if (done()) {
          clearInterval(check);
          resolve('done');
        } else if (simulator.clock.now() >= deadline) {
          clearInterval(check);
          resolve('timeout');
        }
      }, 50);
    });
  } finally {
    driver.stop();
  }
}
