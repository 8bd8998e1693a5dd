// Runs every bench/<name>/run.mjs one after the other.
import { readdirSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
for (const name of readdirSync(here).sort()) {
  const script = path.join(here, name, 'run.mjs');
  if (!existsSync(script)) continue;
  const r = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = r.status ?? 1;
}
