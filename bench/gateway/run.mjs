// bench/gateway: requests per second and p50/p99 latency of chat completions sent straight to a local
// upstream, and the same requests sent through the platform's gateway (auth, validation, routing,
// translation, pricing, metering into SQLite) to that upstream, measured in one run. Then a tool-calling
// round trip (the call with tools, the model's tool call, the call with the tool's result, the answer),
// direct and through the gateway, with the same requests. "Added" is the gateway's p50 minus the
// direct p50 of the same run, same requests, same concurrency (one at a time). A bare proxy
// (bare-proxy.mjs: node:http in, undici out, no work) is measured in the same blocks: what one more
// HTTP hop costs on this machine at all, the floor under any gateway's "added".
// Usage: npm run build && node bench/gateway/run.mjs [--requests N] [--concurrency C]
// BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the platform's process there (open it in Chrome
// DevTools or speedscope) to see where the gateway's added time goes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { percentile } from '../lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const REQUESTS = arg('requests', 2000);
const CONCURRENCY = arg('concurrency', 8);
const WARMUP = 200;
// The platform's log level: silent by default (the gateway's own cost); BENCH_LOG_LEVEL=info adds the
// request log lines a default `facet serve` writes (JSON on a pipe).
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'silent';

function start(cmd, args, env, pattern) {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start: ${out}`)), 20_000);
    let started = false;
    const onData = (c) => {
      // Once started, the output (log lines at BENCH_LOG_LEVEL=info) is drained and dropped: kept,
      // it would grow this process's work during the measurement.
      if (started) return;
      out += c;
      const m = pattern.exec(out);
      if (m) {
        started = true;
        clearTimeout(timer);
        resolve({ child, match: m, output: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

const agent = new Agent({ keepAliveTimeout: 30_000, connections: CONCURRENCY * 2 });

/** One exchange: the bodies sent one after the other (one body, or a tool round trip's two). */
async function once(url, headers, bodies) {
  const t = process.hrtime.bigint();
  for (const body of Array.isArray(bodies) ? bodies : [bodies]) {
    const res = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${text}`);
  }
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/**
 * Latency, one exchange at a time (no queueing in the figures). Each path runs in blocks, in the
 * order direct, bare proxy, gateway, gateway, bare proxy, direct, so a drift of this VM's speed
 * during the run weighs on every path alike: the p50s and "added" come from these blocks. Then
 * direct and gateway in turn, one exchange each, for the median of the paired differences (a
 * second view: every exchange then finds the caches the other path left). Then throughput with CONCURRENCY in flight, each path on its own.
 */
async function measure(direct, gateway, body, proxy) {
  const run = async (path, n, into) => {
    for (let i = 0; i < n; i++) into.push(await once(path.url, path.headers, body));
  };
  await run(direct, WARMUP, []);
  await run(gateway, WARMUP, []);
  await run(proxy, WARMUP, []);
  const lat = { direct: [], gateway: [], proxy: [] };
  const block = Math.ceil(REQUESTS / 4);
  await run(direct, block, lat.direct);
  await run(proxy, block, lat.proxy);
  await run(gateway, block, lat.gateway);
  await run(gateway, block, lat.gateway);
  await run(proxy, block, lat.proxy);
  await run(direct, block, lat.direct);
  const added = [];
  for (let i = 0; i < REQUESTS / 2; i++) {
    // Which goes first alternates, so neither path always finds the machine just woken up.
    let d, g;
    if (i % 2 === 0) {
      d = await once(direct.url, direct.headers, body);
      g = await once(gateway.url, gateway.headers, body);
    } else {
      g = await once(gateway.url, gateway.headers, body);
      d = await once(direct.url, direct.headers, body);
    }
    added.push(g - d);
  }
  const throughput = async ({ url, headers }) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next++ < REQUESTS) await once(url, headers, body);
      }),
    );
    return REQUESTS / ((performance.now() - started) / 1000);
  };
  const stats = (l, rps) => ({ p50: percentile(l, 50), p99: percentile(l, 99), rps });
  return {
    direct: stats(lat.direct, await throughput(direct)),
    gateway: stats(lat.gateway, await throughput(gateway)),
    proxy: stats(lat.proxy, await throughput(proxy)),
    pairedAdded: percentile(added, 50),
  };
}

