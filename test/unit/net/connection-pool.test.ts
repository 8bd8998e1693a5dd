import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchPolicy } from '../../../src/server/net/policy.js';
import { safeFetch } from '../../../src/server/net/safe-fetch.js';
import { ConnectionPool } from '../../../src/server/net/connection-pool.js';

let connections = 0;
const server = http.createServer((_req, res) => res.end('ok'));
server.on('connection', () => connections++);
let url = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('safeFetch with a connection pool', () => {
  const policy = new FetchPolicy(['127.0.0.1']);

  it('reuses one keep-alive connection for the fetches of one pool; without a pool each fetch connects anew', async () => {
    connections = 0;
    for (let i = 0; i < 5; i++) expect((await safeFetch(url, { policy })).body.toString()).toBe('ok');
    expect(connections).toBe(5);

    connections = 0;
    const pool = new ConnectionPool();
    for (let i = 0; i < 20; i++) expect((await safeFetch(url, { policy, pool })).body.toString()).toBe('ok');
    // One connection carries them (undici may open a second while the first is handed back).
    expect(connections).toBeLessThanOrEqual(2);
    await pool.close();
  });

  it('still checks the policy on every fetch', async () => {
    const pool = new ConnectionPool();
    await safeFetch(url, { policy, pool });
    await expect(safeFetch(url, { policy: new FetchPolicy([]), pool })).rejects.toThrow(/refused to fetch/);
    await pool.close();
  });
});
