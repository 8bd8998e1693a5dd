import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTransport } from '../../../src/client/transport.js';
import { tasksClient } from '../../../src/client/tasks.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Downloads the platform redirects to an object store's presigned URL (issue 15). */
describe('client downloads that are redirected', () => {
  it('follow the redirect to another origin and send it no credentials', async () => {
    const seenByStore: http.IncomingHttpHeaders[] = [];
    const store = await serve((req, res) => {
      seenByStore.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/zip' });
      res.end('PK-the-zip');
    });
    const seenByApi: http.IncomingHttpHeaders[] = [];
    const api = await serve((req, res) => {
      seenByApi.push(req.headers);
      res.writeHead(302, { location: `${store}/bucket/tasks/t1/artifacts.zip?X-Amz-Signature=abc` });
      res.end();
    });
    const debug: string[] = [];
    const t = createTransport({
      baseUrl: api,
      credentials: { apiKey: 'fk_secret', accessToken: 'tok_secret' },
      debug: (l) => debug.push(l),
    });
    const res = await tasksClient(t).zip('t1');
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('PK-the-zip');
    expect(seenByApi[0]['x-api-key']).toBe('fk_secret');
    expect(seenByStore).toHaveLength(1);
    const sent = JSON.stringify(seenByStore[0]);
    expect(sent).not.toContain('fk_secret');
    expect(sent).not.toContain('tok_secret');
    expect(seenByStore[0].authorization).toBeUndefined();
    // The presigned signature is a credential too: debug lines leave it out.
    expect(debug.join('\n')).not.toContain('X-Amz-Signature=abc');
  });

  it('report the store refusing (an expired URL) as an error', async () => {
    const store = await serve((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end('<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>');
    });
    const api = await serve((_req, res) => {
      res.writeHead(307, { location: `${store}/x` });
      res.end();
    });
    const t = createTransport({ baseUrl: api, credentials: { apiKey: 'fk_secret' } });
    await expect(tasksClient(t).download('t1', 'a.png')).rejects.toMatchObject({ status: 403 });
  });
});
