// Issue 38: a previous_response_id chain of BENCH_TURNS (1000) short turns on one key, /healthz polled
// every 50 ms meanwhile. Prints the stored bytes against the text stored, the database files' size,
// the per-turn latency of the first and last 100 turns, and the polls' p50/p99/max against the same
// server polled idle first (the baseline).
import { statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startPlatform } from '../lib/platform.mjs';
import { fmt, median, percentile } from '../lib/stats.mjs';

const TURNS = Number(process.env.BENCH_TURNS ?? 1000);
const ask = (i) =>
  `Turn ${i}: the harbour ferry leaves every forty minutes, the last one at eleven; note the tide tables for the week and the price of a return ticket, then wait for the next question.`;

const p = await startPlatform();
const headers = { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' };

async function poll(untilDone) {
  const polls = [];
  // One poll first, not counted: the probe's own first connection is not the server's delay.
  await (await fetch(`${p.url}/healthz`)).arrayBuffer();
  while (!untilDone()) {
    const t = performance.now();
    const r = await fetch(`${p.url}/healthz`);
    await r.arrayBuffer();
    polls.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 50));
  }
  return polls;
}

let idleDone = false;
setTimeout(() => (idleDone = true), 3000);
const idle = await poll(() => idleDone);

let done = false;
const turnMs = [];
let text = 0;
const work = (async () => {
  let previous;
  for (let i = 1; i <= TURNS; i++) {
    const t = performance.now();
    const r = await fetch(`${p.url}/api/v1/responses`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: 'facet-echo',
        input: ask(i),
        ...(previous ? { previous_response_id: previous } : {}),
      }),
    });
    const body = await r.json();
    if (r.status !== 200) throw new Error(`turn ${i}: ${r.status} ${JSON.stringify(body)}`);
    turnMs.push(performance.now() - t);
    text += 2 * Buffer.byteLength(ask(i));
    previous = body.id;
  }
})().finally(() => (done = true));
const [busy] = await Promise.all([poll(() => done), work]);
// The server's own loop delay over the run (its window is a minute): a slow poll may be this
// process's, not the server's.
const loop = (await (await fetch(`${p.url}/healthz`)).json()).event_loop;

const db = new Database(path.join(p.dataDir, 'facet.db'), { readonly: true });
const stored = db
  .prepare('SELECT count(*) AS rows, sum(length(CAST(body AS BLOB))) AS bytes FROM model_api_stored')
  .get();
db.close();
const files = readdirSync(p.dataDir)
  .filter((f) => f.startsWith('facet.db'))
  .reduce((n, f) => n + statSync(path.join(p.dataDir, f)).size, 0);
await p.stop();

const row = (name, v) => console.log(`${name.padEnd(44)} ${v}`);
row('turns', TURNS);
row('text stored (input + output, bytes)', text);
row('stored rows / bytes', `${stored.rows} / ${stored.bytes} (${fmt(stored.bytes / text, 2)}x the text)`);
row('facet.db + -wal + -shm (bytes)', `${files} (${fmt(files / text, 2)}x the text)`);
row('turn p50, first 100 / last 100 (ms)', `${fmt(median(turnMs.slice(0, 100)))} / ${fmt(median(turnMs.slice(-100)))}`);
row(
  '/healthz idle p50 / p99 / max (ms)',
  `${fmt(median(idle))} / ${fmt(percentile(idle, 99))} / ${fmt(Math.max(...idle))}`,
);
row(
  '/healthz during p50 / p99 / max (ms)',
  `${fmt(median(busy))} / ${fmt(percentile(busy, 99))} / ${fmt(Math.max(...busy))}`,
);
row('server event loop p99 / max over the run (ms)', `${fmt(loop.delay_p99_ms)} / ${fmt(loop.delay_max_ms)}`);
row('p99 during / idle', `${fmt(percentile(busy, 99) / percentile(idle, 99), 2)}x (target: p99 under 50 ms)`);
