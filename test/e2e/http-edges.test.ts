import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * The edges of HTTP itself: a caller that trickles a request in is cut at the request timeout, and
 * what Node or the router refuse before a route runs (408, 414, 431, a malformed request) comes back
 * in the error shape of the surface the path names.
 */
let p: Platform;
const REQUEST_TIMEOUT = 2;

beforeAll(async () => {
  p = await startPlatform({
    args: ['--request-timeout', String(REQUEST_TIMEOUT), '--answer-chunk-delay', '150', '--stream-heartbeat', '1'],
  });
});
afterAll(() => p?.cleanup());

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
  closedAfterMs: number;
}

/** Opens a raw connection, writes `head`, then trickles `trickle` one byte every `everyMs`, and reads what comes back until the server closes. */
function rawExchange(head: string, trickle = '', everyMs = 300, giveUpMs = 15_000): Promise<RawAnswer> {
  const { port } = new URL(p.url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    let i = 0;
    const timer = setInterval(() => {
      if (i < trickle.length && socket.writable) socket.write(trickle[i++]);
    }, everyMs);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${giveUpMs} ms; received: ${received.slice(0, 300)}`));
    }, giveUpMs);
    socket.on('data', (d) => (received += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      const [headers = '', body = ''] = received.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(headers)?.[1] ?? 0),
        headers,
        body,
        closedAfterMs: Date.now() - started,
      });
    });
    socket.write(head);
  });
}

describe('a request that does not arrive in time', () => {
  it('a body trickled in a byte at a time is answered 408 in the surface shape within the request timeout', async () => {
    const head = `POST /v2/livedocs HTTP/1.1\r\nHost: x\r\nX-Request-Id: slow-body-1\r\nAuthorization: Bearer ${p.boot.api_key}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`;
    const slow = rawExchange(head, '{"name":"' + 'a'.repeat(190));
    // A multipart upload read by busboy is cut the same way, in the image service's shape.
    const form = `POST /tasks HTTP/1.1\r\nHost: x\r\nx-api-key: ${p.boot.api_key}\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: 1000\r\n\r\n--XX\r\nContent-Disposition: form-data; name="prompt"\r\n\r\n`;
    const slowForm = rawExchange(form, 'a'.repeat(100));
    // Meanwhile the server answers others at once.
    const health = await p.fetch('/healthz');
    expect(health.status).toBe(200);
    const r = await slow;
    expect(r.status).toBe(408);
    // The answer names the request it cuts.
    expect(JSON.parse(r.body)).toMatchObject({
      status: 'error',
      code: 'REQUEST_TIMEOUT',
      message: expect.stringMatching(/within 2 s/),
      request_id: 'slow-body-1',
    });
    expect(r.headers).toMatch(/x-request-id: slow-body-1/i);
    // Cut at the timeout, with Node's check interval and a generous margin on a shared machine.
    expect(r.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT * 1000 - 100);
    expect(r.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT * 1000 + 5000);
    const f = await slowForm;
    expect(f.status).toBe(408);
    expect(JSON.parse(f.body)).toMatchObject({
      detail: expect.stringMatching(/did not arrive in time/),
      code: 'REQUEST_TIMEOUT',
    });
  });

  it('headers that never end are cut too, in the shape of the default family', async () => {
    const r = await rawExchange('GET /projects HTTP/1.1\r\nHost: x\r\n', 'X-Slow: ' + 'a'.repeat(100));
    expect(r.status).toBe(408);
    expect(JSON.parse(r.body)).toMatchObject({
      detail: expect.stringMatching(/did not arrive in time/),
      code: 'REQUEST_TIMEOUT',
    });
  });

  it('a request that arrives in time is answered normally, and a stream runs on well past the request timeout', async () => {
    const auth = { Authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' };
    const ld = (
      await (
        await p.fetch('/v2/livedocs', { method: 'POST', headers: auth, body: JSON.stringify({ name: 'timeouts' }) })
      ).json()
    ).data.short_id;
    const started = await p.fetch('/v2/conversations', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ query: 'Tell me everything about the timeouts of this server', live_doc_short_id: ld }),
    });
    expect(started.status).toBe(200);
    const key = (await started.json()).data.stream_key;
    const t0 = Date.now();
    const res = await p.fetch(`/v2/conversations/stream/${key}`, {
      headers: { Authorization: auth.Authorization, accept: 'text/event-stream' },
      signal: AbortSignal.timeout(60_000),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/event: done/);
    expect(Date.now() - t0).toBeGreaterThan(REQUEST_TIMEOUT * 1000);
  });
});

describe('what Node and the router refuse comes in the surface shape', () => {
  const v2 = { status: 'error', request_id: expect.any(String) };

  it('a path parameter past 100 characters: 414 in the surface shape', async () => {
    const long = 'a'.repeat(101);
    const r = await p.fetch(`/v2/livedocs/${long}`, { headers: { Authorization: `Bearer ${p.boot.api_key}` } });
    expect(r.status).toBe(414);
    expect(r.headers.get('x-request-id')).toBeTruthy();
    expect(await r.json()).toMatchObject({
      ...v2,
      code: 'URI_TOO_LONG',
      message: expect.stringMatching(/100 characters/),
    });
    const image = await p.fetch(`/projects/${long}`, { headers: { 'x-api-key': p.boot.api_key } });
    expect(image.status).toBe(414);
    expect(await image.json()).toMatchObject({ code: 'URI_TOO_LONG', detail: expect.any(String) });
    // At the bound the route runs (and finds nothing).
    const at = await p.fetch(`/v2/livedocs/${'a'.repeat(100)}`, {
      headers: { Authorization: `Bearer ${p.boot.api_key}` },
    });
    expect(at.status).toBe(404);
  });

  it('headers past 16 KB: 431 in the surface shape of the path', async () => {
    const r = await rawExchange(`GET /v2/livedocs HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17 * 1024)}\r\n\r\n`);
    expect(r.status).toBe(431);
    expect(JSON.parse(r.body)).toMatchObject({ ...v2, code: 'HEADERS_TOO_LARGE' });
  });

  it('a request line past 16 KB: 431 in the surface shape of the path', async () => {
    const r = await rawExchange(`GET /api/v1/models?x=${'c'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(r.status).toBe(431);
    const body = JSON.parse(r.body);
    expect(body.error ?? body).toMatchObject({ message: expect.stringMatching(/16 KB/) });
  });

  it('a malformed request: 400 in a JSON error shape', async () => {
    const r = await rawExchange('GET /v2/livedocs HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ ...v2, code: 'INVALID_PARAMETER' });
  });
});

