// Streams benchmark: N concurrent conversation streams (default 1,000; the target is 5,000 with the
// server's default limits) on one `facet serve`: streams complete (ended with `done`) and why the
// others are not, time to first event and server memory per open stream. Baselines in the same run:
// one stream alone on the idle server, and a burst of bare connections.
//
//   npm run build && node bench/streams/run.mjs
//   BENCH_STREAMS=200 BENCH_CHUNK_DELAY_MS=100 node bench/streams/run.mjs
import { Agent, request } from 'undici';
import { startPlatform } from '../lib/platform.mjs';
import { percentile } from '../lib/stats.mjs';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
// The local writer is paced like a model so the streams stay open long enough to be measured together.
const DELAY = Number(process.env.BENCH_CHUNK_DELAY_MS ?? 100);

const p = await startPlatform(['--answer-chunk-delay', String(DELAY), '--chat-limit-key-per-minute', '1000000']);
const agent = new Agent({ connections: STREAMS + 10, pipelining: 0, headersTimeout: 120_000, bodyTimeout: 120_000 });
const headers = { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' };

async function api(pathname, body) {
  const r = await request(p.url + pathname, { method: 'POST', headers, body: JSON.stringify(body), dispatcher: agent });
  const json = await r.body.json();
  if (r.statusCode !== 200) throw new Error(`${pathname}: ${r.statusCode} ${JSON.stringify(json)}`);
  return json.data;
}

/**
 * Opens a stream; resolves the time to its first event, the number of events and the name of the
 * last one when the stream ends. Only a stream whose last event is `done` is complete: one that got
 * an error event, or was refused, is counted apart with its reason.
 */
function open(key) {
  const started = performance.now();
  let firstAt;
  let events = 0;
  let last;
  let lastData = '';
  const done = (async () => {
    const r = await request(`${p.url}/v2/conversations/stream/${key}`, { headers: { authorization: headers.authorization, accept: 'text/event-stream' }, dispatcher: agent });
    if (r.statusCode !== 200) return { firstMs: undefined, events: 0, last: `HTTP ${r.statusCode}`, reason: await r.body.text() };
    r.body.setEncoding('utf8');
    for await (const chunk of r.body) {
      const names = [...String(chunk).matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
      if (names.length > 0 && firstAt === undefined) firstAt = performance.now() - started;
      events += names.length;
      if (names.length > 0) last = names[names.length - 1];
      if (last === 'error') lastData = String(chunk);
    }
    return { firstMs: firstAt, events, last, reason: lastData };
  })();
  return done;
}

try {
  const ld = (await api('/v2/livedocs', { name: 'bench' })).short_id;
  await api(`/v2/livedocs/${ld}/resources/doc`, {
    title: 'Handbook',
    content: 'The office opens at nine. Lunch is served at noon in the atrium. Badges are renewed every year in January. Parking is free for bicycles.',
  });
  const ask = (i) => api('/v2/conversations', { query: `When is lunch served and when are badges renewed? (${i})`, live_doc_short_id: ld });

  // baselines: one stream on an idle server, and the same burst of N new connections to /healthz
  // (what N simultaneous connections cost this machine before any stream work)
  const single = await open((await ask(0)).stream_key);
  const rssIdle = p.rssKb();
  const burst = await Promise.all(
    Array.from({ length: STREAMS }, async () => {
      const s = performance.now();
      const r = await request(`${p.url}/healthz`, { dispatcher: new Agent({ connections: 1 }) });
      await r.body.text();
      return performance.now() - s;
    }),
  );
  burst.sort((a, b) => a - b);

  console.log(`creating ${STREAMS} conversations and opening their streams at once…`);
  const keys = [];
  for (let i = 0; i < STREAMS; i++) keys.push((await ask(i + 1)).stream_key);
  const t0 = performance.now();
  const all = keys.map(open);
  // sample memory while the streams are open
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, p.rssKb())), 100);
  const results = await Promise.all(all);
  clearInterval(sampler);
  const wall = performance.now() - t0;
  const firsts = results.filter((r) => r.firstMs !== undefined).map((r) => r.firstMs).sort((a, b) => a - b);
  const complete = results.filter((r) => r.last === 'done');
  const failed = results.filter((r) => r.last !== 'done');
  const reasons = new Map();
  for (const r of failed) {
    const why = r.last === 'error' ? (/"message":"([^"]*)"/.exec(r.reason)?.[1] ?? 'error event') : `${r.last ?? 'ended without an event'} ${r.reason ?? ''}`.trim();
    reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }

  const ms = (n) => `${n.toFixed(1)} ms`;
  console.log(`streams              ${STREAMS} concurrent: ${complete.length} complete (ended with done), ${failed.length} not (chunk delay ${DELAY} ms, ${complete[0]?.events ?? 0} events each)`);
  for (const [why, n] of reasons) console.log(`  not complete       ${n} × ${why}`);
  console.log(`time to first event  p50 ${ms(percentile(firsts, 50))}  p99 ${ms(percentile(firsts, 99))}  max ${ms(firsts[firsts.length - 1])}`);
  console.log(`baseline (1 stream)  ${ms(single.firstMs)}`);
  console.log(`baseline (burst)     ${STREAMS} new connections to /healthz at once: p50 ${ms(percentile(burst, 50))}  p99 ${ms(percentile(burst, 99))}`);
  console.log(`ratio                p50 under load is ${(percentile(firsts, 50) / single.firstMs).toFixed(1)}x one stream alone, ${(percentile(firsts, 50) / percentile(burst, 50)).toFixed(2)}x a bare connection burst`);
  console.log(`memory               idle ${(rssIdle / 1024).toFixed(0)} MB, peak ${(peakRss / 1024).toFixed(0)} MB: ${((peakRss - rssIdle) / STREAMS).toFixed(0)} KB per open stream`);
  console.log(`wall time            ${(wall / 1000).toFixed(1)} s for all streams to finish`);
} finally {
  await agent.close();
  await p.stop();
}
