// bench/scrape: pages per second through batch scrape (POST /v1/beta/scrape/batch-scrape -> job
// queue -> extraction engine -> store) against the same HTTPS pages fetched directly with the same
// concurrency, in the same run. Target: batch scrape at >= 80% of the direct rate.
//
//   npm run build && node bench/scrape/run.mjs
//   BENCH_PAGES=500 BENCH_CONCURRENCY=20 BENCH_PAGE_DELAY_MS=50 BENCH_ROUNDS=3 node bench/scrape/run.mjs
//   BENCH_CPU_PROF=/tmp/prof node bench/scrape/run.mjs   # --cpu-prof of the server's process (and its CPU worker) into that directory
//
// Fairness: the pages are served by their own process (pages.mjs), as they live elsewhere for a user;
// the server keeps a real store in a temporary data directory (not an in-memory one); direct and
// batch scrape alternate BENCH_ROUNDS times back to back, so each ratio compares figures taken under
// the same load; a rate counts the pages that came back (HTTP 200 bodies directly; `succeeded` in the
// job's output), and pages the batch fetched more than once are reported. Round 1's batch also starts
// the server's CPU worker (a first batch after start pays it); the median is over every round.
// The pages are HTTPS on 127.0.0.1 with a self-signed certificate made here (openssl); Node reads
// NODE_EXTRA_CA_CERTS only at start-up, so the bench runs itself again with it set.
import { execFileSync, fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';

const N = Number(process.env.BENCH_PAGES ?? 200);
const C = Number(process.env.BENCH_CONCURRENCY ?? 20);
const DELAY = Number(process.env.BENCH_PAGE_DELAY_MS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

if (!process.env.BENCH_SCRAPE_TLS_DIR) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-scrape-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const r = spawnSync(process.execPath, [...prof, fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_SCRAPE_TLS_DIR: dir, NODE_EXTRA_CA_CERTS: path.join(dir, 'cert.pem') },
  });
  rmSync(dir, { recursive: true, force: true });
  process.exit(r.status ?? 1);
}

const pages = fork(fileURLToPath(new URL('./pages.mjs', import.meta.url)), {
  env: { ...process.env, BENCH_PAGE_DELAY_MS: String(DELAY) },
});
const ask = (message, field) =>
  new Promise((resolve) => {
    const on = (m) => {
      if (m[field] === undefined) return;
      pages.off('message', on);
      resolve(m);
    };
    pages.on('message', on);
    if (message) pages.send(message);
  });
const { port, textBytes } = await ask(null, 'port');
const base = `https://127.0.0.1:${port}`;
const urls = (tag) => Array.from({ length: N }, (_, i) => `${base}/${tag}/${i}`);

/** A phase's window on the profiles' clock (microseconds, monotonic), to read the profiles for that phase only. */
function profileWindow(tag, seconds) {
  const end = Number(process.hrtime.bigint() / 1000n);
  if (process.env.BENCH_CPU_PROF) console.log(`profile window ${tag} (µs): ${Math.round(end - seconds * 1e6)} ${end}`);
}

/** The same pages fetched directly, C at a time, bodies read whole; `fresh`: a new connection (TLS handshake) per page. */
async function direct(tag, fresh) {
  const agent = fresh ? null : new Agent({ connections: C });
  const list = urls(tag);
  let next = 0;
  let ok = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next < list.length) {
        const one = agent ?? new Agent();
        const res = await request(list[next++], { dispatcher: one });
        const body = await res.body.text();
        if (res.statusCode === 200 && body.length > 0) ok++;
        if (!agent) await one.destroy();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  profileWindow(tag, seconds);
  await agent?.close();
  return { ok, seconds, rate: ok / seconds };
}

const { startServer } = await import('../../dist/server.js');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-scrape-data-'));
const server = await startServer({ dataDir, port: 0, logLevel: 'silent', workers: 2, allowFetchFrom: ['127.0.0.1'] });
const key = server.bootstrap.data.api_key;

async function batchScrape(tag) {
  const s0 = performance.now();
  const created = await fetch(`${server.url}/v1/beta/scrape/batch-scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': `bench-${tag}` },
    body: JSON.stringify({ urls: urls(tag), maxConcurrency: C }),
  });
  if (created.status !== 202) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const { id } = await created.json();
  await server.ctx.jobs.waitForEnd(id, 600_000);
  const seconds = (performance.now() - s0) / 1000;
  profileWindow(tag, seconds);
  const job = await (
    await fetch(`${server.url}/v1/beta/scrape/batch-scrape/${id}`, { headers: { authorization: `Bearer ${key}` } })
  ).json();
  const { hits } = await ask('hits', 'hits');
  const twice = hits.filter(([u, n]) => u.startsWith(`/${tag}/`) && n > 1).length;
  const ok = job.output?.succeeded ?? 0;
  return { ok, seconds, rate: ok / seconds, status: job.status, twice };
}

console.log(
  `pages: ${N}, concurrency ${C}, page delay ${DELAY} ms, ${Math.round(textBytes / 1024)} KB of text each, ${ROUNDS} round(s); load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const ratios = [];
for (let r = 1; r <= ROUNDS; r++) {
  const d = await direct(`direct-${r}`, false);
  const s = await batchScrape(`scrape-${r}`);
  ratios.push(s.rate / d.rate);
  console.log(
    `round ${r}: direct ${d.rate.toFixed(1)} pages/s (${d.ok} in ${d.seconds.toFixed(2)} s); batch scrape ${s.rate.toFixed(1)} pages/s (${s.ok} scraped in ${s.seconds.toFixed(2)} s, status ${s.status}, ${s.twice} fetched twice): ${((s.rate / d.rate) * 100).toFixed(0)}%${r === 1 ? ' (the first batch of a fresh server)' : ''}`,
  );
}
const fresh = await direct('fresh', true);
console.log(`direct, a new connection per page: ${fresh.rate.toFixed(1)} pages/s (${fresh.seconds.toFixed(2)} s)`);
const sorted = [...ratios].sort((a, b) => a - b);
console.log(
  `ratio: median ${(sorted[Math.floor(sorted.length / 2)] * 100).toFixed(0)}% of direct (rounds: ${ratios.map((x) => `${(x * 100).toFixed(0)}%`).join(', ')}; target >= 80%); load average now ${os.loadavg()[0].toFixed(1)}`,
);
await server.close();
pages.disconnect();
rmSync(dataDir, { recursive: true, force: true });
