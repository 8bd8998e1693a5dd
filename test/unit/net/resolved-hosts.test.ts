import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchPolicy, type Lookup } from '../../../src/server/net/policy.js';
import { safeFetch } from '../../../src/server/net/safe-fetch.js';
import { ConnectionPool } from '../../../src/server/net/connection-pool.js';
import { ResolvedHosts } from '../../../src/server/net/resolved-hosts.js';

const server = http.createServer((_req, res) => res.end('ok'));
let port = 0;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

/** A resolver that answers from `answers` (changeable) and counts its calls. */
function countingLookup(answers: Record<string, string>) {
  const calls: string[] = [];
  const lookup: Lookup = async (host) => {
    calls.push(host);
    const a = answers[host];
    if (!a) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return [{ address: a, family: 4 }];
  };
  return { lookup, calls };
}

describe('resolutions kept by a connection pool', () => {
  it('a pool resolves a host once for many fetches; without a pool each fetch resolves it', async () => {
    const { lookup, calls } = countingLookup({ 'pages.test': '127.0.0.1' });
    const policy = new FetchPolicy(['127.0.0.1'], lookup);
    const url = `http://pages.test:${port}/`;
    for (let i = 0; i < 3; i++) expect((await safeFetch(url, { policy })).body.toString()).toBe('ok');
    expect(calls).toHaveLength(3);
    calls.length = 0;
    const pool = new ConnectionPool();
    await Promise.all(
      Array.from({ length: 10 }, async () =>
        expect((await safeFetch(url, { policy, pool })).body.toString()).toBe('ok'),
      ),
    );
    // Before: one DNS lookup per page, 10 here.
    expect(calls).toEqual(['pages.test']);
    await pool.close();
  });

  it('every fetch is still checked: a kept private address is refused by a policy that does not allow it', async () => {
    const { lookup, calls } = countingLookup({ 'pages.test': '127.0.0.1' });
    const pool = new ConnectionPool();
    const url = `http://pages.test:${port}/`;
    await safeFetch(url, { policy: new FetchPolicy(['127.0.0.1'], lookup), pool });
    await expect(safeFetch(url, { policy: new FetchPolicy([], lookup), pool })).rejects.toThrow(
      /refused to fetch .*resolves to 127\.0\.0\.1, a loopback/,
    );
    expect(calls).toHaveLength(1);
    await pool.close();
  });

  it('keeps a resolution for its TTL only, and never keeps a failure', async () => {
    let now = 0;
    const answers: Record<string, string> = {};
    const { lookup, calls } = countingLookup(answers);
    const kept = new ResolvedHosts(5_000, () => now);
    await expect(kept.resolve('a.test', lookup)).rejects.toThrow(/not found/);
    answers['a.test'] = '192.0.2.1';
    expect(await kept.resolve('a.test', lookup)).toEqual([{ address: '192.0.2.1', family: 4 }]);
    answers['a.test'] = '192.0.2.2';
    now = 4_999;
    expect(await kept.resolve('a.test', lookup)).toEqual([{ address: '192.0.2.1', family: 4 }]);
    now = 5_000;
    expect(await kept.resolve('a.test', lookup)).toEqual([{ address: '192.0.2.2', family: 4 }]);
    expect(calls).toEqual(['a.test', 'a.test', 'a.test']);
  });
});
