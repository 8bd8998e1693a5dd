import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../helpers/postgres.js';
import { outageProxy, type OutageProxy } from '../helpers/outage-proxy.js';
import { nginxBalancer, nginxBinary } from '../helpers/nginx-balancer.js';
import type { RetryingProxy } from '../helpers/retrying-proxy.js';

/**
 * Issue 47: in a database outage every instance answers 503 with Retry-After, as designed. Behind
 * docs/deploy.md's nginx the client must get that answer (facet's JSON, Retry-After), for reads and
 * writes alike, never nginx's own HTML `502 Bad Gateway` from marking every instance down
 * ("no live upstreams"); and once the database is back, the instances serve through nginx at once.
 */
describePostgres('a database outage behind docs/deploy.md’s nginx', () => {
  const servers: RunningServer[] = [];
  let db: OutageProxy | undefined;
  let balancer: RetryingProxy | undefined;
  let filesDir: string | undefined;
  afterAll(async () => {
    await balancer?.close();
    for (const s of servers) await s.close().catch(() => undefined);
    await db?.close();
    if (filesDir) rmSync(filesDir, { recursive: true, force: true });
    await dropTestDatabases();
  });

  const nginx = nginxBinary();
  it.skipIf(!nginx)(
    `answers facet’s JSON 503 with Retry-After, never nginx’s 502, and serves again once it is back${nginx ? '' : ' — skipped: nginx is not installed'}`,
    async () => {
      db = await outageProxy(await createTestDatabase());
      filesDir = mkdtempSync(path.join(os.tmpdir(), 'facet-nginx-outage-files-'));
      for (let i = 0; i < 2; i++)
        servers.push(await startServer({ databaseUrl: db.url, memory: true, port: 0, logLevel: 'silent', filesDir }));
      balancer = await nginxBalancer(servers.map((s) => s.url));
      const key = servers[0].bootstrap.data.api_key!;
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const list = () => fetch(`${balancer!.url}/v2/livedocs`, { headers });
      const create = (name: string) =>
        fetch(`${balancer!.url}/v2/livedocs`, { method: 'POST', headers, body: JSON.stringify({ name }) });
      const readyz = async (s: RunningServer) => (await fetch(`${s.url}/readyz`)).status;
      const until = async (what: string, ok: () => Promise<boolean>) => {
        for (const deadline = Date.now() + 30_000; Date.now() < deadline;)
          if (await ok()) return;
          else await new Promise((r) => setTimeout(r, 200));
        throw new Error(`never: ${what}`);
      };
      expect((await list()).status).toBe(200);

      await db.down();
      await until('every instance not ready', async () =>
        (await Promise.all(servers.map(readyz))).every((s) => s === 503),
      );
      // Well past max_fails for every instance, reads and writes in turn.
      const answers: Array<{
        method: string;
        status: number;
        type: string | null;
        retryAfter: string | null;
        body: string;
      }> = [];
      for (let i = 0; i < 24; i++) {
        const res = i % 3 === 2 ? await create(`during ${i}`) : await list();
        answers.push({
          method: i % 3 === 2 ? 'POST' : 'GET',
          status: res.status,
          type: res.headers.get('content-type'),
          retryAfter: res.headers.get('retry-after'),
          body: await res.text(),
        });
      }
      const wrong = answers.filter(
        (a) =>
          a.status !== 503 ||
          !a.type?.startsWith('application/json') ||
          !/^\d+$/.test(a.retryAfter ?? '') ||
          (JSON.parse(a.body) as { code?: string }).code !== 'SERVICE_UNAVAILABLE',
      );
      expect(wrong.map((a) => `${a.method} ${a.status} ${a.type} ${a.body.slice(0, 80)}`)).toEqual([]);

      await db.up();
      await until('every instance ready', async () => (await Promise.all(servers.map(readyz))).every((s) => s === 200));
      // Through nginx at once: no instance was marked down meanwhile.
      for (let i = 0; i < 4; i++) expect((await list()).status).toBe(200);
      expect((await create('after the outage')).status).toBe(200);
    },
    120_000,
  );
});
