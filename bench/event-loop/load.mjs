// The clients of bench/event-loop, in their own process so their work never shows in the server's
// event-loop figures. BENCH_MIX=idle only polls /healthz; heavy also sends the expensive requests,
// in rounds, until BENCH_SECONDS have passed. Prints one JSON report on stdout.
import { setTimeout as sleep } from 'node:timers/promises';
import { rng } from '../lib/platform.mjs';

const url = process.env.BENCH_URL;
const key = process.env.BENCH_KEY;
const heavy = process.env.BENCH_MIX === 'heavy';
const until = Date.now() + Number(process.env.BENCH_SECONDS) * 1000;
const images = Number(process.env.BENCH_IMAGES);

const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const post = async (pathname, body) => {
  const r = await fetch(url + pathname, { method: 'POST', headers, body: JSON.stringify(body) });
  await r.arrayBuffer();
  return r.status;
};

// Every request is new text (seeded, so runs compare): nothing the server could have cached.
const random = rng(8);
const run = (n, from, span) => Array.from({ length: n }, () => String.fromCodePoint(from + Math.floor(random() * span))).join('');
const cjk = () => run(2000, 0x4e00, 0x5000); // 2,000 CJK characters: one pre-tokenized piece
const emoji = () => run(2000, 0x1f300, 0x250); // 2,000 emoji
const big = () => run(68_000, 0x4e00, 0x5000); // 200 KB of UTF-8, one piece
let requests = 0;
let failed = 0;
const kinds = {};

async function client(name, send) {
  while (Date.now() < until) {
    const status = await send().catch(() => 0);
    requests++;
    kinds[name] = (kinds[name] ?? 0) + 1;
    if (status !== 200) failed++;
  }
}

const polls = [];
async function poller() {
  while (Date.now() < until) {
    const t = performance.now();
    const r = await fetch(`${url}/healthz`);
    await r.arrayBuffer();
    polls.push(performance.now() - t);
    await sleep(100);
  }
}

// BENCH_PARTS picks some of the heavy clients (comma-separated), to see which one costs what.
const parts = new Set((process.env.BENCH_PARTS || 'chat-cjk,chat-emoji,api-200kb,image-2048').split(','));
const work = [poller()];
if (heavy) {
  if (parts.has('chat-cjk')) work.push(client('chat-cjk', () => post('/v2/chat', { query: cjk() })));
  if (parts.has('chat-emoji')) work.push(client('chat-emoji', () => post('/v2/chat', { query: emoji() })));
  if (parts.has('api-200kb')) work.push(client('api-200kb', () => post('/api/v1/chat/completions', { model: 'facet-echo', messages: [{ role: 'user', content: big() }] })));
  if (parts.has('image-2048')) {
    for (let i = 0; i < images; i++) work.push(client('image-2048', () => post('/api/v1/images/generations', { prompt: `a lighthouse ${i}`, size: '2048x2048', response_format: 'b64_json' })));
  }
}
await Promise.all(work);
const clients = [...parts].map((p) => (p === 'image-2048' ? `${images}× image-2048` : p)).join(', ');
const detail = heavy ? `clients ${clients}; requests done: ${Object.entries(kinds).map(([k, n]) => `${k} ${n}`).join(', ')}` : '';
process.stdout.write(JSON.stringify({ polls: polls.length, slowestPoll: Math.max(...polls), requests, failed, detail }));