const config = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-'));
const upstream = await start(process.execPath, [path.join(here, 'upstream.mjs')], {}, /listening (\d+)/);
const upstreamBase = `http://127.0.0.1:${upstream.match[1]}/v1`;
const bareProxy = await start(
  process.execPath,
  [path.join(here, 'bare-proxy.mjs')],
  { BENCH_UPSTREAM: upstreamBase },
  /listening (\d+)/,
).catch((err) => {
  upstream.child.kill('SIGTERM');
  throw err;
});
// A platform that fails to start must not leave the upstream running.
const platform = await start(
  process.execPath,
  [
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    path.join(root, 'bin/facet.js'),
    '--json',
    'serve',
    '--memory',
    '--port',
    '0',
    '--log-level',
    LOG_LEVEL,
    '--no-profile',
    '--upstream-openai-base-url',
    upstreamBase,
  ],
  { FACET_CONFIG_DIR: config },
  /"api_key": "(fk_[a-z0-9]+)"[\s\S]*?\n}\n/,
).catch((err) => {
  upstream.child.kill('SIGTERM');
  bareProxy.child.kill('SIGTERM');
  throw err;
});
const apiKey = platform.match[1];
const url = /listening on (http:\/\/[^\s"]+)/.exec(platform.output())[1];

const body = JSON.stringify({
  model: 'aster-mini',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Say something about foxes.' },
  ],
  max_tokens: 64,
});
const tools = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather in a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
        required: ['city', 'unit'],
      },
    },
  },
];
const ask = [{ role: 'user', content: 'What is the weather in Paris?' }];
const call = {
  role: 'assistant',
  content: null,
  tool_calls: [
    {
      id: 'call_bench1',
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
    },
  ],
};
const roundTrip = [
  JSON.stringify({ model: 'aster-mini', messages: ask, tools, max_tokens: 64 }),
  JSON.stringify({
    model: 'aster-mini',
    messages: [...ask, call, { role: 'tool', tool_call_id: 'call_bench1', content: '{"temperature":18}' }],
    tools,
    max_tokens: 64,
  }),
];
const f = (n) => n.toFixed(3).padStart(8);
function report(title, { direct, gateway, proxy, pairedAdded }) {
  const added = gateway.p50 - direct.p50;
  console.log(title);
  console.log(`                      p50 ms    p99 ms       req/s`);
  console.log(`  upstream direct   ${f(direct.p50)}  ${f(direct.p99)}  ${direct.rps.toFixed(0).padStart(10)}`);
  console.log(`  bare proxy        ${f(proxy.p50)}  ${f(proxy.p99)}  ${proxy.rps.toFixed(0).padStart(10)}`);
  console.log(`  through gateway   ${f(gateway.p50)}  ${f(gateway.p99)}  ${gateway.rps.toFixed(0).padStart(10)}`);
  console.log(
    `  added p50: ${added.toFixed(3)} ms (target < 1 ms: ${added < 1 ? 'met' : 'NOT met'}); added p99: ${(gateway.p99 - direct.p99).toFixed(3)} ms`,
  );
  console.log(
    `  a bare proxy's added p50 (one more HTTP hop, no work): ${(proxy.p50 - direct.p50).toFixed(3)} ms; the gateway over the bare proxy: ${(gateway.p50 - proxy.p50).toFixed(3)} ms`,
  );
  console.log(
    `  added, median of ${REQUESTS / 2} paired differences (paths in turn): ${pairedAdded.toFixed(3)} ms; throughput ratio gateway/direct: ${(gateway.rps / direct.rps).toFixed(2)}`,
  );
}
try {
  const direct = { url: `${upstreamBase}/chat/completions`, headers: {} };
  const gateway = { url: `${url}/api/v1/chat/completions`, headers: { authorization: `Bearer ${apiKey}` } };
  const proxy = { url: `http://127.0.0.1:${bareProxy.match[1]}/api/v1/chat/completions`, headers: {} };
  console.log(
    `bench/gateway: ${2 * Math.ceil(REQUESTS / 4)} sequential exchanges per path (blocks: direct, bare proxy, gateway, gateway, bare proxy, direct), ${REQUESTS / 2} pairs in turn, ${REQUESTS} at concurrency ${CONCURRENCY}; after ${WARMUP} warm-up; log level ${LOG_LEVEL}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  report('plain request', await measure(direct, gateway, body, proxy));
  report(
    'tool-calling round trip (2 requests: the tool call, then the answer from the result)',
    await measure(direct, gateway, roundTrip, proxy),
  );
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  platform.child.kill('SIGTERM');
  upstream.child.kill('SIGTERM');
  bareProxy.child.kill('SIGTERM');
  await agent.close();
  rmSync(config, { recursive: true, force: true });
}
