#!/usr/bin/env node
// The CLI is bundled by `npm run build` into dist/cli.js; run from a clone, build first if needed.
const path = require('node:path');
const fs = require('node:fs');
const bundle = path.join(__dirname, '..', 'dist', 'cli.js');
if (!fs.existsSync(bundle)) {
  process.stderr.write('kube-journey: dist/cli.js is missing; run `npm run build` (or `npm install`) first.\n');
  process.exit(2);
}

// V8 sizes its young generation when the process starts. Tracing a large cluster allocates
// short-lived objects fast, and with a larger young generation fewer of them survive into the old
// one: a 150,000-pod trace takes a quarter less time (README, "The paths users take"). So `trace`
// runs once more with it, unless it already has a young-generation size.
const YOUNG_GENERATION = '--max-semi-space-size=64';
const sized = process.execArgv.some((arg) => arg.startsWith('--max-semi-space-size'));
if (process.argv[2] === 'trace' && !sized) {
  const { spawnSync } = require('node:child_process');
  const { constants } = require('node:os');
  const run = spawnSync(process.execPath, [...process.execArgv, YOUNG_GENERATION, __filename, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (!run.error) process.exit(run.status ?? 128 + (constants.signals[run.signal] ?? 1));
}
require(bundle);
