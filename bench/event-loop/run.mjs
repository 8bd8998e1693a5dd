// bench/event-loop: the server's event-loop delay (perf_hooks.monitorEventLoopDelay, measured inside
// the server process: the server runs in this process, the clients in a child) while clients send
// 2,000-character CJK and emoji /v2/chat queries, 200 KB /api/v1/chat/completions prompts and
// parallel 2048x2048 image generations, and poll /healthz every 100 ms. Baseline: the same server
// idle, polled the same way, in the same run. Target: p99 under 50 ms under load.
//
//   npm run build && node bench/event-loop/run.mjs
//   BENCH_SECONDS=10 BENCH_IMAGES=8 node bench/event-loop/run.mjs
//   BENCH_PARTS=hostile,fair node bench/event-loop/run.mjs     # issue 31: hostile inputs from one key,
//                                                              # a second key's light work timed
// With `fair`, a second user's key is made the way an operator would (facet serve users create and
// token on the server's data dir, then POST /auth/api-keys). Resident memory is sampled throughout.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../dist/server.js';
import { fmt } from '../lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
/** BENCH_PARTS=schema: the issue-38 inputs of load.mjs, one phase each. */
const SCHEMA_INPUTS = [
  'ref-self',
  'alias-cycle',
  'min-length-3e8',
  'min-length-1e9',
  'count-tokens-ref-self',
  'body-700k-keys',
];
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const images = Number(process.env.BENCH_IMAGES ?? 8);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-loop-'));
const server = await startServer({
  dataDir,
  port: 0,
  logLevel: 'silent',
  chatRateLimits: { perKeyPerMinute: 100_000, perUserPerMinute: 100_000, perUserPerHour: 1_000_000 },
});
const key = server.bootstrap.data.api_key;
const parts = new Set((process.env.BENCH_PARTS || '').split(','));

/** A second user's API key, made with the offline commands on the running server's data dir. */
async function secondKey() {
  const facet = (...args) =>
    execFileSync(process.execPath, [path.join(here, '../../bin/facet.js'), ...args, '--data-dir', dataDir], {
      env: { ...process.env, FACET_CONFIG_DIR: dataDir },
    })
      .toString()
      .trim();
  facet('serve', 'users', 'create', 'bench-other');
  const token = facet('serve', 'token', 'bench-other');
  const r = await fetch(`${server.url}/auth/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  return (await r.json()).key;
}
const fairKey = parts.has('fair') ? await secondKey() : '';

/** One child running load.mjs with `mix`; resolves with its JSON report. */
function clients(mix, extraEnv) {
  const child = spawn(process.execPath, [path.join(here, 'load.mjs')], {
    env: {
      ...process.env,
      BENCH_URL: server.url,
      BENCH_KEY: key,
      BENCH_FAIR_KEY: fairKey,
      BENCH_MIX: mix,
      BENCH_SECONDS: String(seconds),
      BENCH_IMAGES: String(images),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`the ${mix} clients failed (exit ${code})`)),
    ),
  );
}

/**
 * Runs one mix: the clients in one child and the /healthz poller in another (building 15 MB bodies
 * beside the poller would delay the poller itself); returns the event-loop histogram, the merged
 * report and the peak resident memory.
 */
async function phase(mix) {
  const h = monitorEventLoopDelay({ resolution: 5 });
  let rss = process.memoryUsage().rss;
  const sampler = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 100);
  // Measured only while the clients run, not while the children start.
  h.enable();
  const [work, probe] = await Promise.all([
    mix === 'idle' ? null : clients(mix, { BENCH_POLL: '0' }),
    clients('idle'),
  ]).finally(() => {
    h.disable();
    clearInterval(sampler);
  });
  return { h, report: { ...work, polls: probe.polls, slowestPoll: probe.slowestPoll, pollP99: probe.pollP99 }, rss };
}

const ms = (ns) => `${fmt(ns / 1e6)} ms`;
try {
  // Warm up: the tokenizer ranks and the worker pool load on first use.
  await fetch(`${server.url}/v2/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '日本語 warm up 😀' }),
  });
  const idle = await phase('idle');
  if (parts.has('schema')) {
    // Issue 38: one phase per input, each against the idle baseline of this run.
    const ratio = (a, b) => (b > 0 ? `${fmt(a / b)}×` : '-');
    const idleP99 = idle.h.percentile(99) / 1e6;
    console.log(
      `event loop under issue-38 inputs: ${seconds}s each; idle p99 ${fmt(idleP99)} ms, /healthz p99 ${fmt(idle.report.pollP99)} ms`,
    );
    for (const input of SCHEMA_INPUTS) {
      process.env.BENCH_SCHEMA = input;
      const { h, report } = await phase('heavy');
      const p99 = h.percentile(99) / 1e6;
      console.log(
        `  ${input.padEnd(22)} loop p99 ${fmt(p99)} ms (${ratio(p99, idleP99)})  max ${ms(h.max)}  /healthz p99 ${fmt(report.pollP99)} ms (${ratio(report.pollP99, idle.report.pollP99)}), slowest ${fmt(report.slowestPoll)} ms  requests ${report.requests} ${JSON.stringify(report.schema)}  target /healthz p99 < 50 ms ${report.pollP99 < 50 ? 'OK' : 'MISSED'}`,
      );
    }
  } else await heavyPhase(idle);
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/** The heavy mix (and BENCH_PARTS=hostile,fair) against the idle baseline. */
async function heavyPhase(idle) {
  const load = await phase('heavy');
  console.log(`event loop: ${seconds}s per phase, server in this process, clients in a child`);
  for (const [name, { h, report, rss }] of [
    ['idle (baseline)', idle],
    ['heavy mix', load],
  ]) {
    console.log(
      `  ${name.padEnd(16)} p50 ${ms(h.percentile(50))}  p99 ${ms(h.percentile(99))}  max ${ms(h.max)}  ` +
        `/healthz ${report.polls} polls, p99 ${fmt(report.pollP99)} ms, slowest ${fmt(report.slowestPoll)} ms  peak RSS ${Math.round(rss / 2 ** 20)} MiB` +
        (report.requests ? `  requests ${report.requests} (${report.failed} failed)` : ''),
    );
  }
  const p99 = load.h.percentile(99) / 1e6;
  console.log(`  heavy: ${load.report.detail}`);
  console.log(
    `  p99 ${fmt(p99)} ms vs idle ${fmt(idle.h.percentile(99) / 1e6)} ms  target p99 < 50 ms ${p99 < 50 ? 'OK' : 'MISSED'}`,
  );
  if (load.report.hostile && Object.keys(load.report.hostile).length) {
    console.log(
      `  hostile inputs (statuses seen): ${Object.entries(load.report.hostile)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    const above = (load.rss - idle.rss) / 2 ** 20;
    console.log(
      `  resident memory above idle: ${Math.round(above)} MiB  target < 500 MiB ${above < 500 ? 'OK' : 'MISSED'}`,
    );
  }
  if (load.report.fair && Object.keys(load.report.fair).length) {
    const worst = Math.max(
      ...Object.values(load.report.fair)
        .filter((v) => typeof v === 'object')
        .map((v) => v.p99),
    );
    console.log(
      `  second key's light work: ${Object.entries(load.report.fair)
        .map(([k, v]) => (typeof v === 'object' ? `${k} n=${v.n} p99 ${fmt(v.p99)} ms` : `${k} ${v}`))
        .join(', ')}  target p99 ≤ 2000 ms ${worst <= 2000 ? 'OK' : 'MISSED'}`,
    );
  }
}
