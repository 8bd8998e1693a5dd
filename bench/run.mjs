// Runs every benchmark in turn (see bench/README.md).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

for (const name of ['retrieval', 'streams']) {
  console.log(`\n== bench/${name}`);
  const r = spawnSync(process.execPath, [path.join(import.meta.dirname, name, 'run.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = 1;
}
