#!/usr/bin/env node
// Launcher only: the whole CLI lives in the bundled entry built from src/cli/main.ts.
// `facet --version` (or -V) alone is answered here: scripts call it to check the tool is there,
// and it needs nothing of the CLI (the version is the one the build baked into dist/cli.js).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = await import('../dist/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const { run } = await import('../dist/cli.js');
  process.exitCode = await run(process.argv);
}
