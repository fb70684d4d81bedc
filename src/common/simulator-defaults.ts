/**
 * Defaults of the built-in simulator that the extension's settings, the CLI and the simulator
 * itself must agree on.
 */

/**
 * The most pods a simulator holds before pod creation is refused (the pod budget, see
 * docs/simulator-failures.md). About 8 KiB of live heap per pod in the lean simulator: 200,000
 * pods peak near 2.6 GB, inside a 4 GB heap, leaving the 150,000-pod benchmark a third in hand.
 */
export const DEFAULT_MAX_PODS = 200_000;
