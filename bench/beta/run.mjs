// Beta backlinks benchmark: one target with N backlinks (default 1,000,000, from the local
// provider's own generator) written as a CSV file, imported with `facet serve data import` (streamed
// through csv-parse into the store's backlinks tables), then queried through the HTTP API of a
// running `facet serve`: three filters and an order, first page of 100, a condition never seen
// before on every run (a new rank bound and anchor pattern) — what the target is judged on. Also
// shown: the same query repeated (as every further page of a walk repeats it), and the server's
// resident memory (now and at its peak). Baseline in the same run: the same page with no filters and
// the default order.
//
//   npm run build && node bench/beta/run.mjs
//   BENCH_BACKLINKS=200000 BENCH_RUNS=30 node bench/beta/run.mjs
//   BENCH_DATA_DIR=/tmp/beta-1m node bench/beta/run.mjs   (imports once into that dir and keeps it;
//   later runs with the same dir skip the CSV and the import and only query)
import { spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { startPlatform } from '../lib/platform.mjs';
import { fmt, percentile } from '../lib/stats.mjs';

const N = Number(process.env.BENCH_BACKLINKS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const KEEP = process.env.BENCH_DATA_DIR ? path.resolve(process.env.BENCH_DATA_DIR) : null;
const reuse = KEEP !== null && existsSync(path.join(KEEP, 'facet.db'));
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The generator is TypeScript inside the server bundle: bundle just that module for the bench.
const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-beta-'));
const entry = path.join(dir, 'entry.ts');
writeFileSync(
  entry,
  `export * from ${JSON.stringify(path.join(ROOT, 'src/server/providers/beta/local/backlinks-data.ts'))};`,
);
buildSync({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: path.join(dir, 'gen.mjs'),
  logLevel: 'warning',
});
const { backlinkRows, parseTarget, BACKLINK_FIELDS } = await import(pathToFileURL(path.join(dir, 'gen.mjs')).href);

// CSV as the importer reads it: lists as a|b, JSON for indirect_link_path, empty for null.
const COLUMNS = ['target', ...Object.keys(BACKLINK_FIELDS), 'indirect_link_path'];
const cell = (v) => {
  if (v === null || v === undefined) return '';
  const s = Array.isArray(v) ? (typeof v[0] === 'object' ? JSON.stringify(v) : v.join('|')) : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const subject = 'bench-target.example';
const file = path.join(dir, 'backlinks.csv');
let t = performance.now();
if (!reuse) {
  const out = createWriteStream(file);
  out.write(COLUMNS.join(',') + '\n');
  for (const row of backlinkRows(parseTarget(subject), N)) {
    const line = COLUMNS.map((c) => (c === 'target' ? subject : cell(row[c]))).join(',') + '\n';
    if (!out.write(line)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
  console.log(
    `wrote ${N.toLocaleString()} backlinks as CSV (${fmt(statSync(file).size / 1e6, 0)} MB) in ${fmt((performance.now() - t) / 1000)} s`,
  );
}

if (KEEP) mkdirSync(KEEP, { recursive: true });
const server = await startPlatform([], KEEP ? { dataDir: KEEP } : {});
try {
  const facet = (...args) =>
    spawnSync(
      '/usr/bin/time',
      ['-f', '%M', process.execPath, path.join(ROOT, 'bin/facet.js'), ...args, '--data-dir', server.dataDir],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
  if (reuse) console.log(`reusing the imported data dir ${KEEP}`);
  else {
    t = performance.now();
    const imp = facet('serve', 'data', 'import', 'backlinks', file, '--json');
    if (imp.status !== 0) throw new Error(`import failed: ${imp.stderr}`);
    const importSeconds = (performance.now() - t) / 1000;
    const importPeakMb = Number(imp.stderr.trim().split('\n').pop()) / 1024;
    console.log(
      `import: ${fmt(importSeconds)} s = ${fmt(N / importSeconds, 0)} rows/s, importer peak RSS ${fmt(importPeakMb, 0)} MB`,
    );
    facet('serve', 'users', 'credits', 'admin', '=100000000');
  }

  const rssStart = server.rssKb() / 1024;
  const post = async (task) => {
    const s = performance.now();
    const r = await fetch(server.url + '/v1/beta/seo/backlinks/backlinks/live', {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ target: subject, limit: 100, ...task }]),
    });
    const body = await r.json();
    const ms = performance.now() - s;
    const res = body.tasks?.[0];
    if (!r.ok || res?.status_code !== 20000) throw new Error(`HTTP ${r.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return { ms, total: res.result[0].total_count, items: res.result[0].items_count };
  };
  const times = async (task) => {
    const first = await post(task);
    const ms = [];
    for (let i = 0; i < RUNS; i++) ms.push((await post(task)).ms);
    return { first, ms };
  };

  const TAILS = [
    'review',
    'guide',
    'homepage',
    'pricing',
    'tutorial',
    'alternatives',
    'official',
    'docs',
    'blog',
    'comparison',
  ];
  const fresh = [];
  let freshTotals = 0;
  for (let i = 0; i < RUNS; i++) {
    const tail = TAILS[i % TAILS.length];
    const r = await post({
      filters: [
        ['rank', '>', 300 + i],
        'and',
        ['dofollow', '=', true],
        'and',
        ['anchor', 'ilike', `%${tail.slice(0, 3 + Math.floor(i / TAILS.length))}%`],
      ],
      order_by: ['first_seen,desc'],
    });
    fresh.push(r.ms);
    freshTotals += r.total;
  }
  const repeated = await times({
    filters: [['rank', '>', 300], 'and', ['dofollow', '=', true], 'and', ['anchor', 'ilike', '%review%']],
    order_by: ['first_seen,desc'],
  });
  const baseline = await times({});
  const rssEnd = server.rssKb() / 1024;
  // RSS counts the database file's pages the server has mapped (SQLite mmap) beside its own memory:
  // RssAnon is the process's own part, RssFile the mapped file's (page cache, reclaimable).
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const mb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1]) / 1024;
  const peak = mb('VmHWM');

  const freshP50 = percentile(fresh, 50);
  const baseP50 = percentile(baseline.ms, 50);
  console.log(
    `three filters + order, a new condition each run: p50 ${fmt(freshP50)} ms, p99 ${fmt(percentile(fresh, 99))} ms (${fmt(freshTotals / RUNS, 0)} matches on average)`,
  );
  console.log(
    `three filters + order, repeated: p50 ${fmt(percentile(repeated.ms, 50))} ms, p99 ${fmt(percentile(repeated.ms, 99))} ms (${repeated.first.total.toLocaleString()} match); first ${fmt(repeated.first.ms)} ms`,
  );
  console.log(
    `baseline, no filters, default order: p50 ${fmt(baseP50)} ms, p99 ${fmt(percentile(baseline.ms, 99))} ms (${baseline.first.total.toLocaleString()} rows); first ${fmt(baseline.first.ms)} ms`,
  );
  console.log(`ratio new-condition p50 / baseline p50: ${fmt(freshP50 / baseP50, 2)}`);
  console.log(
    `server RSS: ${fmt(rssStart, 0)} MB after the import, ${fmt(rssEnd, 0)} MB after the queries (own ${fmt(mb('RssAnon'), 0)} MB, mapped database file ${fmt(mb('RssFile'), 0)} MB), peak ${fmt(peak, 0)} MB`,
  );
  console.log(
    `targets: new-condition p50 <= 100 ms ${freshP50 <= 100 ? 'met' : 'NOT met'}; server RSS growth <= 300 MB ${rssEnd - rssStart <= 300 ? 'met' : 'NOT met'}`,
  );
} finally {
  await server.stop({ keepData: KEEP !== null });
  rmSync(dir, { recursive: true, force: true });
}
