/**
 * Imported first by extension.ts, so that in the bundle this line runs before any other module
 * is evaluated: the start of "bundle load" in the activation log.
 */
export const bundleLoadStart = performance.now();
