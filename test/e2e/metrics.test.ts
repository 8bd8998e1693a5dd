import { afterAll, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPlatform, type Platform } from '../helpers/platform.js';
import { looksLikeIdOrKey, parseExposition, type Exposition } from '../helpers/prom-text.js';

/**
 * Issue 39: /metrics in Prometheus's text format. Its counters move as requests, jobs, failures and
 * metered usage happen; every sample names the instance; no label holds an id, a key or a raw URL.
 */
const platforms: Platform[] = [];
afterAll(() => platforms.forEach((p) => p.cleanup()));

async function scrape(url: string): Promise<Exposition> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

/** promtool's own check of the format and the naming conventions, where it is installed. */
function promtoolCheck(text: string): void {
  let promtool: string | undefined;
  try {
    promtool = execFileSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    promtool = undefined;
  }
  if (!promtool) {
    console.log('promtool check metrics skipped: promtool is not installed (Debian package prometheus)');
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-promtool-'));
  try {
    writeFileSync(path.join(dir, 'metrics.txt'), text);
    const r = spawnSync('sh', ['-c', `${promtool} check metrics < ${path.join(dir, 'metrics.txt')}`], {
      encoding: 'utf8',
    });
    // Nothing at all, the default collectors' names included (issue 47).
    const findings = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.trim());
    expect(findings).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

it('counts requests by route template, jobs by kind and outcome, and usage by model, all under the instance', async () => {
  const p = await startPlatform({ args: ['--instance-id', 'metrics-a'] });
  platforms.push(p);
  const token = { authorization: `Bearer ${p.boot.access_token}` };
  const before = await scrape(`${p.url}/metrics`);
  expect(before.types.get('facet_http_requests_total')).toBe('counter');
  expect(before.types.get('facet_http_request_duration_seconds')).toBe('histogram');
  expect(before.types.get('process_cpu_seconds_total')).toBe('counter');

  // Requests: a route with a path parameter, an unknown path, a client error.
  for (let i = 0; i < 3; i++)
    expect((await p.fetch('/tasks/job_doesnotexist0000' + i, { headers: token })).status).toBe(404);
  expect((await p.fetch('/no/such/path/abcdef0123456789abcdef')).status).toBe(404);
  // Jobs: an illustration that succeeds (metered usage) and a screenshot that fails.
  const form = new FormData();
  form.append('kind', 'illustration');
  form.append('prompt', 'A lighthouse in the rain');
  form.append('size', '512x512');
  const created = await p.fetch('/tasks', { method: 'POST', headers: token, body: form });
  expect(created.status).toBe(202);
  const okId = ((await created.json()) as { id: string }).id;
  const shot = new FormData();
  shot.append('kind', 'screenshot');
  shot.append('url', 'http://127.0.0.1:1/closed');
  const failing = await p.fetch('/tasks', { method: 'POST', headers: token, body: shot });
  expect(failing.status).toBe(202);
  const failId = ((await failing.json()) as { id: string }).id;
  const state = async (id: string) =>
    ((await (await p.fetch(`/tasks/${id}`, { headers: token })).json()) as { status: string }).status;
  const deadline = Date.now() + 90_000;
  while (
    !['succeeded', 'failed'].includes(await state(okId)) ||
    !['succeeded', 'failed'].includes(await state(failId))
  ) {
    if (Date.now() > deadline) throw new Error('tasks did not end');
    await new Promise((r) => setTimeout(r, 300));
  }
  expect(await state(okId)).toBe('succeeded');
  expect(await state(failId)).toBe('failed');

  const text = await (await fetch(`${p.url}/metrics`)).text();
  const after = parseExposition(text);
  promtoolCheck(text);
  // Every sample names the instance.
  for (const s of after.samples) expect(s.labels.instance, `${s.name} has no instance`).toBe('metrics-a');
  // No label value is an id, a key or a raw URL.
  for (const s of after.samples)
    for (const [k, v] of Object.entries(s.labels))
      expect(looksLikeIdOrKey(v), `${s.name}{${k}="${v}"} looks like an id or key`).toBe(false);

  const by = (m: Record<string, string>) =>
    after.sum('facet_http_requests_total', m) - before.sum('facet_http_requests_total', m);
  expect(by({ route: '/tasks/:task_id', method: 'GET', status_class: '4xx' })).toBe(3);
  expect(by({ route: 'unmatched', method: 'GET', status_class: '4xx' })).toBe(1);
  expect(by({ route: '/tasks', method: 'POST', status_class: '2xx' })).toBe(2);
  expect(after.sum('facet_http_request_duration_seconds_count', { route: '/tasks/:task_id' })).toBeGreaterThanOrEqual(
    3,
  );
  const routes = new Set(
    after.samples.filter((s) => s.name === 'facet_http_requests_total').map((s) => s.labels.route),
  );
  for (const r of routes) expect(r === 'unmatched' || r.startsWith('/'), r).toBe(true);

  expect(after.sum('facet_jobs_finished_total', { kind: 'image-task', outcome: 'succeeded' })).toBe(1);
  expect(after.sum('facet_jobs_finished_total', { kind: 'image-task', outcome: 'failed' })).toBe(1);
  expect(after.sum('facet_job_claim_latency_seconds_count', { kind: 'image-task' })).toBeGreaterThanOrEqual(2);
  expect(after.sum('facet_model_calls_total', { operation: 'illustration' })).toBeGreaterThanOrEqual(1);
  expect(after.sum('facet_model_tokens_total', { type: 'input' })).toBeGreaterThan(0);
  expect(after.sum('facet_ready')).toBe(1);
  expect(after.sum('facet_draining')).toBe(0);
  expect(after.sum('facet_http_requests_in_flight')).toBeGreaterThanOrEqual(1);
}, 150_000);

it('serves /metrics on a port of its own with --metrics-port, and not at all with --no-metrics', async () => {
  const own = await startPlatform({ args: ['--metrics-port', '0', '--instance-id', 'metrics-b'] });
  platforms.push(own);
  const main = await own.fetch('/metrics');
  expect(main.status).toBe(404);
  expect(((await main.json()) as { detail: string }).detail).toMatch(/own port \(--metrics-port \d+\)/);
  const listed = /metrics: (http:\/\/127\.0\.0\.1:\d+\/metrics) \(its own listener\)/.exec(own.serverOutput());
  expect(listed, own.serverOutput()).not.toBeNull();
  await own.fetch('/healthz');
  const m = await scrape(listed![1]);
  expect(m.sum('facet_http_requests_total', { route: '/healthz', instance: 'metrics-b' })).toBeGreaterThanOrEqual(1);
  expect((await fetch(listed![1].replace('/metrics', '/other'))).status).toBe(404);

  const off = await startPlatform({ args: ['--no-metrics'] });
  platforms.push(off);
  const none = await off.fetch('/metrics');
  expect(none.status).toBe(404);
  expect(((await none.json()) as { detail: string }).detail).toMatch(/turned off/);
}, 90_000);
