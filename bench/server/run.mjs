// Authenticated reads and writes of `facet serve` against bare Fastify routes, each in its own
// process, loaded by autocannon from this process with 50 connections on 127.0.0.1. This VM's speed
// swings within minutes, so the figures are taken in rounds (BENCH_ROUNDS, default 3, of
// BENCH_SECONDS each, default 4): each round measures the baseline and facet back to back, and the
// ratio reported is the median of the rounds' ratios.
// Targets (issue 9): GET /auth/api-keys ≥ 75% of the bare route; an API-key-authenticated
// GET /v2/livedocs (a page of 20) ≥ 70% of the bare route — printed against the small bare answer
// and against a bare route answering the same 3.5 KB page (bytes cost the kernel and the client
// too); POST /v2/livedocs ≥ 70% of a bare POST that INSERTs one row.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { fmt, median } from '../lib/stats.mjs';
import { startPlatform } from '../lib/platform.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

function start(args, env = {}) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d;
      const m = /listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

let posted = 0;
/** One autocannon run; also the serving process's CPU time per request (steadier than req/s on a busy machine). */
async function load(url, route, headers, options = {}) {
  const pid = url === facet.url ? facet.pid : bare.child.pid;
  const before = cpuSeconds(pid);
  const res = await loadOnly(url, route, headers, options);
  res.cpuPerRequestUs = ((cpuSeconds(pid) - before) / res.requests.total) * 1e6;
  return res;
}

const loadOnly = (url, route, headers, { post = false, duration = seconds } = {}) =>
  new Promise((resolve, reject) =>
    autocannon(
      {
        url: `${url}${route}`,
        connections: 50,
        duration,
        headers: post ? { ...headers, 'content-type': 'application/json' } : headers,
        ...(post
          ? { method: 'POST', body: JSON.stringify({ name: 'Bench doc', description: 'written by bench/server' }) }
          : {}),
      },
      (err, res) => {
        if (err) return reject(err);
        if (res.non2xx > 0) return reject(new Error(`${route} answered ${res.non2xx} non-2xx responses`));
        if (post) posted += res.requests.total;
        resolve(res);
      },
    ),
  );

const facet = await startPlatform(['--log-level', 'silent']);
const token = JSON.parse(readFileSync(path.join(facet.dataDir, 'bootstrap.json'), 'utf8')).access_token;
const asUser = { authorization: `Bearer ${token}` };
const byKey = { authorization: `Bearer ${facet.key}` };
// A page of 20 LiveDocs to list, made before any measuring; the bare server answers that very page.
for (let i = 0; i < 20; i++) {
  await fetch(`${facet.url}/v2/livedocs`, {
    method: 'POST',
    headers: { ...byKey, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Doc ${i}` }),
  });
}
const pageFile = path.join(facet.dataDir, 'bench-page.json');
writeFileSync(pageFile, await (await fetch(`${facet.url}/v2/livedocs`, { headers: byKey })).text());
const bare = await start([path.join(here, 'bare.mjs')], {
  BENCH_DB: path.join(facet.dataDir, 'facet.db'),
  BENCH_WRITE_DB: path.join(facet.dataDir, 'bare-baseline.db'),
  BENCH_PAGE: pageFile,
});

const figures = {
  bare: { label: 'bare fastify route (GET)', runs: [] },
  bareSql: { label: 'bare route + the same SQLite query', runs: [] },
  keys: { label: 'facet GET /auth/api-keys', runs: [], base: 'bare', target: 0.75 },
  barePage: { label: 'bare route sending the same page (bytes)', runs: [] },
  livedocs: {
    label: 'facet GET /v2/livedocs (API key, page of 20)',
    runs: [],
    base: 'bare',
    also: 'barePage',
    target: 0.7,
  },
  bareInsert: { label: 'bare POST + one SQLite INSERT', runs: [] },
  create: { label: 'facet POST /v2/livedocs (API key)', runs: [], base: 'bareInsert', target: 0.7 },
};

try {
  const steps = {
    bare: () => load(bare.url, '/auth/api-keys', {}),
    barePage: () => load(bare.url, '/v2/livedocs', {}),
    bareSql: () => load(bare.url, '/sql/auth/api-keys', {}),
    keys: () => load(facet.url, '/auth/api-keys', asUser),
    livedocs: () => load(facet.url, '/v2/livedocs', byKey),
    bareInsert: () => load(bare.url, '/sql/livedocs', {}, { post: true }),
    create: () => load(facet.url, '/v2/livedocs', byKey, { post: true }),
  };
  for (const step of Object.values(steps)) await step();
  for (let r = 0; r < rounds; r++) {
    for (const [name, step] of Object.entries(steps)) figures[name].runs.push(await step());
  }
  console.log(
    `server: ${rounds} rounds of ${seconds}s each, 50 connections, 127.0.0.1 (ratio: median over the rounds of facet / its baseline in the same round)`,
  );
  for (const f of Object.values(figures)) {
    const rates = f.runs.map((r) => r.requests.average);
    const last = f.runs.at(-1);
    const cpu = median(f.runs.map((r) => r.cpuPerRequestUs));
    let line = `  ${f.label.padEnd(46)} ${fmt(median(rates), 0).padStart(6)} req/s (rounds ${rates.map((x) => fmt(x, 0)).join(', ')})  p50 ${last.latency.p50} ms  p99 ${last.latency.p99} ms  server CPU ${fmt(cpu, 1)} µs/request`;
    if (f.base) {
      const ratio = median(f.runs.map((r, i) => r.requests.average / figures[f.base].runs[i].requests.average));
      const cpuRatio = median(f.runs.map((r, i) => figures[f.base].runs[i].cpuPerRequestUs / r.cpuPerRequestUs));
      line += `\n  ${''.padEnd(46)} ratio ${fmt(ratio * 100, 0)}% of ${figures[f.base].label}  target >= ${f.target * 100}% ${ratio >= f.target ? 'OK' : 'MISSED'}  (by CPU per request: ${fmt(cpuRatio * 100, 0)}%)`;
      if (f.also) {
        const same = median(f.runs.map((r, i) => r.requests.average / figures[f.also].runs[i].requests.average));
        const sameCpu = median(f.runs.map((r, i) => figures[f.also].runs[i].cpuPerRequestUs / r.cpuPerRequestUs));
        line += `\n  ${''.padEnd(46)} ratio ${fmt(same * 100, 0)}% of the ${figures[f.also].label} (the same bytes written and parsed)  target >= ${f.target * 100}% ${same >= f.target ? 'OK' : 'MISSED'}  (by CPU per request: ${fmt(sameCpu * 100, 0)}%)`;
      }
    }
    console.log(line);
  }
  console.log(`  (${posted} LiveDocs created by the POST rounds)`);
} finally {
  bare.child.kill('SIGTERM');
  await facet.stop();
}
