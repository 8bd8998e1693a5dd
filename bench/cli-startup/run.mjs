// Start-up time of the CLI against a bare `node -e 0`, measured in the same run, interleaved so a
// noisy machine affects every command alike. Targets: --version <= 1.5x, keys --help <= 2x.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, median, percentile } from '../lib/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/facet.js');
const runs = Number(process.env.BENCH_RUNS ?? 30);

const commands = {
  'node -e 0': ['-e', '0'],
  'facet --version': [bin, '--version'],
  'facet keys --help': [bin, 'keys', '--help'],
};
const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));

for (let i = 0; i < runs + 3; i++) {
  for (const [name, args] of Object.entries(commands)) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${name} exited ${r.status}`);
    if (i >= 3) times[name].push(ms); // the first runs warm the file cache
  }
}

const base = median(times['node -e 0']);
const targets = { 'facet --version': 1.5, 'facet keys --help': 2 };
console.log(`cli-startup: ${runs} runs each, median and p90 wall time`);
for (const [name, list] of Object.entries(times)) {
  const ratio = median(list) / base;
  const target = targets[name] ? `  target <= ${targets[name]}x ${ratio <= targets[name] ? 'OK' : 'MISSED'}` : '';
  console.log(`  ${name.padEnd(20)} median ${fmt(median(list))} ms  p90 ${fmt(percentile(list, 90))} ms  ratio ${fmt(ratio, 2)}x${target}`);
}
