// bench/gateway: requests per second and p50/p99 latency of chat completions sent straight to a local
// upstream, and the same requests sent through the platform's gateway (auth, validation, routing,
// translation, pricing, metering into SQLite) to that upstream, measured in one run. Then a tool-calling
// round trip (the call with tools, the model's tool call, the call with the tool's result, the answer),
// direct and through the gateway, with the same requests.
// Usage: npm run build && node bench/gateway/run.mjs [--requests N] [--concurrency C]
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

function start(cmd, args, env, pattern) {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start: ${out}`)), 20_000);
    const onData = (c) => {
      out += c;
      const m = pattern.exec(out);
      if (m) {
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
    const res = await request(url, { method: 'POST', dispatcher: agent, headers: { 'content-type': 'application/json', ...headers }, body });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${text}`);
  }
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** Sequential latency (no queueing in the figures), then throughput with CONCURRENCY in flight. */
async function measure(url, headers, body) {
  for (let i = 0; i < WARMUP; i++) await once(url, headers, body);
  const lat = [];
  for (let i = 0; i < REQUESTS / 2; i++) lat.push(await once(url, headers, body));
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) await once(url, headers, body);
    }),
  );
  const rps = REQUESTS / ((performance.now() - started) / 1000);
  return { p50: percentile(lat, 50), p99: percentile(lat, 99), rps };
}

const config = mkdtempSync(path.join(os.tmpdir(), 'facet-bench-'));
const upstream = await start(process.execPath, [path.join(here, 'upstream.mjs')], {}, /listening (\d+)/);
const upstreamBase = `http://127.0.0.1:${upstream.match[1]}/v1`;
const platform = await start(
  process.execPath,
  [path.join(root, 'bin/facet.js'), '--json', 'serve', '--memory', '--port', '0', '--log-level', 'silent', '--no-profile', '--upstream-openai-base-url', upstreamBase],
  { FACET_CONFIG_DIR: config },
  /"api_key": "(fk_[a-z0-9]+)"[\s\S]*?\n}\n/,
);
const apiKey = platform.match[1];
const url = /listening on (http:\/\/\S+)/.exec(platform.output())[1];

const body = JSON.stringify({ model: 'aster-mini', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say something about foxes.' }], max_tokens: 64 });
const tools = [{ type: 'function', function: { name: 'get_weather', description: 'Weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city', 'unit'] } } }];
const ask = [{ role: 'user', content: 'What is the weather in Paris?' }];
const call = { role: 'assistant', content: null, tool_calls: [{ id: 'call_bench1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' } }] };
const roundTrip = [
  JSON.stringify({ model: 'aster-mini', messages: ask, tools, max_tokens: 64 }),
  JSON.stringify({ model: 'aster-mini', messages: [...ask, call, { role: 'tool', tool_call_id: 'call_bench1', content: '{"temperature":18}' }], tools, max_tokens: 64 }),
];
try {
  const direct = await measure(`${upstreamBase}/chat/completions`, {}, body);
  const gateway = await measure(`${url}/api/v1/chat/completions`, { authorization: `Bearer ${apiKey}` }, body);
  const f = (n) => n.toFixed(3).padStart(8);
  console.log(`bench/gateway: ${REQUESTS / 2} sequential + ${REQUESTS} requests at concurrency ${CONCURRENCY}, after ${WARMUP} warm-up`);
  console.log(`                      p50 ms    p99 ms       req/s`);
  console.log(`  upstream direct   ${f(direct.p50)}  ${f(direct.p99)}  ${direct.rps.toFixed(0).padStart(10)}`);
  console.log(`  through gateway   ${f(gateway.p50)}  ${f(gateway.p99)}  ${gateway.rps.toFixed(0).padStart(10)}`);
  const added = gateway.p50 - direct.p50;
  console.log(`  added p50: ${added.toFixed(3)} ms (target < 1 ms: ${added < 1 ? 'met' : 'NOT met'}); added p99: ${(gateway.p99 - direct.p99).toFixed(3)} ms`);
  console.log(`  throughput ratio gateway/direct: ${(gateway.rps / direct.rps).toFixed(2)}`);

  const toolsDirect = await measure(`${upstreamBase}/chat/completions`, {}, roundTrip);
  const toolsGateway = await measure(`${url}/api/v1/chat/completions`, { authorization: `Bearer ${apiKey}` }, roundTrip);
  console.log(`tool-calling round trip (2 requests: tool call, then the answer from the result)`);
  console.log(`  upstream direct   ${f(toolsDirect.p50)}  ${f(toolsDirect.p99)}  ${toolsDirect.rps.toFixed(0).padStart(10)}`);
  console.log(`  through gateway   ${f(toolsGateway.p50)}  ${f(toolsGateway.p99)}  ${toolsGateway.rps.toFixed(0).padStart(10)}`);
  const addedTools = toolsGateway.p50 - toolsDirect.p50;
  console.log(`  added p50 per round trip: ${addedTools.toFixed(3)} ms (target < 1 ms: ${addedTools < 1 ? 'met' : 'NOT met'}); added p99: ${(toolsGateway.p99 - toolsDirect.p99).toFixed(3)} ms`);
} finally {
  platform.child.kill('SIGTERM');
  upstream.child.kill('SIGTERM');
  await agent.close();
  rmSync(config, { recursive: true, force: true });
}
