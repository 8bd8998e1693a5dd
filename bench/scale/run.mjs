// Scale benchmark: what a list page and the usage report cost as one owner's rows grow. Each figure
// is a ratio against the same request at the smallest size, measured in the same run:
//   - GET /v2/livedocs (page 1, size 20) at 10, 10k and 100k LiveDocs of one user (target ≤ 1.5× at 100k)
//   - GET /admin/api-key-usage at 100 and 1M usage records (target p50 ≤ 5 ms at 1M)
//
//   npm run build && node bench/scale/run.mjs
//   BENCH_LIVEDOCS=10,10000,100000 BENCH_USAGE=100,1000000 BENCH_REQUESTS=200 node bench/scale/run.mjs
//
// LiveDocs are created through the API, as a user would. A million usage records would take hours
// of model calls, so they are written straight into the stopped server's SQLite file; the rollups
// are then filled by the same statement migration 0008 uses to backfill an upgraded data dir, and
// the server is started again on it.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import Sqlite from 'better-sqlite3';
import { Agent, request } from 'undici';
import { startPlatform, rng } from '../lib/platform.mjs';
import { percentile } from '../lib/stats.mjs';

const sizes = (name, fallback) => (process.env[name] ?? fallback).split(',').map(Number);
const LIVEDOCS = sizes('BENCH_LIVEDOCS', '10,10000,100000');
const USAGE = sizes('BENCH_USAGE', '100,1000000');
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);

const agent = new Agent({ connections: 64 });
const ms = (n) => `${n.toFixed(2)} ms`;

/** p50/p99 of `REQUESTS` sequential GETs (one at a time: latency, not throughput). */
async function latency(url, headers) {
  const times = [];
  for (let i = 0; i < REQUESTS + 10; i++) {
    const t = performance.now();
    const r = await request(url, { headers, dispatcher: agent });
    const body = await r.body.text();
    if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${body.slice(0, 200)}`);
    if (i >= 10) times.push(performance.now() - t); // the first ten warm up
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function createLiveDocs(p, n) {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const r = await request(`${p.url}/v2/livedocs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Doc ${i}`, description: 'bench' }),
        dispatcher: agent,
      });
      const body = await r.body.text();
      if (r.statusCode !== 200) throw new Error(`create: ${r.statusCode} ${body}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

/** Appends usage records to a stopped server's store and rebuilds the rollups as migration 0008 does. */
function writeUsage(dataDir, userId, keyIds, count) {
  const db = new Sqlite(path.join(dataDir, 'facet.db'));
  const random = rng(42);
  const models = ['corvid-medium', 'aster-large', 'lumen-flash', 'facet-echo'];
  const insert = db.prepare(
    `INSERT INTO usage_records (api_key_id, user_id, task_id, model, operation, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, web_searches, cost_nano_usd, created_at)
     VALUES (?, ?, NULL, ?, 'chat', ?, ?, 0, 0, 0, ?, ?)`,
  );
  const start = Date.parse('2026-01-01T00:00:00Z');
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const at = new Date(start + Math.floor(random() * 300 * 86_400_000)).toISOString();
      insert.run(
        keyIds[i % keyIds.length],
        userId,
        models[i % models.length],
        10 + Math.floor(random() * 2000),
        5 + Math.floor(random() * 800),
        Math.floor(random() * 50_000_000),
        at,
      );
    }
  })();
  db.exec('DELETE FROM usage_rollups');
  for (const [day, by] of [
    ['substr(created_at, 1, 10)', ', substr(created_at, 1, 10)'],
    ["''", ''],
  ]) {
    db.exec(`INSERT INTO usage_rollups (api_key_id, user_id, model, day, calls, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, web_searches, cost_nano_usd, first_call_at, last_call_at)
      SELECT coalesce(api_key_id, ''), user_id, model, ${day}, count(*), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(cache_write_tokens), sum(web_searches), sum(cost_nano_usd), min(created_at), max(created_at)
      FROM usage_records GROUP BY coalesce(api_key_id, ''), user_id, model${by}`);
  }
  const rollups = db.prepare('SELECT count(*) AS n FROM usage_rollups').get().n;
  db.close();
  return rollups;
}

let p = await startPlatform(['--log-level', 'silent', '--chat-limit-key-per-minute', '1000000']);
try {
  const auth = { authorization: `Bearer ${p.key}` };
  console.log(`GET /v2/livedocs?page=1&size=20, ${REQUESTS} requests one at a time`);
  let made = 0;
  let base;
  for (const n of LIVEDOCS) {
    await createLiveDocs(p, n - made);
    made = n;
    // Read afresh (Cache-Control: no-cache skips the server's answer cache): what the list's queries
    // cost at this size, the figure the target is about. Then the same page as a client gets it
    // again with nothing changed (from the answer cache).
    const l = await latency(`${p.url}/v2/livedocs?page=1&size=20`, { ...auth, 'cache-control': 'no-cache' });
    const cached = await latency(`${p.url}/v2/livedocs?page=1&size=20`, auth);
    base ??= l;
    console.log(
      `  ${String(n).padStart(7)} LiveDocs   read afresh p50 ${ms(l.p50)}  p99 ${ms(l.p99)}   ${(l.p50 / base.p50).toFixed(2)}× the p50 at ${LIVEDOCS[0]}   (cached: p50 ${ms(cached.p50)}  p99 ${ms(cached.p99)})`,
    );
  }

  const boot = JSON.parse(readFileSync(path.join(p.dataDir, 'bootstrap.json'), 'utf8'));
  const admin = { 'x-api-key': boot.api_key, 'x-admin-key': boot.admin_key };
  const keyIds = [];
  for (let i = 0; i < 20; i++) {
    const r = await request(`${p.url}/auth/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${boot.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `bench ${i}` }),
      dispatcher: agent,
    });
    const created = JSON.parse(await r.body.text());
    keyIds.push(created.id ?? created.data?.id);
  }
  console.log(`GET /admin/api-key-usage over 20 keys and 4 models, ${REQUESTS} requests one at a time`);
  let written = 0;
  let usageBase;
  for (const n of USAGE) {
    const dataDir = p.dataDir;
    await p.stop({ keepData: true });
    const rollups = writeUsage(dataDir, boot.user_id, keyIds, n - written);
    written = n;
    p = await startPlatform(['--log-level', 'silent'], { dataDir });
    const l = await latency(`${p.url}/admin/api-key-usage`, admin);
    usageBase ??= l;
    console.log(
      `  ${String(n).padStart(7)} records (${rollups} rollup rows)   p50 ${ms(l.p50)}  p99 ${ms(l.p99)}   ${(l.p50 / usageBase.p50).toFixed(2)}× the p50 at ${USAGE[0]}`,
    );
  }
} finally {
  await agent.close();
  await p.stop();
}
