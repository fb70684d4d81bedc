#!/usr/bin/env node
// The CLI is bundled by `npm run build` into dist/cli.js; run from a clone, build first if needed.
const path = require('node:path');
const fs = require('node:fs');
const bundle = path.join(__dirname, '..', 'dist', 'cli.js');
if (!fs.existsSync(bundle)) {
  process.stderr.write('kube-journey: dist/cli.js is missing; run `npm run build` (or `npm install`) first.\n');
  process.exit(2);
}

require(bundle);
