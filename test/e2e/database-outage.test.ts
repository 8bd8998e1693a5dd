import { afterAll, expect, it } from 'vitest';
import { startPlatform, tempDir, type Platform } from '../helpers/platform.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../helpers/postgres.js';
import { outageProxy, type OutageProxy } from '../helpers/outage-proxy.js';

/**
 * Issue 26: the database goes away and comes back, ten times, under traffic. The instance never
 * exits; /readyz says 503 during the outage and 200 after; requests meanwhile answer 503 with
 * Retry-After in their surface's shape (not 500); every acknowledged write is there afterwards.
 */
describePostgres('a PostgreSQL outage', () => {
  let platform: Platform | undefined;
  let proxy: OutageProxy | undefined;
  afterAll(async () => {
    platform?.cleanup();
    await proxy?.close();
    await dropTestDatabases();
  });

  it('is answered 503 + Retry-After and ridden out, ten times', async () => {
    const url = await createTestDatabase();
    proxy = await outageProxy(url);
    platform = await startPlatform({ databaseUrl: proxy.url, args: ['--files-dir', tempDir('files')] });
    const p = platform;
    const key = { authorization: `Bearer ${p.boot.api_key}` };
    const create = (name: string) =>
      p.fetch('/v2/livedocs', {
        method: 'POST',
        headers: { ...key, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
    const acknowledged: string[] = [];
    const waitReady = async (status: number) => {
      for (let i = 0; i < 100; i++) {
        if ((await p.fetch('/readyz')).status === status) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`/readyz never answered ${status}`);
    };
    for (let round = 0; round < 10; round++) {
      await waitReady(200);
      const before = await create(`before outage ${round}`);
      expect(before.status).toBe(200);
      acknowledged.push(((await before.json()) as { data: { short_id: string } }).data.short_id);

      await proxy.down();
      await waitReady(503);
      const during = await create(`during outage ${round}`);
      expect(during.status, await during.clone().text()).toBe(503);
      expect(during.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await during.json()).toMatchObject({ status: 'error', code: 'SERVICE_UNAVAILABLE' });
      const read = await p.fetch('/v2/livedocs', { headers: key });
      expect([200, 503]).toContain(read.status);
      await proxy.up();
    }
    await waitReady(200);
    expect((await p.fetch('/healthz')).status).toBe(200);
    const list = await p.cli(['livedocs', 'list', '--size', '100', '--json']);
    expect(list.exitCode, list.stderr).toBe(0);
    const ids = (JSON.parse(list.stdout) as { items: Array<{ short_id: string }> }).items.map((d) => d.short_id);
    for (const id of acknowledged) expect(ids).toContain(id);
  }, 180_000);
});
