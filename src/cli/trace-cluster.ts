/**
 * `kube-journey trace -f <file> --context NAME [--kubeconfig FILE]`: apply a manifest to a cluster
 * from a kubeconfig (a real one, or a served simulator) with server-side apply, follow the applied
 * objects over list + watch, and print the same timeline and exit codes as the built-in simulator
 * path. Anything the connection cannot see (a kind RBAC forbids, a lost connection) is said on
 * stderr as it happens and again at the end.
 */
import { basename } from 'node:path';
import type { Writable } from 'node:stream';
import { lineOfField, type ManifestDocument, type ParsedManifest } from '../core/manifest';
import { JourneyTracer } from '../core/journey/tracer';
import type { ApplyResult } from '../cluster/apply';
import { ClusterConnection } from '../cluster/connection';
import { describeError } from '../cluster/errors';
import { KubeconfigError } from '../cluster/kubeconfig';
import { ClusterTraceSession } from '../cluster/session';
import { describeProblem, problemSubject, type WatchProblem } from '../cluster/watcher';
import { canSave, finishTrace, journeysOf, printResults, readManifest, SETTLE_MS, type DocumentResult } from './trace';
import { TraceRecording, saveRecording } from './trace-recording';

export interface TraceClusterOptions {
  file: string;
  /** The kubeconfig context (default: the current context). */
  context?: string;
  /** An explicit kubeconfig file (default: KUBECONFIG, then ~/.kube/config). */
  kubeconfig?: string;
  /** Environment for KUBECONFIG and HOME (default process.env). */
  env?: Record<string, string | undefined>;
  /** Take over fields other field managers own (kubectl's --force-conflicts). */
  forceConflicts?: boolean;
  /** Wall-clock limit for the journeys to finish. */
  timeoutMs: number;
  /** Wall-clock time watched after every journey finished, to catch crash loops (default 30 s). */
  settleMs?: number;
  json: boolean;
  evidence: boolean;
  width?: number;
  out: Writable;
  err: Writable;
  /** Use this connection instead of opening one from the kubeconfig. */
  connection?: ClusterConnection;
  /** Save the trace to this journey file (`--save`): written atomically once the trace is over. */
  save?: string;
}

const CONFLICT_HINT = `Please review the fields above--they currently have other managers. Either
remove them from the manifest so that their current managers keep them, set them to the
values they have now to co-own them, or apply with --force-conflicts to take them over.
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts`;

function documentResult(manifest: ParsedManifest, document: ManifestDocument, result: ApplyResult): DocumentResult {
  const out: DocumentResult = { document: document.index, line: document.startLine, object: result.display };
  const failure = result.failure;
  if (!failure) {
    out.action = result.action;
    return out;
  }
  const path = failure.causes.find((cause) => cause.path)?.path;
  if (path) out.line = lineOfField(manifest, document, path);
  out.error = failure.message;
  if (!failure.fromServer) out.clientError = true;
  if (failure.conflicts.length > 0) out.hint = CONFLICT_HINT;
  return out;
}

/** Says (on stderr) when a collection becomes invisible or visible again; one line per outage for lost connections. */
function reportProblemsAsTheyChange(say: (line: string) => void): (problems: WatchProblem[]) => void {
  const shown = new Map<string, string>();
  return (problems) => {
    const current = new Map<string, string>();
    for (const problem of problems) {
      if (problem.reason === 'Unreachable') current.set('connection', `lost the connection to the API server, reconnecting: ${problem.message}`);
      else current.set(`${problem.path} ${problem.reason}`, describeProblem(problem));
    }
    for (const [key, text] of current) if (!shown.has(key)) say(`kube-journey: warning: ${text}`);
    for (const key of shown.keys()) {
      if (current.has(key)) continue;
      say(key === 'connection' ? 'kube-journey: reconnected to the API server' : `kube-journey: ${key.split(' ')[0]} can be watched again`);
    }
    shown.clear();
    for (const [key, text] of current) shown.set(key, text);
  };
}

export async function runTraceCluster(options: TraceClusterOptions): Promise<number> {
  const warn = (text: string): void => void options.err.write(text);
  const manifest = readManifest(options.file, options.err);
  if (!manifest || !canSave(options.save, options.err)) return 1;

  let connection: ClusterConnection;
  try {
    connection = options.connection ?? ClusterConnection.open({ context: options.context, kubeconfig: options.kubeconfig, env: options.env });
  } catch (error) {
    if (!(error instanceof KubeconfigError)) throw error;
    warn(`kube-journey: ${error.message}\n`);
    return 1;
  }
  try {
    await connection.serverVersion();
  } catch (error) {
    warn(`kube-journey: context "${connection.context.name}" (${connection.server}): ${describeError(error)}\n`);
    return 1;
  }

  const objects = manifest.documents.map((document) => document.object!);
  const tracer = new JourneyTracer();
  const session = new ClusterTraceSession(connection, tracer);
  const recording = options.save ? new TraceRecording() : undefined;
  // A warning line, kept for the journey file too.
  const say = (line: string): void => {
    warn(`${line}\n`);
    recording?.warnings.push(line);
  };
  const stopReporting = session.watcher.onProblemsChanged(reportProblemsAsTheyChange(say));
  try {
    await session.start(objects);
    const applied = await session.apply(objects, { force: options.forceConflicts, source: basename(options.file) });
    const results = applied.map((entry, index) => documentResult(manifest, manifest.documents[index], entry.result));
    printResults(options.file, results, options.json, options.out, options.err);

    const journeyIds = applied.flatMap((entry) => (entry.journeyId ? [entry.journeyId] : []));
    const allDone = (): boolean => journeyIds.every((id) => tracer.progress(id)?.done === true);
    const anyStuck = (): boolean => journeyIds.some((id) => tracer.progress(id)?.stuck === true);
    const outcome = (await session.waitFor(allDone, options.timeoutMs)) ? 'done' : 'timeout';
    // As in the simulator path: a crash-looping container can look Ready for a moment.
    if (outcome === 'done' && journeyIds.length > 0) await session.waitFor(anyStuck, options.settleMs ?? SETTLE_MS);

    const problems = session.problems();
    stopReporting();
    for (const problem of problems) say(`kube-journey: the journeys above were traced without ${problemSubject(problem)} (${problem.message})`);
    const code = await finishTrace({
      ...options,
      results,
      journeys: journeysOf(tracer, journeyIds),
      phaseValues: (id) => tracer.phaseValues(id),
      outcome,
      limit: `within ${options.timeoutMs / 1000}s`,
      extra: { context: connection.context.name, problems },
      recording,
    });
    if (!recording || !options.save) return code;
    return await saveRecording(recording, { path: options.save, source: options.file, target: { type: 'context', context: connection.context.name }, exitCode: code, err: options.err });
  } finally {
    stopReporting();
    await session.stop();
  }
}
