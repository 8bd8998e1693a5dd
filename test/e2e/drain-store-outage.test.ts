import { afterAll, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';
import { startObjectStore, type TestObjectStore } from '../helpers/s3rver.js';
import { outageProxy, type OutageProxy } from '../helpers/outage-proxy.js';

/**
 * Issue 39: an instance stopped while its tasks wait on an object store that is away (their storage
 * calls ride out the outage for a minute) still exits within --drain-timeout plus a second; the
 * tasks go back to the queue, not counted as crashes, and succeed once an instance runs them with
 * the store back.
 */
let s3: TestObjectStore | undefined;
let proxy: OutageProxy | undefined;
let p: Platform | undefined;
afterAll(async () => {
  p?.cleanup();
  await proxy?.close();
  await s3?.stop();
});

it('a SIGTERM during an object-store outage exits within the drain timeout and loses no task', async () => {
  s3 = await startObjectStore(['facet-drain-outage']);
  proxy = await outageProxy(s3.endpoint);
  const env = { ...s3.env, AWS_ENDPOINT_URL: proxy.url.replace(/\/$/, '') };
  const args = ['--object-store', 's3://facet-drain-outage/t', '--drain-timeout', '4', '--workers', '3'];
  p = await startPlatform({ args, env });
  const token = { authorization: `Bearer ${p.boot.access_token}` };
  await proxy.down();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const form = new FormData();
    form.append('kind', 'illustration');
    form.append('prompt', `A harbour at dusk, number ${i}`);
    form.append('size', '256x256');
    const r = await p.fetch('/tasks', { method: 'POST', headers: token, body: form });
    expect(r.status).toBe(202);
    ids.push(((await r.json()) as { id: string }).id);
  }
  const status = async (platform: Platform, id: string) =>
    ((await (await platform.fetch(`/tasks/${id}`, { headers: token })).json()) as { status: string }).status;
  // Their images are drawn; publishing them waits on the store.
  const deadline = Date.now() + 30_000;
  while ((await Promise.all(ids.map((id) => status(p!, id)))).some((s) => s !== 'running')) {
    if (Date.now() > deadline) throw new Error('tasks did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 3000));
  const t0 = Date.now();
  await p.stop();
  expect(Date.now() - t0).toBeLessThanOrEqual(5_000);

  await proxy.up();
  p = await p.restart();
  const restarted = p;
  const until = Date.now() + 60_000;
  let states = await Promise.all(ids.map((id) => status(restarted, id)));
  while (states.some((s) => s !== 'succeeded' && s !== 'failed')) {
    if (Date.now() > until) throw new Error(`tasks still ${states.join(', ')}`);
    await new Promise((r) => setTimeout(r, 300));
    states = await Promise.all(ids.map((id) => status(restarted, id)));
  }
  expect(states).toEqual(ids.map(() => 'succeeded'));
  const logs = await (await restarted.fetch(`/tasks/${ids[0]}/logs`, { headers: token })).text();
  expect(logs).toMatch(/the server is stopping; back in the queue/);
  expect(logs).not.toMatch(/the server stopped \d+ time/);
}, 150_000);
