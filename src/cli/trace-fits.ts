/**
 * `trace` on the simulator: each pod the scheduler refused gets the changes that would make it fit
 * (Scheduler.suggestFits), each placed on its manifest line. Pods of one controller are copies of
 * one template, so they share one computation.
 */
import type { KubeObject, Pod } from '../core/k8s';
import { attachFits, type FitSuggestions, type FitTarget } from '../core/journey/fit-suggestions';
import type { Journey, JourneyObjectRef } from '../core/journey/types';
import { lineOfField, type ManifestDocument, type ParsedManifest } from '../core/manifest';
import type { Simulator } from '../sim/simulator';

/** Where an applied object sits in the file: its document and its path in it (`items[1]` in a List). */
export interface AppliedPlace {
  document: ManifestDocument;
  at: string;
}

export function placeKey(target: FitTarget): string {
  return `${target.kind}/${target.namespace}/${target.name}`;
}

export class TraceFits {
  private readonly memo = new Map<string, FitSuggestions | undefined>();

  constructor(
    private readonly simulator: Simulator,
    private readonly manifest: ParsedManifest,
    private readonly places: ReadonlyMap<string, AppliedPlace>,
  ) {}

  /** The applied object of `object` (kind, namespace, name as stored) was at `place`. */
  static keyOf(object: KubeObject): string {
    return placeKey({ kind: object.kind ?? '', namespace: object.metadata?.namespace ?? 'default', name: object.metadata?.name ?? '' });
  }

  attach(journeys: Iterable<Journey>): Iterable<Journey> {
    const fitsFor = (ref: JourneyObjectRef): FitSuggestions | undefined => this.fitsOf(ref);
    return (function* () {
      for (const journey of journeys) yield attachFits(journey, fitsFor);
    })();
  }

  private fitsOf(ref: JourneyObjectRef): FitSuggestions | undefined {
    const pod = this.simulator.store.get<Pod & KubeObject>('Pod', ref.namespace, ref.name);
    if (!pod || pod.spec?.nodeName) return undefined;
    const controller = pod.metadata?.ownerReferences?.find((owner) => owner.controller === true);
    const key = controller?.uid ?? pod.metadata?.uid ?? '';
    if (this.memo.has(key)) return this.memo.get(key);
    const fits = this.simulator.components.scheduler.suggestFits(pod);
    for (const suggestion of fits.suggestions) {
      const place = suggestion.target && this.places.get(placeKey(suggestion.target));
      if (place && suggestion.path) suggestion.line = lineOfField(this.manifest, place.document, `${place.at}${place.at ? '.' : ''}${suggestion.path}`);
    }
    this.memo.set(key, fits);
    return fits;
  }
}
