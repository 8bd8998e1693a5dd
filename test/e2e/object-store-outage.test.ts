import { afterAll, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';
import { startObjectStore, type TestObjectStore } from '../helpers/s3rver.js';
import { outageProxy, type OutageProxy } from '../helpers/outage-proxy.js';

/**
 * Issue 26: the object store goes away for 20 s while image tasks write their outputs. Storage
 * writes retry with backoff (about a minute) and the queue retries a task whose storage step still
 * failed, so every task succeeds; /readyz says 503 while the store cannot be reached.
 */
let s3: TestObjectStore | undefined;
let proxy: OutageProxy | undefined;
let p: Platform | undefined;
afterAll(async () => {
  p?.cleanup();
  await proxy?.close();
  await s3?.stop();
});

it('a 20 s object-store outage fails no image task', async () => {
  s3 = await startObjectStore(['facet-outage']);
  proxy = await outageProxy(s3.endpoint);
  const endpoint = proxy.url.replace(/\/$/, '');
  p = await startPlatform({
    args: ['--object-store', 's3://facet-outage/tasks'],
    env: { ...s3.env, AWS_ENDPOINT_URL: endpoint },
  });
  const platform = p;
  const create = async (i: number) => {
    const form = new FormData();
    form.append('kind', 'illustration');
    form.append('prompt', `A lighthouse in the rain, number ${i}`);
    form.append('size', '512x512');
    form.append('count', '2');
    const r = await platform.fetch('/tasks', {
      method: 'POST',
      headers: { authorization: `Bearer ${platform.boot.access_token}` },
      body: form,
    });
    expect(r.status).toBe(202);
    return ((await r.json()) as { id: string }).id;
  };
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) ids.push(await create(i));
  await proxy.down();
  const downAt = Date.now();
  let sawNotReady = false;
  while (Date.now() - downAt < 20_000) {
    if ((await platform.fetch('/readyz')).status === 503) sawNotReady = true;
    await new Promise((r) => setTimeout(r, 500));
  }
  await proxy.up();
  expect(sawNotReady).toBe(true);
  const status = async (id: string) =>
    (
      (await (
        await platform.fetch(`/tasks/${id}`, { headers: { authorization: `Bearer ${platform.boot.access_token}` } })
      ).json()) as { status: string; error?: string }
    ).status;
  const deadline = Date.now() + 180_000;
  let states = await Promise.all(ids.map(status));
  while (states.some((s) => s === 'queued' || s === 'running' || s === 'pending')) {
    if (Date.now() > deadline) throw new Error(`tasks still not ended: ${states.join(', ')}`);
    await new Promise((r) => setTimeout(r, 500));
    states = await Promise.all(ids.map(status));
  }
  expect(states).toEqual(ids.map(() => 'succeeded'));
  expect((await platform.fetch('/readyz')).status).toBe(200);
}, 300_000);
