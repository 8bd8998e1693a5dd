// Start-up of the CLI against a bare `node -e 0`, measured in the same run, interleaved so a noisy
// machine affects every command alike: wall time (median, p90) and peak memory (max RSS, read by a
// preload in every process, the baseline's too). The CPU time each process used (user + system,
// same preload) is printed beside it: on a busy machine it moves much less than wall time, and the
// load average at the start and the end says how busy the machine was. `facet keys list --json` runs against a local
// `facet serve` started here, so it counts a whole round trip as a user runs it.
// Targets (issue "speed at scale"): --version <= 1.25x; keys list --json <= 2.0x and <= 70 MiB.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, median, percentile } from '../lib/stats.mjs';
import { startPlatform } from '../lib/platform.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin/facet.js');
const runs = Number(process.env.BENCH_RUNS ?? 30);

const platform = await startPlatform();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-cli-'));
// Every process writes its peak RSS (KB) here on exit; one file per run, read back at once.
const preload = path.join(tmp, 'maxrss.cjs');
const rssFile = path.join(tmp, 'rss');
writeFileSync(
  preload,
  `process.on('exit', () => { const r = process.resourceUsage(); require('node:fs').writeFileSync(process.env.BENCH_RSS_FILE, r.maxRSS + ' ' + (r.userCPUTime + r.systemCPUTime)); });\n`,
);
const env = {
  ...process.env,
  FACET_CONFIG_DIR: path.join(tmp, 'config'),
  FACET_BASE_URL: platform.url,
  FACET_API_KEY: platform.key,
  FACET_ACCESS_TOKEN: platform.accessToken,
  NO_COLOR: '1',
  BENCH_RSS_FILE: rssFile,
};

const commands = {
  'node -e 0': ['-e', '0'],
  'facet --version': [bin, '--version'],
  'facet keys --help': [bin, 'keys', '--help'],
  'facet keys list --json': [bin, 'keys', 'list', '--json'],
};
const targets = {
  'facet --version': { ratio: 1.25 },
  'facet keys --help': { ratio: 2 },
  'facet keys list --json': { ratio: 2, rssMiB: 70 },
};
const times = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
const rss = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
const cpu = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
const loadAtStart = os.loadavg();

try {
  for (let i = 0; i < runs + 3; i++) {
    for (const [name, args] of Object.entries(commands)) {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, ['-r', preload, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.status !== 0) throw new Error(`${name} exited ${r.status}`);
      if (name === 'facet keys list --json' && JSON.parse(r.stdout.toString()).length < 1)
        throw new Error('keys list printed no key');
      if (i >= 3) {
        // the first runs warm the file cache
        times[name].push(ms);
        const [maxRssKb, cpuUs] = readFileSync(rssFile, 'utf8').split(' ').map(Number);
        rss[name].push(maxRssKb / 1024);
        cpu[name].push(cpuUs / 1000);
      }
    }
  }
} finally {
  await platform.stop();
  rmSync(tmp, { recursive: true, force: true });
}

const base = median(times['node -e 0']);
const baseCpu = median(cpu['node -e 0']);
const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
console.log(
  `cli-startup: ${runs} runs each, median and p90 wall time, peak RSS, median CPU time; load average ${load(loadAtStart)} at the start, ${load(os.loadavg())} at the end`,
);
for (const [name, list] of Object.entries(times)) {
  const ratio = median(list) / base;
  const peak = Math.max(...rss[name]);
  const t = targets[name];
  const verdicts = [];
  if (t?.ratio) verdicts.push(`<= ${t.ratio}x ${ratio <= t.ratio ? 'OK' : 'MISSED'}`);
  if (t?.rssMiB) verdicts.push(`<= ${t.rssMiB} MiB ${peak <= t.rssMiB ? 'OK' : 'MISSED'}`);
  const cpuRatio = median(cpu[name]) / baseCpu;
  console.log(
    `  ${name.padEnd(24)} median ${fmt(median(list))} ms  p90 ${fmt(percentile(list, 90))} ms  ratio ${fmt(ratio, 2)}x  peak ${fmt(peak)} MiB  cpu ${fmt(median(cpu[name]))} ms (${fmt(cpuRatio, 2)}x)${verdicts.length ? '  target ' + verdicts.join(', ') : ''}`,
  );
}
