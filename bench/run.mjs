// Runs every benchmark (or those named as arguments) one after another.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(here, d.name, 'run.mjs')))
  .map((d) => d.name)
  .filter((name) => wanted.length === 0 || wanted.includes(name));
let failed = 0;
for (const name of benches) {
  console.log(`\n== bench/${name}`);
  const r = spawnSync(process.execPath, [path.join(here, name, 'run.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
