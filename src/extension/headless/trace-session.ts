/**
 * What the extension knows about one target cluster: the journey tracer fed by the watch, the
 * recorded object versions, and the manifests applied from the editor with each document's
 * result. The tree, the hovers, the CodeLenses and the timeline panels all read it. Pure (no
 * `vscode`), so the tree model and the lookups are tested in plain Node.
 */
import type { InternalStep } from '../../core/internals';
import type { JourneyLookup, RootQuery } from '../../core/explain/hover';
import { JourneyTracer, type RootSpec } from '../../core/journey/tracer';
import type { Journey } from '../../core/journey/types';
import type { WatchEvent } from '../../core/k8s';
import { Disposable, Emitter } from './disposable';
import { ObjectHistory } from './object-history';

/** One document's outcome, as the tree and the result message show it. */
export interface AppliedEntry {
  documentIndex: number;
  /** `deployment.apps/web`, as kubectl names objects. */
  display: string;
  kind: string;
  name: string;
  namespace?: string;
  /** 1-based line of the document in the file. */
  line: number;
  action?: 'created' | 'configured' | 'unchanged';
  /** The server's message (or why nothing was sent). */
  error?: string;
  /** Set for Deployments, ReplicaSets and Pods that were applied. */
  journeyId?: string;
}

/** One Apply and Trace of a file (or a selection of it). */
export interface AppliedManifest {
  /** The document's URI as a string: one entry per file, replaced when it is applied again. */
  key: string;
  /** `nginx-deployment.yaml`, or `nginx-deployment.yaml (selection)`. */
  label: string;
  /** The target it went to: `kube-journey-simulator`, a context name. */
  target: string;
  appliedAt: number;
  entries: AppliedEntry[];
}

export class TraceSession extends Disposable {
  private tracerInstance: JourneyTracer;
  private stopTracer: () => void;
  readonly history = new ObjectHistory();
  private readonly manifestsByKey = new Map<string, AppliedManifest>();
  /** `Kind/name` → journeys begun for that root, oldest first. */
  private readonly rootJourneys = new Map<string, { namespace: string; id: string }[]>();
  private readonly journeyEmitter = this._register(new Emitter<string>());
  private readonly manifestEmitter = this._register(new Emitter<void>());
  private readonly clearEmitter = this._register(new Emitter<void>());

  /** A journey changed (fired per watch event; listeners batch). */
  readonly onDidChangeJourney = this.journeyEmitter.event;
  /** A manifest was applied (the tree's top level changed). */
  readonly onDidChangeManifests = this.manifestEmitter.event;
  /** Everything was forgotten (target switched, simulator reset). */
  readonly onDidClear = this.clearEmitter.event;

  constructor() {
    super();
    this.tracerInstance = new JourneyTracer();
    this.stopTracer = this.tracerInstance.onDidChange((change) => this.journeyEmitter.fire(change.journeyId));
    this._register({ dispose: () => this.stopTracer() });
  }

  get tracer(): JourneyTracer {
    return this.tracerInstance;
  }

  ingest(event: WatchEvent, receivedAt: number): void {
    this.history.record(event, receivedAt);
    this.tracerInstance.ingest(event, receivedAt);
  }

  ingestInternal(step: InternalStep): void {
    this.tracerInstance.ingestInternal(step);
  }

  /** Starts a journey for an applied root; `appliedAt` is when the request was sent. */
  begin(root: RootSpec, appliedAt: number): string {
    const id = this.tracerInstance.begin(root, appliedAt);
    const key = `${root.kind}/${root.name}`;
    const list = this.rootJourneys.get(key) ?? [];
    list.push({ namespace: root.namespace ?? 'default', id });
    this.rootJourneys.set(key, list);
    return id;
  }

  recordManifest(manifest: AppliedManifest): void {
    this.manifestsByKey.delete(manifest.key);
    this.manifestsByKey.set(manifest.key, manifest);
    this.manifestEmitter.fire();
  }

  /** Newest first. */
  manifests(): AppliedManifest[] {
    return [...this.manifestsByKey.values()].reverse();
  }

  manifest(key: string): AppliedManifest | undefined {
    return this.manifestsByKey.get(key);
  }

  journey(id: string): Journey | undefined {
    return this.tracerInstance.journey(id);
  }

  journeyIds(): string[] {
    return this.tracerInstance.journeyIds();
  }

  /** The newest journey for a root as a manifest names it (any namespace when the manifest names none, the newest winning). */
  readonly lookup: JourneyLookup = (root: RootQuery) => {
    const id = this.latestJourneyId(root);
    return id === undefined ? undefined : this.tracerInstance.journey(id);
  };

  /** The id of `lookup`'s journey: a newer apply of the same object takes over from an older journey. */
  latestJourneyId(root: RootQuery): string | undefined {
    const list = this.rootJourneys.get(`${root.kind}/${root.name}`);
    if (!list) return undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      if (root.namespace === undefined || list[i].namespace === root.namespace) return list[i].id;
    }
    return undefined;
  }

  /** Forgets every journey, object and manifest (a new target or a reset simulator). */
  clear(): void {
    this.stopTracer();
    this.tracerInstance = new JourneyTracer();
    this.stopTracer = this.tracerInstance.onDidChange((change) => this.journeyEmitter.fire(change.journeyId));
    this.history.clear();
    this.manifestsByKey.clear();
    this.rootJourneys.clear();
    this.clearEmitter.fire();
    this.manifestEmitter.fire();
  }
}
