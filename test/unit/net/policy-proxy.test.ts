import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchPolicy, type Lookup } from '../../../src/server/net/policy.js';
import { REFUSED_HEADER, startPolicyProxy, type PolicyProxy } from '../../../src/server/net/policy-proxy.js';

let origin: http.Server;
let port: number;
let proxy: PolicyProxy;
const names: Lookup = async (host) => {
  if (host === 'site.test') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
};

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    if (req.url === '/big') return void res.end(Buffer.alloc(3 * 1024 * 1024, 'x'));
    res.end(`origin saw ${req.method} ${req.url} host=${req.headers.host}`);
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  port = (origin.address() as AddressInfo).port;
  // Only the name is allowed: 127.0.0.1 by address stays refused.
  proxy = await startPolicyProxy(new FetchPolicy(['site.test'], names));
});
afterAll(async () => {
  await proxy.close();
  await new Promise<void>((r) => origin.close(() => r()));
});

const viaProxy = (target: string, through: PolicyProxy = proxy) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const { port: pp } = new URL(through.url);
    const req = http.request(
      { host: '127.0.0.1', port: pp, path: target, headers: { host: new URL(target).host } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });

const connect = (authority: string) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const { port: pp } = new URL(proxy.url);
    const req = http.request({ host: '127.0.0.1', port: pp, method: 'CONNECT', path: authority });
    req.on('connect', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode!, headers: res.headers });
    });
    req.on('error', reject);
    req.end();
  });

describe('the policy proxy that Chromium goes through', () => {
  it('forwards an allowed name to the address the policy resolved (the name exists nowhere else)', async () => {
    const r = await viaProxy(`http://site.test:${port}/page?q=1`);
    expect(r.status).toBe(200);
    expect(r.body).toBe(`origin saw GET /page?q=1 host=site.test:${port}`);
  });

  it('refuses a refused address with 403 and the policy message, and records it', async () => {
    const r = await viaProxy(`http://127.0.0.1:${port}/secret`);
    expect(r.status).toBe(403);
    expect(r.headers[REFUSED_HEADER]).toMatch(
      /^refused to fetch http:\/\/127\.0\.0\.1:\d+\/secret: 127\.0\.0\.1 is a loopback address/,
    );
    expect(proxy.refusals.at(-1)).toMatchObject({ authority: `127.0.0.1:${port}` });
  });

  it('tunnels CONNECT only to allowed hosts', async () => {
    expect((await connect(`site.test:${port}`)).status).toBe(200);
    const refused = await connect('169.254.169.254:443');
    expect(refused.status).toBe(403);
    expect(refused.headers[REFUSED_HEADER]).toMatch(/169\.254\.169\.254 is a link-local address/);
    expect(proxy.refusals.at(-1)).toMatchObject({ authority: '169.254.169.254:443' });
  });

  it('cuts every connection once the browser downloaded more than its budget, and refuses more', async () => {
    const small = await startPolicyProxy(new FetchPolicy(['site.test'], names), { maxBytes: 1024 * 1024 });
    try {
      expect((await viaProxy(`http://site.test:${port}/page`, small)).status).toBe(200);
      expect(small.overBudget()).toBeUndefined();
      const cut = await viaProxy(`http://site.test:${port}/big`, small).then(
        (r) => r.body.length,
        () => -1,
      );
      // The answer broke off (or arrived short of its 3 MB), and the proxy says why.
      expect(cut).toBeLessThan(3 * 1024 * 1024);
      expect(small.overBudget()).toBe(
        "the page and what it loads passed 1 MB; the browser's downloads were stopped there",
      );
      const after = await viaProxy(`http://site.test:${port}/page`, small);
      expect(after.status).toBe(502);
      expect(after.body).toBe(small.overBudget());
    } finally {
      await small.close();
    }
  });
});
