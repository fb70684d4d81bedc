/**
 * The journey tracer's public surface: feed it watch events (and, from the simulator, internals),
 * read serialisable journeys, render them as text, record and replay streams.
 */
export { JourneyTracer, type RootSpec, type TracerOptions, type TracerStats } from './tracer';
export { renderJourney, renderJourneys, type RenderOptions } from './render-text';
export { formatStreamRecord, parseStream, replay, type StreamRecord } from './stream';
export { formatDuration, formatOffset } from './time';
export { durationStats } from './snapshot';
export { STAGE_RANK } from './records';
export * from './types';
