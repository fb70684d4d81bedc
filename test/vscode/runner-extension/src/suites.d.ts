// Generated at bundle time by scripts/e2e/vsix.ts: one lazy loader per suite file.
declare module 'kube-journey:suites' {
  const suites: ReadonlyArray<{ file: string; load: () => unknown }>;
  export = suites;
}
