import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

// The render child aborts (tests only) on a job whose input holds this, as a native resvg panic would.
// One word without hyphens: captions are wrapped by UAX 14, which may break a line after a hyphen.
const ABORT_MARKER = 'abortrenderchild';

let p: Platform;
let tight: Platform;
beforeAll(async () => {
  [p, tight] = await Promise.all([
    startPlatform({ env: { FACET_TEST_RENDER_CHILD_ABORT: ABORT_MARKER } }),
    // One worker and one waiting place: the third concurrent render is refused.
    startPlatform({ env: { FACET_CPU_WORKERS: '1', FACET_CPU_QUEUE_MAX: '1' } }),
  ]);
});
afterAll(() => Promise.all([p?.cleanup(), tight?.cleanup()]));

const post = (on: Platform, pathname: string, body: unknown) =>
  on.fetch(pathname, {
    method: 'POST',
    headers: { Authorization: `Bearer ${on.boot.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const image = (on: Platform, prompt: string, size = '256x256') =>
  post(on, '/api/v1/images/generations', { prompt, size, response_format: 'b64_json' });

describe('the CPU pool, through the server', () => {
  it('survives a render child that aborts: only that request fails, /healthz answers, the next render works', async () => {
    expect((await image(p, 'a lighthouse at dusk')).status).toBe(200);
    const crashed = await image(p, `a lighthouse ${ABORT_MARKER}`);
    expect(crashed.status).toBe(422);
    expect(((await crashed.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'RENDERER_CRASHED',
      message: expect.stringContaining('SIGABRT'),
    });
    expect((await p.fetch('/healthz')).status).toBe(200);
    const next = await image(p, 'a harbour at dawn');
    expect(next.status).toBe(200);
    expect(((await next.json()) as { data: unknown[] }).data).toHaveLength(1);
  });

  it('answers a backlinks filter nested 5,000 deep with a clear error, and the next request', async () => {
    // [[[… ["rank", ">", 1], "and", ["rank", ">", 1]] …]: written as text (too deep for this process's JSON.stringify).
    const filter = '['.repeat(5_000) + '["rank",">",1]' + ',"and",["rank",">",1]]'.repeat(5_000);
    const deep = await p.fetch('/v1/beta/seo/backlinks/backlinks/live', {
      method: 'POST',
      headers: { Authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' },
      body: `[{"target":"example.com","limit":2,"filters":${filter}}]`,
    });
    // Refused as caller input (the pool's INPUT_TOO_COMPLEX, or the filter's own depth check), in the beta shape.
    expect(deep.status).toBeGreaterThanOrEqual(400);
    expect(deep.status).toBeLessThan(500);
    expect(((await deep.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: expect.any(String),
      message: expect.stringMatching(/deep|nest/i),
    });
    const after = await post(p, '/v1/beta/seo/backlinks/backlinks/live', [{ target: 'example.com', limit: 2 }]);
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({ status_code: 20000, tasks_error: 0 });
  });

  it('refuses work past a full queue with a 503 and Retry-After in the surface’s error shape', async () => {
    const answers = await Promise.all(
      ['one', 'two', 'three', 'four'].map((w) => image(tight, `a ${w} lighthouse`, '2048x2048')),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    const refused = answers.find((r) => r.status === 503)!;
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { error: { code: string; message: string; type: string } }).error).toMatchObject({
      type: 'service_unavailable',
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('FACET_CPU_QUEUE_MAX'),
    });
    await Promise.all(answers.map((r) => r.arrayBuffer().catch(() => undefined)));
    // The queue drains: later work is served.
    expect((await image(tight, 'a quiet harbour')).status).toBe(200);
  });
});
