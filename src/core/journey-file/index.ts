/**
 * Journey files (`*.journey.json`): a trace kept whole, read back by `kube-journey show`, the
 * exporters and the extension. See docs/journey-file.md.
 */
export * from './types';
export { JourneyFileError } from './errors';
export { parseJourneyFile, formatJourneyFile, JourneyFileEncoder } from './read';
