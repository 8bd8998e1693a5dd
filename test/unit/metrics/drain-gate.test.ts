import net from 'node:net';
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

/** One HTTP/1.1 request written on a raw connection; resolves with the status line's code. */
function requestOn(socket: net.Socket, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (m && head.includes('\r\n\r\n')) {
        socket.off('data', onData);
        resolve(Number(m[1]));
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer x\r\nConnection: keep-alive\r\n\r\n`);
  });
}

const connect = (url: string) =>
  new Promise<net.Socket>((resolve, reject) => {
    const { port } = new URL(url);
    const s = net.connect(Number(port), '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });

it('closes the listener before refusing; a request already on its way on a connection accepted before is answered, a kept-alive connection’s next one refused', async () => {
  server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
  const { url } = server;
  const used = await connect(url);
  expect(await requestOn(used, '/v2/projects')).toBe(401);
  const fresh = await connect(url);
  const closing = server.close({ drainDelayMs: 0 });
  server = undefined;
  await new Promise((r) => setTimeout(r, 50));
  // A balancer's new connection is refused by the kernel: it sends the request elsewhere.
  await expect(connect(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  // The connection accepted before: its first request is answered (401: it ran), not refused.
  expect(await requestOn(fresh, '/v2/projects')).toBe(401);
  // The kept-alive one that already carried a request: refused before any work.
  expect(await requestOn(used, '/v2/projects')).toBe(503);
  used.destroy();
  fresh.destroy();
  await closing;
});

it('a connection the kernel completed while the loop was busy as the delay ended is accepted and answered, not reset', async () => {
  server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
  const { port } = new URL(server.url);
  const closing = server.close({ drainDelayMs: 100 });
  server = undefined;
  const answered = new Promise<number>((resolve, reject) => {
    // After a turn's timers (the next turn's timers then run before its I/O, as under load):
    setTimeout(
      () =>
        setImmediate(() => {
          // The handshake completes in the kernel: the connection waits in the listen queue.
          const socket = net.connect(Number(port), '127.0.0.1');
          socket.once('error', reject);
          requestOn(socket, '/v2/projects').then(resolve, reject);
          // The loop stays busy past the end of the delay: its timer is due before anything is accepted.
          const until = Date.now() + 120;
          while (Date.now() < until);
        }),
      40,
    );
  });
  expect(await answered).toBe(401);
  await closing;
});

it('a connection accepted before the listener closed, whose request a slow balancer writes a while later, is answered', async () => {
  server = await startServer({ memory: true, port: 0, logLevel: 'silent' });
  // The balancer's kernel completed the connection; its loop is busy and writes the request late.
  const slow = await connect(server.url);
  const closing = server.close({ drainDelayMs: 0 });
  server = undefined;
  await new Promise((r) => setTimeout(r, 600));
  expect(await requestOn(slow, '/v2/projects')).toBe(401);
  slow.destroy();
  await closing;
});
