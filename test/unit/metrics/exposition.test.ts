import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { afterEach, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { ServerMetrics } from '../../../src/server/metrics/server-metrics.js';
import { JOB_OUTCOMES, OBJECT_STORE_OPERATIONS, zeroKnownSeries } from '../../../src/server/metrics/known-series.js';

/**
 * Issue 47: /metrics as Prometheus expects. Every labelled counter has its known series at 0 from
 * the start (rate() and increase() miss an event whose series appears with it); no gauge is named
 * like a counter; promtool finds nothing to say; a /readyz 503 (start, drain, outage) is neither a
 * 5xx of the HTTP metrics the error-rate alert reads nor an error line with a stack per probe.
 */
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PROMTOOL = '/usr/bin/promtool';
const promtool = existsSync(PROMTOOL) ? PROMTOOL : undefined;
if (!promtool) console.log(`promtool check metrics skipped: ${PROMTOOL} is not installed (Debian package prometheus)`);

async function scrape(url: string): Promise<{ text: string; families: Map<string, PrometheusFamily> }> {
  const res = await fetch(`${url}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, families: new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f])) };
}

/** The value of the one sample of `family` whose labels include `match`; undefined if there is none. */
function valueOf(families: Map<string, PrometheusFamily>, family: string, match: Record<string, string>) {
  const found = (families.get(family)?.metrics ?? []).filter((m) =>
    Object.entries(match).every(([k, v]) => m.labels?.[k] === v),
  );
  expect(found.length, `${family} ${JSON.stringify(match)}`).toBeLessThanOrEqual(1);
  return found[0] ? Number(found[0].value) : undefined;
}

const sum = (families: Map<string, PrometheusFamily>, family: string, match: Record<string, string> = {}) =>
  (families.get(family)?.metrics ?? [])
    .filter((m) => Object.entries(match).every(([k, v]) => m.labels?.[k] === v))
    .reduce((a, m) => a + Number(m.value), 0);

it('has every known series of every labelled counter at 0 from the start, and no gauge named *_total', async () => {
  server = await startServer({ memory: true, port: 0, logLevel: 'silent', instanceId: 'zero-test' });
  const { text, families } = await scrape(server.url);

  const kinds = server.ctx.jobs.kinds();
  expect(kinds).toContain('image-task');
  for (const kind of kinds)
    for (const outcome of JOB_OUTCOMES)
      expect(valueOf(families, 'facet_jobs_finished_total', { kind, outcome }), `${kind} ${outcome}`).toBe(0);
  expect(valueOf(families, 'facet_http_requests_refused_total', { reason: 'draining' })).toBe(0);
  // Each route's own series, 5xx included, before any request reached it.
  for (const [route, method] of [
    ['/v2/livedocs', 'POST'],
    ['/tasks/:task_id', 'GET'],
    ['/api/v1/chat/completions', 'POST'],
  ])
    for (const status_class of ['2xx', '4xx', '5xx'])
      expect(valueOf(families, 'facet_http_requests_total', { route, method, status_class })).toBe(0);
  expect(
    valueOf(families, 'facet_http_requests_total', { route: 'unmatched', method: 'GET', status_class: '4xx' }),
  ).toBe(0);
  // The catalog's models, before any call.
  const chatModels = (families.get('facet_model_cost_usd_total')?.metrics ?? []).map((m) => m.labels!.model);
  expect(chatModels.length).toBeGreaterThan(5);
  expect(sum(families, 'facet_model_cost_usd_total')).toBe(0);
  expect(valueOf(families, 'facet_model_tokens_total', { model: chatModels[0], type: 'output' })).toBe(0);
  // Counters a pool keeps are shown at 0 too.
  expect(sum(families, 'facet_cpu_pool_limit_kills_total')).toBe(0);
  // CPU waits are a histogram by lane (a gauge with a quantile label is refused by newer promtool).
  expect(families.get('facet_cpu_pool_queue_wait_seconds')?.type).toBe('HISTOGRAM');
  // The parser keeps no labels of a histogram's samples: each lane's count is read from the text.
  for (const lane of ['urgent', 'general', 'heavy'])
    expect(text).toMatch(new RegExp(`^facet_cpu_pool_queue_wait_seconds_count\\{[^}]*lane="${lane}"[^}]*\\} 0$`, 'm'));

  for (const f of families.values()) {
    if (f.type === 'GAUGE') expect(f.name, `gauge ${f.name}`).not.toMatch(/_total$/);
    if (f.type === 'COUNTER') expect(f.name, `counter ${f.name}`).toMatch(/_total$/);
  }
  // Node's process view stays, sampled in the background, without the *_total sums.
  expect(families.get('nodejs_active_handles')?.type).toBe('GAUGE');
  expect(families.has('nodejs_active_handles_total')).toBe(false);
  // Every sample names its instance (the parser keeps no labels of a histogram's samples).
  for (const f of families.values())
    if (f.type !== 'HISTOGRAM') for (const m of f.metrics) expect(m.labels?.instance, f.name).toBe('zero-test');
});

it.skipIf(!promtool)(
  `passes promtool check metrics with nothing to report${promtool ? '' : ` — skipped: ${PROMTOOL} is not installed`}`,
  async () => {
    server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
    // Some traffic first, so histograms and labelled series beyond the zeroed ones are there too.
    await fetch(`${server.url}/healthz`);
    await fetch(`${server.url}/no/such/path`);
    const { text } = await scrape(server.url);
    const r = spawnSync(promtool!, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
    expect(r.status).toBe(0);
  },
);

it('counts /readyz refusals as probes, not as 5xx, and logs one line when readiness changes, not one per probe', async () => {
  const lines: Array<{ level: number; msg: string; err?: unknown }> = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  server = await startServer({ memory: true, port: 0, logLevel: 'info', logStream });
  const { url, ctx } = server;
  expect((await fetch(`${url}/readyz`)).status).toBe(200);
  const before = (await scrape(url)).families;
  ctx.readiness.draining();
  for (let i = 0; i < 6; i++) {
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
  }
  const after = (await scrape(url)).families;
  expect(sum(after, 'facet_http_requests_total', { status_class: '5xx' })).toBe(0);
  expect(sum(after, 'facet_http_requests_total', { route: '/readyz' })).toBe(0);
  expect(
    sum(after, 'facet_readiness_probes_total', { result: 'not_ready' }) -
      sum(before, 'facet_readiness_probes_total', { result: 'not_ready' }),
  ).toBe(6);
  expect(sum(after, 'facet_readiness_probes_total', { result: 'ready' })).toBeGreaterThanOrEqual(1);
  expect(valueOf(after, 'facet_ready', {})).toBe(0);

  expect(lines.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual([]);
  expect(lines.filter((l) => /request failed/.test(l.msg))).toEqual([]);
  const changes = lines.filter((l) => l.msg.startsWith('readiness:')).map((l) => l.msg);
  expect(changes).toEqual(['readiness: ready', 'readiness: not ready (draining: shutting down)']);
});

it('zeroes the object store’s counters for every operation when files go to one', async () => {
  const metrics = new ServerMetrics('store-test');
  zeroKnownSeries(metrics, { jobKinds: [], objectStore: true, models: [] });
  for (const c of [metrics.objectStoreRequests, metrics.objectStoreRetries, metrics.objectStoreErrors]) {
    const { values } = await c.get();
    expect(values.map((v) => v.labels.operation).sort()).toEqual([...OBJECT_STORE_OPERATIONS].sort());
    expect(values.every((v) => v.value === 0)).toBe(true);
  }
});
