// Streams benchmark: N concurrent conversation streams (default 1,000; the target is 5,000 with the
// server's default limits: ≤ 32 KB each, none lost, first event p99 ≤ 1 s) on one `facet serve`:
// streams complete (ended with `done`) and why the others are not, time to first event and server
// memory per open stream. Baselines in the same run: one stream alone on the warm server, and a
// burst of bare connections.
//
//   npm run build && node bench/streams/run.mjs
//   BENCH_STREAMS=200 BENCH_CHUNK_DELAY_MS=100 node bench/streams/run.mjs
import { Agent, request } from 'undici';
import { startPlatform } from '../lib/platform.mjs';
import { percentile } from '../lib/stats.mjs';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
// The local writer is paced like a model so the streams stay open long enough to be measured together.
// Each conversation is asked and its stream opened at once, as a client does;
// an answer lasts 23 chunks × this delay (92 s by default: a slow model), longer than asking 5,000
// questions takes on this 2-core machine, so the streams are all open together: the bench counts
// the peak of streams open at once and prints it. (Opening streams of answers already written
// would measure replays, not live streams.)
const DELAY = Number(process.env.BENCH_CHUNK_DELAY_MS ?? 4000);

const p = await startPlatform(['--answer-chunk-delay', String(DELAY), '--chat-limit-key-per-minute', '1000000'], {
  inspect: true,
});
const live = (m) => m.heapUsed + m.external + m.arrayBuffers;
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
let openNow = 0;
let peakOpen = 0;
function open(key) {
  const started = performance.now();
  let firstAt;
  let events = 0;
  let last;
  let lastData = '';
  const done = (async () => {
    const r = await request(`${p.url}/v2/conversations/stream/${key}`, {
      headers: { authorization: headers.authorization, accept: 'text/event-stream' },
      dispatcher: agent,
    });
    if (r.statusCode !== 200)
      return { firstMs: undefined, events: 0, last: `HTTP ${r.statusCode}`, reason: await r.body.text() };
    peakOpen = Math.max(peakOpen, ++openNow);
    try {
      r.body.setEncoding('utf8');
      for await (const chunk of r.body) {
        const names = [...String(chunk).matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
        if (names.length > 0 && firstAt === undefined) firstAt = performance.now() - started;
        events += names.length;
        if (names.length > 0) last = names[names.length - 1];
        if (last === 'error') lastData = String(chunk);
      }
    } finally {
      openNow--;
    }
    return { firstMs: firstAt, events, last, reason: lastData };
  })();
  return done;
}

try {
  const ld = (await api('/v2/livedocs', { name: 'bench' })).short_id;
  await api(`/v2/livedocs/${ld}/resources/doc`, {
    title: 'Handbook',
    content:
      'The office opens at nine. Lunch is served at noon in the atrium. Badges are renewed every year in January. Parking is free for bicycles.',
  });
  const ask = (i) =>
    api('/v2/conversations', {
      query: `When is lunch served and when are badges renewed? (${i})`,
      live_doc_short_id: ld,
    });

  // baselines: one stream on an idle server, and the same burst of N new connections to /healthz
  // (what N simultaneous connections cost this machine before any stream work)
  await open((await ask(-1)).stream_key); // warms the server (the first answer loads the tokenizer)
  const single = await open((await ask(0)).stream_key);
  const rssIdle = p.rssKb();
  const liveIdle = live(await p.liveMemory());
  const burst = await Promise.all(
    Array.from({ length: STREAMS }, async () => {
      const s = performance.now();
      const r = await request(`${p.url}/healthz`, { dispatcher: new Agent({ connections: 1 }) });
      await r.body.text();
      return performance.now() - s;
    }),
  );
  burst.sort((a, b) => a - b);

  console.log(`asking ${STREAMS} questions, each followed at once by opening its stream…`);
  const t0 = performance.now();
  const all = [];
  let next = 0;
  // Several clients asking at once (BENCH_ASK_CONCURRENCY, 16): one alone takes longer to ask 5,000
  // questions than an answer lasts.
  const asker = async () => {
    while (next < STREAMS) {
      const i = next++;
      all.push(open((await ask(i + 1)).stream_key));
    }
  };
  await Promise.all(Array.from({ length: Number(process.env.BENCH_ASK_CONCURRENCY ?? 16) }, asker));
  const asked = performance.now() - t0;
  // Every stream asked is open now (an answer outlasts the asking): the server's live memory for them.
  const openAtMeasure = openNow;
  const liveOpen = live(await p.liveMemory());
  // sample memory while the streams are open
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, p.rssKb())), 100);
  const results = await Promise.all(all);
  clearInterval(sampler);
  const wall = performance.now() - t0;
  const firsts = results
    .filter((r) => r.firstMs !== undefined)
    .map((r) => r.firstMs)
    .sort((a, b) => a - b);
  const complete = results.filter((r) => r.last === 'done');
  const failed = results.filter((r) => r.last !== 'done');
  const reasons = new Map();
  for (const r of failed) {
    const why =
      r.last === 'error'
        ? (/"message":"([^"]*)"/.exec(r.reason)?.[1] ?? 'error event')
        : `${r.last ?? 'ended without an event'} ${r.reason ?? ''}`.trim();
    reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }

  const ms = (n) => `${n.toFixed(1)} ms`;
  console.log(
    `streams              ${STREAMS} asked and opened over ${(asked / 1000).toFixed(1)} s, ${peakOpen} open at once at the peak: ${complete.length} complete (ended with done), ${failed.length} not (chunk delay ${DELAY} ms, ${complete[0]?.events ?? 0} events each)`,
  );
  for (const [why, n] of reasons) console.log(`  not complete       ${n} × ${why}`);
  console.log(
    `time to first event  p50 ${ms(percentile(firsts, 50))}  p99 ${ms(percentile(firsts, 99))}  max ${ms(firsts[firsts.length - 1])}`,
  );
  console.log(`baseline (1 stream)  ${ms(single.firstMs)}`);
  console.log(
    `baseline (burst)     ${STREAMS} new connections to /healthz at once: p50 ${ms(percentile(burst, 50))}  p99 ${ms(percentile(burst, 99))}`,
  );
  console.log(
    `ratio                p50 under load is ${(percentile(firsts, 50) / single.firstMs).toFixed(1)}x one stream alone, ${(percentile(firsts, 50) / percentile(burst, 50)).toFixed(2)}x a bare connection burst`,
  );
  console.log(
    `memory               live (after a full GC) ${((liveOpen - liveIdle) / openAtMeasure / 1024).toFixed(1)} KB per open stream (${openAtMeasure} open; target ≤ 32 KB); RSS idle ${(rssIdle / 1024).toFixed(0)} MB, peak ${(peakRss / 1024).toFixed(0)} MB: ${((peakRss - rssIdle) / STREAMS).toFixed(0)} KB per stream with uncollected garbage`,
  );
  console.log(`wall time            ${(wall / 1000).toFixed(1)} s for all streams to finish`);
} finally {
  await agent.close();
  await p.stop();
}
