import { afterAll, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';
import { startObjectStore, type TestObjectStore } from '../helpers/s3rver.js';
import { outageProxy, type OutageProxy } from '../helpers/outage-proxy.js';
import { parseExposition } from '../helpers/prom-text.js';

/**
 * Issues 26 and 39: the object store goes away for 20 s, then for 60 s, while 24 image tasks write
 * their outputs. Each storage operation retries with backoff and jitter for its window (15 s here,
 * FACET_OBJECT_STORE_RETRY_SECONDS; a minute by default), and a task whose storage step still
 * fails goes back to the queue after a pause without using up an attempt: every task succeeds,
 * none fails while /readyz says the store is down, and /metrics shows the retries and deferrals.
 */
let s3: TestObjectStore | undefined;
let proxy: OutageProxy | undefined;
let p: Platform | undefined;
afterAll(async () => {
  p?.cleanup();
  await proxy?.close();
  await s3?.stop();
});

it('outages of 20 s and 60 s fail no image task', async () => {
  s3 = await startObjectStore(['facet-outage']);
  proxy = await outageProxy(s3.endpoint);
  const endpoint = proxy.url.replace(/\/$/, '');
  p = await startPlatform({
    args: ['--object-store', 's3://facet-outage/tasks', '--workers', '4'],
    env: { ...s3.env, AWS_ENDPOINT_URL: endpoint, FACET_OBJECT_STORE_RETRY_SECONDS: '15' },
  });
  const platform = p;
  const token = { authorization: `Bearer ${platform.boot.access_token}` };
  const create = async (i: number) => {
    const form = new FormData();
    form.append('kind', 'illustration');
    form.append('prompt', `A lighthouse in the rain, number ${i}`);
    form.append('size', '512x512');
    form.append('count', '2');
    const r = await platform.fetch('/tasks', { method: 'POST', headers: token, body: form });
    expect(r.status).toBe(202);
    return ((await r.json()) as { id: string }).id;
  };
  const status = async (id: string) =>
    ((await (await platform.fetch(`/tasks/${id}`, { headers: token })).json()) as { status: string }).status;
  const ids: string[] = [];
  const failedWhileDown: string[] = [];
  const outage = async (ms: number) => {
    await proxy!.down();
    const downAt = Date.now();
    let sawNotReady = false;
    while (Date.now() - downAt < ms) {
      if ((await platform.fetch('/readyz')).status === 503) sawNotReady = true;
      for (const id of ids) if ((await status(id)) === 'failed') failedWhileDown.push(id);
      await new Promise((r) => setTimeout(r, 1000));
    }
    await proxy!.up();
    expect(sawNotReady).toBe(true);
  };

  for (let i = 0; i < 12; i++) ids.push(await create(i));
  await outage(20_000);
  for (let i = 12; i < 24; i++) ids.push(await create(i));
  await outage(60_000);
  expect(failedWhileDown).toEqual([]);

  const deadline = Date.now() + 90_000;
  let states = await Promise.all(ids.map(status));
  while (states.some((s) => s === 'queued' || s === 'running' || s === 'pending')) {
    if (Date.now() > deadline) throw new Error(`tasks still not ended: ${states.join(', ')}`);
    await new Promise((r) => setTimeout(r, 500));
    states = await Promise.all(ids.map(status));
  }
  expect(states).toEqual(ids.map(() => 'succeeded'));
  expect((await platform.fetch('/readyz')).status).toBe(200);

  const m = parseExposition(await (await platform.fetch('/metrics')).text());
  expect(m.sum('facet_jobs_finished_total', { kind: 'image-task', outcome: 'succeeded' })).toBe(24);
  expect(m.sum('facet_jobs_finished_total', { kind: 'image-task', outcome: 'failed' })).toBe(0);
  expect(m.sum('facet_jobs_finished_total', { kind: 'image-task', outcome: 'deferred' })).toBeGreaterThan(0);
  expect(m.sum('facet_object_store_retries_total')).toBeGreaterThan(0);
}, 240_000);