describe('a body refused for its size', () => {
  /** Writes the head, waits for the answer to it, then writes the body the head announced and a second request. */
  function refusedThenWritten(
    head: string,
    body: Buffer,
    next: string,
  ): Promise<{ first: string; rest: string; writeError?: string }> {
    const { port } = new URL(p.url);
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let received = '';
      let first = '';
      let writeError: string | undefined;
      const done = setTimeout(() => socket.destroy(), 8_000);
      socket.on('data', (d) => {
        received += d.toString('latin1');
        if (!first && received.includes('\r\n\r\n') && /content-length: (\d+)/i.test(received)) {
          const length = Number(/content-length: (\d+)/i.exec(received)![1]);
          const end = received.indexOf('\r\n\r\n') + 4 + length;
          if (received.length < end) return;
          first = received.slice(0, end);
          received = received.slice(end);
          socket.write(body, (err) => {
            if (err) writeError = (err as NodeJS.ErrnoException).code;
            else socket.write(next);
          });
        } else if (first && received.includes('\r\n\r\n')) socket.end();
      });
      socket.on('error', (err) => (writeError ??= (err as NodeJS.ErrnoException).code));
      socket.on('close', () => {
        clearTimeout(done);
        resolve({ first, rest: received, writeError });
      });
      socket.write(head);
    });
  }

  it('a caller still writing the announced body reads the 413, and the connection carries its next request', async () => {
    // The 413 is decided from Content-Length alone; a server that hung up on the rest of the body
    // would reset the connection under a client that writes before it reads (fetch does).
    const size = 5 * 1024 * 1024;
    const head = `POST /v1/beta/seo/backlinks/backlinks/live HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${p.boot.api_key}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`;
    const r = await refusedThenWritten(head, Buffer.alloc(size, 0x20), 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(r.first).toMatch(/^HTTP\/1\.1 413/);
    expect(r.first).toMatch(/at most 4 MiB/);
    expect(r.writeError).toBeUndefined();
    expect(r.rest).toMatch(/^HTTP\/1\.1 200/);
  });
});
