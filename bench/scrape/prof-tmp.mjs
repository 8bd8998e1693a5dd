// bench/scrape: pages per second through batch scrape (POST /v1/beta/scrape/batch-scrape -> job
// queue -> extraction engine -> store) against the same HTTPS pages fetched directly with the same
// concurrency, in the same run. Target: batch scrape at >= 80% of the direct rate.
//
//   npm run build && node bench/scrape/run.mjs
//   BENCH_PAGES=500 BENCH_CONCURRENCY=20 BENCH_PAGE_DELAY_MS=50 node bench/scrape/run.mjs
//
// The pages are served over HTTPS on 127.0.0.1 with a self-signed certificate made here (openssl);
// Node reads NODE_EXTRA_CA_CERTS only at start-up, so the bench runs itself again with it set.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
import { Agent, request } from 'undici';

const N = Number(process.env.BENCH_PAGES ?? 200);
const C = Number(process.env.BENCH_CONCURRENCY ?? 20);
const DELAY = Number(process.env.BENCH_PAGE_DELAY_MS ?? 50);

if (!process.env.BENCH_SCRAPE_TLS_DIR) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-scrape-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], { stdio: 'inherit', env: { ...process.env, BENCH_SCRAPE_TLS_DIR: dir, NODE_EXTRA_CA_CERTS: path.join(dir, 'cert.pem') } });
  rmSync(dir, { recursive: true, force: true });
  process.exit(r.status ?? 1);
}

const dir = process.env.BENCH_SCRAPE_TLS_DIR;
const words = 'The harbour lighthouse guides every fishing boat home through fog and storm. '.repeat(40);
const hits = new Map();
const pages = https.createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) }, (req, res) => {
  hits.set(req.url, (hits.get(req.url) ?? 0) + 1);
  setTimeout(() => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><head><title>Page ${req.url}</title></head><body><nav>menu</nav><article><h1>${req.url}</h1><p>${words}</p><p>${words}</p></article></body></html>`);
  }, DELAY);
});
await new Promise((r) => pages.listen(0, '127.0.0.1', r));
const base = `https://127.0.0.1:${pages.address().port}`;
const urls = (tag) => Array.from({ length: N }, (_, i) => `${base}/${tag}/${i}`);

const directSeconds=1, freshSeconds=1;
const { startServer } = await import('../../dist/server.js');
const server = await startServer({ memory: true, port: 0, logLevel: 'silent', workers: 2, allowFetchFrom: ['127.0.0.1'] });
const key = server.bootstrap.data.api_key;
const s0 = performance.now();
const created = await fetch(`${server.url}/v1/beta/scrape/batch-scrape`, {
  method: 'POST',
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'bench' },
  body: JSON.stringify({ urls: urls('scrape'), maxConcurrency: C }),
});
if (created.status !== 202) throw new Error(`create answered ${created.status}: ${await created.text()}`);
const { id } = await created.json();
await server.ctx.jobs.waitForEnd(id, 600_000);
const scrapeSeconds = (performance.now() - s0) / 1000;
const job = await (await fetch(`${server.url}/v1/beta/scrape/batch-scrape/${id}`, { headers: { authorization: `Bearer ${key}` } })).json();
await server.close();
pages.close();

const twice = [...hits.entries()].filter(([u, n]) => u.startsWith('/scrape/') && n > 1).length;
const directRate = N / directSeconds;
const scrapeRate = N / scrapeSeconds;
console.log(`pages: ${N}, concurrency ${C}, page delay ${DELAY} ms, ${Math.round((words.length * 2) / 1024)} KB of text each`);
console.log(`direct fetch:  ${directRate.toFixed(1)} pages/s (${directSeconds.toFixed(2)} s)`);
console.log(`batch scrape:  ${scrapeRate.toFixed(1)} pages/s (${scrapeSeconds.toFixed(2)} s), status ${job.status}, ${job.output?.succeeded ?? 0} scraped, ${twice} fetched twice`);
console.log(`direct, a new connection per page: ${(N / freshSeconds).toFixed(1)} pages/s (${freshSeconds.toFixed(2)} s)`);
console.log(`ratio: ${((scrapeRate / directRate) * 100).toFixed(0)}% of direct (target >= 80%); ${((scrapeRate / (N / freshSeconds)) * 100).toFixed(0)}% of direct with a connection per page`);
