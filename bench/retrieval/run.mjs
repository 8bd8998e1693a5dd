// Retrieval benchmark: index N synthetic resources (default 10,000 of 300 words, about 3 million
// words) through the HTTP API of `facet serve`, then time `retrieve`. Baseline in the same run: a
// full-scan LIKE query over the same chunks, which is what search costs without the FTS5 index.
//
//   npm run build && node bench/retrieval/run.mjs
//   BENCH_RESOURCES=2000 BENCH_WORDS=300 BENCH_QUERIES=200 BENCH_CONCURRENCY=8 node bench/retrieval/run.mjs
import { statSync, existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { rng, startPlatform } from '../lib/platform.mjs';
import { percentile } from '../lib/stats.mjs';

const RESOURCES = Number(process.env.BENCH_RESOURCES ?? 10_000);
const WORDS = Number(process.env.BENCH_WORDS ?? 300);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

const random = rng(42);
const SYL = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'ta',
  'vo',
  'zi',
  'be',
  'da',
  'fu',
  'gi',
  'ho',
  'ju',
  'pe',
  'sa',
  'te',
  'wu',
  'yo',
  'xi',
];
const VOCAB = Array.from({ length: 20_000 }, (_, i) => {
  let w = '';
  let n = i + 7;
  do {
    w += SYL[n % SYL.length];
    n = Math.floor(n / SYL.length);
  } while (n > 0);
  return w;
});
// Zipf-like: a few words are everywhere, most are rare, as in real text.
const word = () => VOCAB[Math.floor(Math.pow(random(), 3) * VOCAB.length)];

function documentText() {
  const paras = [];
  let words = 0;
  while (words < WORDS) {
    const sentences = [];
    for (let s = 0; s < 5 && words < WORDS; s++) {
      const n = Math.min(12, WORDS - words);
      const ws = Array.from({ length: n }, word);
      words += n;
      sentences.push(ws[0][0].toUpperCase() + ws.join(' ').slice(1) + '.');
    }
    paras.push(sentences.join(' '));
  }
  return paras.join('\n\n');
}

const api = (p, pathname, body) =>
  fetch(p.url + pathname, {
    method: body ? 'POST' : 'GET',
    headers: { Authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  }).then(async (r) => {
    if (!r.ok) throw new Error(`${pathname}: HTTP ${r.status} ${await r.text()}`);
    return (await r.json()).data;
  });

const p = await startPlatform();
try {
  const ld = (await api(p, '/v2/livedocs', { name: 'bench' })).short_id;
  console.log(
    `indexing ${RESOURCES} resources of ${WORDS} words (${((RESOURCES * WORDS) / 1e6).toFixed(1)} M words), ${CONCURRENCY} at a time…`,
  );
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < RESOURCES) {
        const i = next++;
        await api(p, `/v2/livedocs/${ld}/resources/doc`, { title: `Document ${i} ${word()}`, content: documentText() });
      }
    }),
  );
  const indexMs = performance.now() - t0;

  const dbFile = path.join(p.dataDir, 'facet.db');
  const db = new Database(dbFile, { readonly: true });
  const chunks = db.prepare('SELECT count(*) AS n FROM resource_chunks').get().n;
  const size = () =>
    ['', '-wal']
      .map((s) => dbFile + s)
      .filter(existsSync)
      .reduce((n, f) => n + statSync(f).size, 0);

  // Queries of two or three mid-frequency words: the usual shape of a question's keywords.
  const mid = () => VOCAB[200 + Math.floor(random() * 5000)];
  const queries = Array.from({ length: QUERIES }, () =>
    Array.from({ length: 2 + Math.floor(random() * 2) }, mid).join(' '),
  );

  const http = [];
  for (const q of queries) {
    const s = performance.now();
    await api(p, `/v2/livedocs/${ld}/resources/retrieve`, { query: q });
    http.push(performance.now() - s);
  }
  http.sort((a, b) => a - b);

  const fts =
    db.prepare(`SELECT c.id, bm25(chunk_fts, 2.0, 2.0, 1.0) AS rank FROM chunk_fts JOIN resource_chunks c ON c.id = chunk_fts.rowid
    WHERE chunk_fts MATCH ? AND c.livedoc_id = ? ORDER BY rank LIMIT 30`);
  // Without an index every chunk must be read to find (and then rank) all matches: no LIMIT here.
  const like = db.prepare(`SELECT id FROM resource_chunks WHERE livedoc_id = ? AND (content LIKE ? OR content LIKE ?)`);
  const direct = [];
  for (const q of queries) {
    const s = performance.now();
    fts.all(
      q
        .split(' ')
        .map((w) => `"${w}"`)
        .join(' OR '),
      ld,
    );
    direct.push(performance.now() - s);
  }
  direct.sort((a, b) => a - b);
  const scan = [];
  for (const q of queries.slice(0, Math.min(30, queries.length))) {
    const [a, b] = q.split(' ');
    const s = performance.now();
    like.all(ld, `%${a}%`, `%${b}%`);
    scan.push(performance.now() - s);
  }
  scan.sort((a, b) => a - b);
  const dbBytes = size();
  db.close();

  const ms = (n) => `${n.toFixed(2)} ms`;
  console.log(`resources            ${RESOURCES} (${chunks} chunks)`);
  console.log(
    `index time           ${(indexMs / 1000).toFixed(1)} s (${(RESOURCES / (indexMs / 1000)).toFixed(0)} resources/s, through HTTP)`,
  );
  console.log(`database size        ${(dbBytes / 1024 / 1024).toFixed(1)} MB`);
  console.log(
    `retrieve over HTTP   p50 ${ms(percentile(http, 50))}  p99 ${ms(percentile(http, 99))}  (${QUERIES} queries)`,
  );
  console.log(`FTS5 query alone     p50 ${ms(percentile(direct, 50))}  p99 ${ms(percentile(direct, 99))}`);
  console.log(
    `baseline LIKE scan   p50 ${ms(percentile(scan, 50))}  p99 ${ms(percentile(scan, 99))}  (${scan.length} queries)`,
  );
  console.log(
    `ratio                the FTS5 index answers ${(percentile(scan, 50) / percentile(direct, 50)).toFixed(1)}x faster than the scan (p50)`,
  );
  console.log(`target               retrieve p50 < 10 ms: ${percentile(http, 50) < 10 ? 'met' : 'NOT met'}`);
} finally {
  await p.stop();
}
