// Authenticated GET /auth/api-keys on `facet serve` against a bare Fastify route, both in their own
// process, both loaded by autocannon from this process with 50 connections on 127.0.0.1.
// Targets: facet serves at least 75% of the bare route's requests per second on /auth/api-keys, and
// 70% on an API-key-authenticated GET /v2/livedocs (a page of 20).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { fmt } from '../lib/stats.mjs';
import { startPlatform } from '../lib/platform.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 8);

function start(args, env = {}) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

const load = (url, headers, route = '/auth/api-keys') =>
  new Promise((resolve, reject) =>
    autocannon({ url: `${url}${route}`, connections: 50, duration: seconds, headers }, (err, res) => (err ? reject(err) : resolve(res))),
  );

const facet = await startPlatform(['--log-level', 'silent']);
const bare = await start([path.join(here, 'bare.mjs')], { BENCH_DB: path.join(facet.dataDir, 'facet.db') });
const token = JSON.parse(readFileSync(path.join(facet.dataDir, 'bootstrap.json'), 'utf8')).access_token;

try {
  await load(bare.url, {}); // warm both
  await load(facet.url, { authorization: `Bearer ${token}` });
  const b = await load(bare.url, {});
  const q = await load(bare.url, {}, '/sql/auth/api-keys');
  const f = await load(facet.url, { authorization: `Bearer ${token}` });
  if (f.non2xx > 0) throw new Error(`facet answered ${f.non2xx} non-2xx responses`);
  // The issue-9 figure: an API-key-authenticated /v2 read (a LiveDoc page with 20 LiveDocs in it).
  for (let i = 0; i < 20; i++) {
    await fetch(`${facet.url}/v2/livedocs`, { method: 'POST', headers: { authorization: `Bearer ${facet.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Doc ${i}` }) });
  }
  await load(facet.url, { authorization: `Bearer ${facet.key}` }, '/v2/livedocs');
  const v = await load(facet.url, { authorization: `Bearer ${facet.key}` }, '/v2/livedocs');
  if (v.non2xx > 0) throw new Error(`facet answered ${v.non2xx} non-2xx responses on /v2/livedocs`);
  const ratio = f.requests.average / b.requests.average;
  console.log(`server: ${seconds}s each, 50 connections, 127.0.0.1`);
  console.log(`  bare fastify route     ${fmt(b.requests.average, 0)} req/s  p50 ${b.latency.p50} ms  p99 ${b.latency.p99} ms`);
  console.log(`  bare route + the same SQLite query ${fmt(q.requests.average, 0)} req/s  p50 ${q.latency.p50} ms  p99 ${q.latency.p99} ms`);
  console.log(`  facet GET /auth/api-keys ${fmt(f.requests.average, 0)} req/s  p50 ${f.latency.p50} ms  p99 ${f.latency.p99} ms`);
  console.log(`  ratio ${fmt(ratio * 100, 0)}% of bare  target >= 75% ${ratio >= 0.75 ? 'OK' : 'MISSED'}`);
  const vRatio = v.requests.average / b.requests.average;
  console.log(`  facet GET /v2/livedocs (API key, 20 LiveDocs) ${fmt(v.requests.average, 0)} req/s  p50 ${v.latency.p50} ms  p99 ${v.latency.p99} ms`);
  console.log(`  ratio ${fmt(vRatio * 100, 0)}% of bare  target >= 70% ${vRatio >= 0.7 ? 'OK' : 'MISSED'}`);
  console.log(`  ratio ${fmt((f.requests.average / q.requests.average) * 100, 0)}% of bare + query (what auth, validation and our layers cost on top of the read)`);
} finally {
  bare.child.kill('SIGTERM');
  await facet.stop();
}
