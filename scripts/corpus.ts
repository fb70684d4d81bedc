/**
 * `npm run corpus [-- --json] [-- --filter TEXT] [-- --timeout SECONDS]`: traces every manifest of
 * the docs corpus (test/corpus) on a fresh simulator and prints expected vs simulated outcomes.
 * Exits 1 when a file differs without a knownDifference mark in test/corpus/expected.json.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_TIMEOUT_MS, formatCorpusTable, runCorpus } from '../test/corpus/corpus-runner';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { json: { type: 'boolean' }, filter: { type: 'string' }, timeout: { type: 'string' } } });
  const timeoutMs = values.timeout === undefined ? DEFAULT_TIMEOUT_MS : Number(values.timeout) * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    process.stderr.write(`corpus: --timeout must be a positive number of seconds, not ${values.timeout}\n`);
    return 2;
  }
  const rows = await runCorpus({ timeoutMs, filter: values.filter });
  if (values.json) {
    const report = rows.map(({ expected, simulated, match }) => ({ file: expected.file, kinds: expected.kinds, expected: expected.outcome, expectedReason: expected.reason, simulated: simulated.outcome, simulatedReason: simulated.reason, restarts: simulated.restarts, match, knownDifference: expected.knownDifference }));
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    process.stdout.write(`${formatCorpusTable(rows)}\n`);
  }
  return rows.some((row) => !row.match && !row.expected.knownDifference) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`corpus: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
