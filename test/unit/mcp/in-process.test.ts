import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { readBody } from '../../../src/client/http.js';
import { createTransport } from '../../../src/client/transport.js';
import { inProcessRequest } from '../../../src/server/mcp/in-process.js';

/**
 * The /mcp tools' client runs in process: the route sees the caller's address (what the audit
 * actor and the request log record, through request.ip) and the caller's key, and a streamed
 * answer arrives as it is written.
 */
describe('the in-process client of /mcp', () => {
  it("carries the caller's address and forwarded headers, the key, and the body", async () => {
    const app = Fastify();
    app.post('/echo', async (request) => ({
      ip: request.ip,
      host: request.headers.host,
      auth: request.headers.authorization,
      agent: request.headers['user-agent'],
      body: request.body,
    }));
    await app.ready();
    const t = createTransport({
      baseUrl: 'http://facet.in-process',
      credentials: { apiKey: 'fk_caller' },
      userAgent: 'facet-mcp/1',
      request: inProcessRequest(app, { remoteAddress: '203.0.113.9', headers: { host: 'facet.example.com' } }),
    });
    const echoed = await t.call({ method: 'POST', path: '/echo', auth: 'bearer-key', body: { a: 1 } });
    expect(echoed).toEqual({
      ip: '203.0.113.9',
      host: 'facet.example.com',
      auth: 'Bearer fk_caller',
      agent: 'facet-mcp/1',
      body: { a: 1 },
    });
    await app.close();
  });

  it('streams an event-stream answer', async () => {
    const app = Fastify();
    app.get('/events', (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      reply.raw.write('event: message\ndata: {"content":"a"}\n\n');
      setTimeout(() => reply.raw.end('event: done\ndata: {}\n\n'), 20);
    });
    await app.ready();
    const res = await inProcessRequest(app, { remoteAddress: '127.0.0.1', headers: {} })('http://x/events', {
      method: 'GET',
      headers: {},
      headersTimeout: 1000,
      bodyTimeout: 1000,
    });
    expect(res.statusCode).toBe(200);
    expect((await readBody(res.body)).toString()).toBe(
      'event: message\ndata: {"content":"a"}\n\nevent: done\ndata: {}\n\n',
    );
    await app.close();
  });
});
