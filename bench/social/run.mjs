// Social search benchmark: write N posts (default 1,000,000) as JSON Lines, time
// `facet serve social import` (posts per second), start `facet serve` on that data dir and time
// advanced searches through the HTTP API (p50/p99; target p50 <= 20 ms). Baseline in the same run:
// the same words found by a full-scan LIKE over the posts table, which is what a search costs
// without the full-text index.
//
//   npm run build && node bench/social/run.mjs
//   BENCH_POSTS=200000 BENCH_QUERIES=200 BENCH_CONCURRENCY=1,4 node bench/social/run.mjs
// The target is a search's latency, one at a time; 4 at a time is reported beside it (one server
// process: concurrent searches queue for its SQLite connection, so their latency includes the wait).
// BENCH_KEEP_DATA=1 keeps the imported data dir (its path is printed); BENCH_DATA_DIR=<that path>
// searches it again without writing and importing (the server's migrations still run on start).
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { rng, startPlatform } from '../lib/platform.mjs';
import { fmt, percentile } from '../lib/stats.mjs';

const POSTS = Number(process.env.BENCH_POSTS ?? 1_000_000);
const USERS = Number(process.env.BENCH_USERS ?? 20_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const CONCURRENCY_LEVELS = String(process.env.BENCH_CONCURRENCY ?? '1,4')
  .split(',')
  .map(Number);
const ROOT = path.resolve(import.meta.dirname, '../..');

const random = rng(7);
const pick = (xs) => xs[Math.floor(random() * xs.length)];
const SYL = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'be', 'da', 'fu', 'gi', 'ho', 'ju', 'pe', 'sa'];
const VOCAB = Array.from({ length: 5000 }, (_, i) => {
  let w = '';
  let n = i + 17;
  do {
    w += SYL[n % SYL.length];
    n = Math.floor(n / SYL.length);
  } while (n > 0);
  return w;
});
const word = () => VOCAB[Math.floor(Math.pow(random(), 3) * VOCAB.length)];
const TAGS = ['rust', 'ai', 'music', 'travel', 'news', 'space', 'food', 'books'];
const LANGS = ['en', 'es', 'fr', 'de', 'ja', 'pt'];

const REUSE = process.env.BENCH_DATA_DIR;
const KEEP = !!process.env.BENCH_KEEP_DATA || !!REUSE;
const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-social-'));
const file = path.join(dir, 'posts.jsonl');
if (!REUSE) console.log(`writing ${POSTS} posts by ${USERS} users…`);
const out = createWriteStream(file);
const start = Date.UTC(2024, 0, 1) / 1000;
for (let i = 0; i < (REUSE ? 0 : POSTS); i++) {
  const u = Math.floor(random() * USERS);
  const ts = start + Math.floor((i / POSTS) * 365 * 86400);
  const text =
    Array.from({ length: 8 + Math.floor(random() * 10) }, word).join(' ') + (random() < 0.3 ? ` #${pick(TAGS)}` : '');
  const line = JSON.stringify({
    id: String(1_000_000_000 + i),
    content: text,
    created_at: new Date(ts * 1000).toISOString(),
    lang: pick(LANGS),
    author: { user_id: String(10_000 + u), username: `user${u}`, followers_count: u % 977 },
    metrics: {
      favorite_count: Math.floor(Math.pow(random(), 4) * 1000),
      retweet_count: Math.floor(Math.pow(random(), 5) * 100),
      reply_count: 0,
    },
  });
  if (!out.write(line + '\n')) await new Promise((r) => out.once('drain', r));
}
await new Promise((r) => out.end(r));

// The platform runs on its own data dir; the import writes into it from a second process (WAL).
const server = await startPlatform([], REUSE ? { dataDir: REUSE } : {});
const dataDir = server.dataDir;
if (!REUSE) {
  console.log('importing…');
  const t0 = performance.now();
  const imp = spawnSync(
    process.execPath,
    [path.join(ROOT, 'bin/facet.js'), 'serve', 'social', 'import', file, '--no-seed', '--data-dir', dataDir, '--json'],
    { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  if (imp.status !== 0) throw new Error(`import failed: ${imp.stderr}`);
  const importSeconds = (performance.now() - t0) / 1000;
  console.log(`import: ${POSTS} posts in ${fmt(importSeconds)} s = ${fmt(POSTS / importSeconds, 0)} posts/s`);
}
if (KEEP) console.log(`data dir kept: ${dataDir}`);

const QUERY_KINDS = [
  () => word(),
  () => `${word()} ${word()}`,
  () => `"${word()} ${word()}"`,
  () => `${word()} OR ${word()}`,
  () => `#${pick(TAGS)} lang:${pick(LANGS)}`,
  () => `from:user${Math.floor(random() * USERS)}`,
  () => `${word()} -filter:replies min_faves:10`,
  () => `#${pick(TAGS)} since:2024-06-01 until:2024-07-01`,
];
const KIND_NAMES = [
  'word',
  'two words',
  'phrase',
  'OR',
  '#tag lang:',
  'from:',
  'word -filter min_faves',
  '#tag since until',
];
const queries = Array.from({ length: QUERIES }, (_, i) => QUERY_KINDS[i % QUERY_KINDS.length]());
try {
  const search = async (query, type) => {
    const t = performance.now();
    const r = await fetch(server.url + '/v2/social/tweet/search', {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, query_type: type }),
    });
    if (!r.ok) throw new Error(`${query}: HTTP ${r.status} ${await r.text()}`);
    await r.json();
    return performance.now() - t;
  };
  // The admin is paid and starts with 1000 credits: give it enough for the run.
  spawnSync(process.execPath, [
    path.join(ROOT, 'bin/facet.js'),
    'serve',
    'users',
    'credits',
    'admin',
    '=100000000',
    '--data-dir',
    dataDir,
  ]);
  for (const CONCURRENCY of CONCURRENCY_LEVELS) {
    for (const type of ['Latest', 'Top']) {
      const times = [];
      const byKind = QUERY_KINDS.map(() => []);
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < queries.length) {
            const i = next++;
            const ms = await search(queries[i], type);
            times.push(ms);
            byKind[i % QUERY_KINDS.length].push(ms);
          }
        }),
      );
      const p50 = percentile(times, 50);
      const verdict = CONCURRENCY === 1 ? ` (target p50 <= 20 ms: ${p50 <= 20 ? 'met' : 'NOT met'})` : '';
      console.log(
        `search ${type}: ${queries.length} queries, ${CONCURRENCY} at a time: p50 ${fmt(p50)} ms, p99 ${fmt(percentile(times, 99))} ms${verdict}`,
      );
      console.log(`  p50 by kind: ${KIND_NAMES.map((k, i) => `${k} ${fmt(percentile(byKind[i], 50))}`).join(', ')} ms`);
    }
  }
  // Baseline: the single-word queries as a full scan, straight on the database file.
  const db = new Database(path.join(dataDir, 'facet.db'), { readonly: true });
  const scan = db.prepare('SELECT id FROM social_posts WHERE content LIKE ? ORDER BY created_ts DESC LIMIT 20');
  const words = queries.filter((_, i) => i % QUERY_KINDS.length === 0).slice(0, 20);
  const scanTimes = words.map((w) => {
    const t = performance.now();
    scan.all(`%${w}%`);
    return performance.now() - t;
  });
  db.close();
  console.log(
    `baseline full-scan LIKE (no index, no HTTP): p50 ${fmt(percentile(scanTimes, 50))} ms over ${words.length} words`,
  );
} finally {
  await server.stop({ keepData: KEEP });
  rmSync(dir, { recursive: true, force: true });
}
