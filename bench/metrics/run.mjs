// Scrape time of /metrics under load (issue 47): a scraper's timeout (often 2-10 s) must not be
// reached while the instance is busy. `facet serve --metrics-port` is loaded by autocannon with
// BENCH_CONNECTIONS (50) connections of `GET /v2/livedocs` (a query per request) and
// BENCH_WRITERS (10) of `POST /v2/livedocs` for BENCH_SECONDS (10), while /metrics and /healthz of
// the metrics listener are read one after the other every 250 ms: p50/p99/max of each, and the
// scrape's size. Baseline: /healthz on the same listener, same moment (what the loaded event loop
// costs any answer); the scrape's own cost is the difference. Idle figures first.
import autocannon from 'autocannon';
import { fmt, percentile } from '../lib/stats.mjs';
import { startPlatform } from '../lib/platform.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const writers = Number(process.env.BENCH_WRITERS ?? 10);

const facet = await startPlatform(['--log-level', 'silent', '--metrics-port', '0']);
const metricsUrl = /metrics: (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(facet.output())?.[1];
if (!metricsUrl) throw new Error(`no metrics listener in:\n${facet.output()}`);
const healthUrl = metricsUrl.replace(/\/metrics$/, '/healthz');
const auth = { authorization: `Bearer ${facet.key}` };

const timed = async (url) => {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return { ms: performance.now() - t0, bytes: body.length };
};

async function sample(durationMs) {
  const scrapes = [];
  const healths = [];
  let bytes = 0;
  for (const end = Date.now() + durationMs; Date.now() < end;) {
    const s = await timed(metricsUrl);
    scrapes.push(s.ms);
    bytes = s.bytes;
    healths.push((await timed(healthUrl)).ms);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { scrapes, healths, bytes };
}

const line = (what, v) =>
  `${what.padEnd(22)} p50 ${fmt(percentile(v, 50)).padStart(7)} ms  p99 ${fmt(percentile(v, 99)).padStart(7)} ms  max ${fmt(Math.max(...v)).padStart(7)} ms  (${v.length})`;

try {
  const idle = await sample(3000);
  const load = (opts) =>
    new Promise((resolve, reject) =>
      autocannon({ duration: seconds, ...opts }, (err, res) => (err ? reject(err) : resolve(res))),
    );
  const reads = load({ url: `${facet.url}/v2/livedocs`, connections, headers: auth });
  const writes = load({
    url: `${facet.url}/v2/livedocs`,
    connections: writers,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench/metrics' }),
  });
  const busy = await sample(seconds * 1000 - 500);
  const [r, w] = await Promise.all([reads, writes]);
  console.log(`scrape size: ${busy.bytes} bytes`);
  console.log(line('idle /metrics', idle.scrapes));
  console.log(line('idle /healthz', idle.healths));
  console.log(line('loaded /metrics', busy.scrapes));
  console.log(line('loaded /healthz', busy.healths));
  console.log(
    `load: ${fmt(r.requests.average, 0)} reads/s, ${fmt(w.requests.average, 0)} writes/s; scrape p99 / healthz p99 under load: ${fmt(percentile(busy.scrapes, 99) / percentile(busy.healths, 99), 2)}x`,
  );
} finally {
  await facet.stop();
}
