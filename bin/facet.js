#!/usr/bin/env node
'use strict';
// Launcher only: the whole CLI lives in the bundled ES module built from src/cli/main.ts.
// This file is CommonJS on purpose (bin/package.json): an ES module as the entry starts Node's ES
// module loader before the first line runs, which `facet --version` has no use for (about 5 ms of
// its start-up, bench/cli-startup). `facet --version` (or -V) alone is answered here from
// dist/version.json, the version the build baked into dist/cli.js: scripts call it to check the
// tool is there, and it needs nothing of the CLI.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // A synchronous read without require() (process.getBuiltinModule: Node 20.16 and later).
  const { readFileSync } = process.getBuiltinModule('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(`${__dirname}/../dist/version.json`, 'utf8')).version}\n`);
} else {
  import('../dist/cli.js').then(async ({ run }) => {
    process.exitCode = await run(process.argv);
  });
}
