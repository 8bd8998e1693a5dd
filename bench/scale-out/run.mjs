// bench/scale-out: several `facet serve` instances on one PostgreSQL, against one instance on SQLite,
// in one run. Authenticated reads (GET /v2/livedocs) and writes (POST /v2/livedocs) per second with
// one instance on SQLite (the baseline), one on PostgreSQL and two on PostgreSQL (load split between
// them); the job queue's throughput on both stores (illustration tasks, create to succeeded); and how
// long a key freeze takes to hold on the other instance (the freeze call returns once every instance
// dropped its cache), with the count of freezes the other instance refused on its very next request.
//
//   npm run build && scripts/test-postgres.sh node bench/scale-out/run.mjs
//   (or BENCH_DATABASE_URL=postgres://… naming a server where databases may be created)
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { fmt, percentile } from '../lib/stats.mjs';
import { startPlatform } from '../lib/platform.mjs';

const admin = process.env.BENCH_DATABASE_URL ?? process.env.FACET_TEST_DATABASE_URL;
if (!admin) {
  console.log(
    'bench/scale-out: needs PostgreSQL (run it through scripts/test-postgres.sh, or set BENCH_DATABASE_URL); skipped',
  );
  process.exit(0);
}
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const TASKS = Number(process.env.BENCH_TASKS ?? 60);
const FREEZES = Number(process.env.BENCH_FREEZES ?? 40);

async function newDatabase() {
  const name = `facet_bench_${Math.random().toString(36).slice(2, 10)}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return u.toString();
}

const run = (opts) =>
  new Promise((resolve, reject) => autocannon(opts, (err, res) => (err ? reject(err) : resolve(res))));

/** Requests per second over all `urls` together, the connections split between them. */
async function load(urls, key, method) {
  const results = await Promise.all(
    urls.map((url) =>
      run({
        url: `${url}/v2/livedocs`,
        method,
        connections: Math.round(40 / urls.length),
        duration: SECONDS,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: method === 'POST' ? JSON.stringify({ name: 'bench' }) : undefined,
      }),
    ),
  );
  const errors = results.reduce((n, r) => n + r.errors + r.non2xx, 0);
  return { rps: results.reduce((n, r) => n + r.requests.average, 0), errors };
}

async function queue(url, token) {
  const t0 = performance.now();
  const ids = [];
  for (let i = 0; i < TASKS; i++) {
    const form = new FormData();
    form.append('kind', 'illustration');
    form.append('prompt', `Harbour light ${i}`);
    form.append('size', '64x64');
    const r = await fetch(`${url}/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    ids.push((await r.json()).id);
  }
  let done = 0;
  while (done < ids.length) {
    done = 0;
    for (const id of ids) {
      const t = await (await fetch(`${url}/tasks/${id}`, { headers: { authorization: `Bearer ${token}` } })).json();
      if (t.status === 'succeeded' || t.status === 'failed') done++;
    }
    if (done < ids.length) await new Promise((r) => setTimeout(r, 100));
  }
  return TASKS / ((performance.now() - t0) / 1000);
}

const started = [];
const stopAll = async () => {
  for (const p of started.splice(0)) await p.stop();
};
const platform = async (args) => {
  const p = await startPlatform(args);
  started.push(p);
  return p;
};
const boot = (p) => JSON.parse(readFileSync(path.join(p.dataDir, 'bootstrap.json'), 'utf8'));
const token = (p) => boot(p).access_token;

const rows = [];
try {
  // Baseline: one instance on SQLite.
  const sqlite = await platform(['--workers', '2']);
  const sqliteRead = await load([sqlite.url], sqlite.key, 'GET');
  const sqliteWrite = await load([sqlite.url], sqlite.key, 'POST');
  const sqliteQueue = await queue(sqlite.url, token(sqlite));
  await stopAll();

  // One instance on PostgreSQL.
  const url1 = await newDatabase();
  const one = await platform(['--database-url', url1, '--workers', '2']);
  const pgRead = await load([one.url], one.key, 'GET');
  const pgWrite = await load([one.url], one.key, 'POST');
  const pgQueue = await queue(one.url, token(one));
  await stopAll();

  // Two instances on one PostgreSQL with one files directory.
  const url2 = await newDatabase();
  const files = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-files-'));
  const a = await platform(['--database-url', url2, '--files-dir', files, '--workers', '2']);
  const b = await platform(['--database-url', url2, '--files-dir', files, '--workers', '2']);
  const twoRead = await load([a.url, b.url], a.key, 'GET');
  const twoWrite = await load([a.url, b.url], a.key, 'POST');

  // Freeze propagation: warm B's cache with the key, freeze through A, ask B at once.
  const times = [];
  let refusedNext = 0;
  for (let i = 0; i < FREEZES; i++) {
    const created = await (
      await fetch(`${a.url}/admin/api-keys`, {
        method: 'POST',
        headers: { 'x-api-key': a.key, 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: boot(a).user_id, name: `f${i}` }),
      })
    ).json();
    for (let w = 0; w < 3; w++)
      await (
        await fetch(`${b.url}/v2/livedocs`, { headers: { authorization: `Bearer ${created.key}` } })
      ).arrayBuffer();
    const t0 = performance.now();
    await (
      await fetch(`${a.url}/admin/api-keys/${created.id}/freeze`, { method: 'POST', headers: { 'x-api-key': a.key } })
    ).arrayBuffer();
    times.push(performance.now() - t0);
    const next = await fetch(`${b.url}/v2/livedocs`, { headers: { authorization: `Bearer ${created.key}` } });
    if (next.status === 403) refusedNext++;
    await next.arrayBuffer();
    await fetch(`${a.url}/admin/api-keys/${created.id}`, { method: 'DELETE', headers: { 'x-api-key': a.key } });
  }
  await stopAll();

  rows.push(['reads/s (GET /v2/livedocs)', sqliteRead, pgRead, twoRead]);
  rows.push(['writes/s (POST /v2/livedocs)', sqliteWrite, pgWrite, twoWrite]);
  console.log(
    `${SECONDS} s per figure, 40 connections (split between instances), load average ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log('figure | 1 × SQLite (baseline) | 1 × PostgreSQL | 2 × PostgreSQL');
  for (const [name, s, p1, p2] of rows) {
    console.log(
      `${name} | ${fmt(s.rps, 0)} | ${fmt(p1.rps, 0)} (${fmt((p1.rps / s.rps) * 100, 0)}%) | ${fmt(p2.rps, 0)} (${fmt((p2.rps / s.rps) * 100, 0)}%)${s.errors + p1.errors + p2.errors ? ` — ${s.errors + p1.errors + p2.errors} errors` : ''}`,
    );
  }
  console.log(
    `queue: ${TASKS} illustration tasks, create to succeeded: SQLite ${fmt(sqliteQueue)} tasks/s, PostgreSQL ${fmt(pgQueue)} tasks/s (${fmt((pgQueue / sqliteQueue) * 100, 0)}%)`,
  );
  console.log(
    `freeze through A held on B: p50 ${fmt(percentile(times, 50))} ms, p99 ${fmt(percentile(times, 99))} ms (the freeze call, which returns once B dropped its cache); refused by B on its next request: ${refusedNext} of ${FREEZES}`,
  );
} finally {
  await stopAll();
}
