import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postUpstream, UpstreamError } from '../../../src/server/providers/upstream-http.js';

// A model upstream whose error answer never ends: only its start may be read.
let server: http.Server;
let base: string;
let sent = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.write('{"error":{"message":"overloaded"');
    const chunk = Buffer.alloc(64 * 1024, ' ');
    let left = 4096; // 256 MB at most
    res.on('close', () => (left = 0));
    const pump = () => {
      while (left-- > 0) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end('}');
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("an upstream's error answer", () => {
  it('is read only as far as its message is shown; the sender is cut off', async () => {
    const err = await postUpstream({ baseUrl: base, timeoutMs: 10_000 }, '/chat/completions', {}, { model: 'm' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).status).toBe(500);
    // Not JSON once cut, so the text itself (cut to 500 characters) is the message.
    expect((err as UpstreamError).message.startsWith('{"error":{"message":"overloaded"')).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(sent).toBeLessThan(32 * 1024 * 1024);
  });
});
