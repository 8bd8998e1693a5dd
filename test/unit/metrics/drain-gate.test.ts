import { afterEach, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/server/server.js';
import { parseExposition } from '../../helpers/prom-text.js';

/**
 * Issue 39: once the drain delay is over, a new request is refused before any work, in its
 * surface's own error shape with Retry-After, never in Fastify's default body; liveness, readiness
 * and metrics still answer; every answer closes its connection.
 */
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

it('refuses new requests in each surface’s shape with Retry-After while health, readiness and metrics answer', async () => {
  server = await startServer({ memory: true, port: 0, logLevel: 'silent', instanceId: 'gate-test' });
  const { url, ctx } = server;
  ctx.readiness.draining();
  const during = await fetch(`${url}/healthz`);
  expect(during.status).toBe(200);
  expect(during.headers.get('connection')).toBe('close');
  ctx.readiness.refuse();

  const v2 = await fetch(`${url}/v2/projects`, { headers: { authorization: 'Bearer x' } });
  expect(v2.status).toBe(503);
  expect(v2.headers.get('retry-after')).toBe('1');
  expect(v2.headers.get('connection')).toBe('close');
  const v2Body = (await v2.json()) as Record<string, unknown>;
  expect(v2Body).toMatchObject({
    status: 'error',
    code: 'SERVICE_UNAVAILABLE',
    request_id: v2.headers.get('x-request-id'),
  });
  expect(String(v2Body.message)).toMatch(/shutting down/);

  const image = await fetch(`${url}/tasks`, { method: 'POST' });
  expect(image.status).toBe(503);
  expect(await image.json()).toMatchObject({
    code: 'SERVICE_UNAVAILABLE',
    detail: expect.stringMatching(/shutting down/),
  });

  const openai = await fetch(`${url}/api/v1/chat/completions`, { method: 'POST', body: '{}' });
  expect(openai.status).toBe(503);
  expect(await openai.json()).toMatchObject({ error: { type: 'service_unavailable', code: 'SERVICE_UNAVAILABLE' } });

  const anthropic = await fetch(`${url}/api/v1/messages`, { method: 'POST', body: '{}' });
  expect(anthropic.status).toBe(503);
  expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });

  for (const body of [v2Body]) expect(body).not.toHaveProperty('statusCode');
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  expect((await fetch(`${url}/readyz`)).status).toBe(503);
  const metrics = await fetch(`${url}/metrics`);
  expect(metrics.status).toBe(200);
  const m = parseExposition(await metrics.text());
  expect(m.sum('facet_http_requests_refused_total', { reason: 'draining', instance: 'gate-test' })).toBe(4);
  expect(m.sum('facet_draining')).toBe(1);
  expect(m.sum('facet_ready')).toBe(0);
});
