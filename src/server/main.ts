/**
 * The simulator child without twin support (src/server/child.ts), for runs from source that need
 * no cluster code. dist/simulator-server.js is built from src/cli/simulator-server.ts, which adds
 * the twin (`--twin-context`).
 */
import { runSimulatorChild } from './child';

runSimulatorChild(process.argv.slice(2));
