/**
 * Version 1 of the journey file: the decoded form as plain JSON (journeys as the tracer hands them
 * out). Simple and large: a 10,000-pod journey takes hundreds of megabytes. Only read now, so that
 * version-1 files still read (migrate.ts).
 */
import { array, join, optional, record, string } from './fields';
import { readCommon, readPhaseValues } from './meta';
import type { JourneyFile, SavedJourney } from './types';
import type { Journey } from '../journey/types';

export function decodePlain(document: Record<string, unknown>): JourneyFile {
  const journeys = array(document.journeys, 'journeys').map((item, index): SavedJourney => {
    const at = join('journeys', index);
    const entry = record(item, at);
    const journey = record(entry.journey, join(at, 'journey'));
    string(journey.id, join(at, 'journey.id'));
    record(journey.root, join(at, 'journey.root'));
    string(journey.status, join(at, 'journey.status'));
    optional(journey.tree, join(at, 'journey.tree'), record);
    const saved: SavedJourney = { journey: journey as unknown as Journey };
    if (entry.phaseValues !== undefined) saved.phaseValues = readPhaseValues(entry.phaseValues, join(at, 'phaseValues'));
    return saved;
  });
  return { ...readCommon(document), journeys };
}
