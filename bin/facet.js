#!/usr/bin/env node
// Launcher only: the whole CLI lives in the bundled entry built from src/cli/main.ts.
import { run } from '../dist/cli.js';

run(process.argv).then((code) => {
  process.exitCode = code;
});
