import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { createUser } from '../../src/server/services/users.service.js';
import { createKey } from '../../src/server/services/keys.service.js';
import { findUserByName } from '../../src/server/store/users.repo.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../helpers/postgres.js';

/**
 * Issue 15: three `facet serve` instances on one PostgreSQL, each with its own caches. A key's freeze, unfreeze and delete
 * through one instance hold on the others on the very next request after the call returns, though
 * each instance serves key lookups from its own cache — and an instance that lost its listener
 * connection does not trust its cache until it is back.
 */
describePostgres('API keys across instances on one PostgreSQL', () => {
  const instances: RunningServer[] = [];
  afterEach(async () => {
    for (const s of instances.splice(0)) await s.close();
  });
  afterAll(dropTestDatabases);

  async function three() {
    const url = await createTestDatabase();
    const adminKey = `adm_${'x'.repeat(40)}`;
    // One files directory for the three, as a deployment mounts one.
    const filesDir = mkdtempSync(path.join(os.tmpdir(), 'facet-shared-files-'));
    for (let i = 0; i < 3; i++)
      instances.push(
        await startServer({ databaseUrl: url, memory: true, port: 0, logLevel: 'silent', adminKey, filesDir }),
      );
    const [a, b, c] = instances;
    // The administrator's own key (made by the first instance), as admins call these routes.
    const adminApiKey = a.bootstrap.data.api_key!;
    const admin = { 'x-api-key': adminApiKey, 'content-type': 'application/json' };
    const created = await fetch(`${a.url}/admin/api-keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ user_id: a.bootstrap.data.user_id, name: 'shared' }),
    }).then((r) => r.json());
    expect(created.key).toBeTruthy();
    const v2 = (s: RunningServer) =>
      fetch(`${s.url}/v2/livedocs`, { headers: { authorization: `Bearer ${created.key}` } });
    const adminCall = (s: RunningServer, method: string, path: string) =>
      fetch(`${s.url}/admin/api-keys/${created.id}${path}`, { method, headers: { 'x-api-key': adminApiKey } });
    return { a, b, c, v2, adminCall, url };
  }

  it('a freeze through A is refused by B and C on the next request; unfrozen through B, accepted; deleted through C, refused everywhere', async () => {
    const { a, b, c, v2, adminCall } = await three();
    // Every instance has the key in its cache.
    for (const s of [a, b, c, a, b, c]) expect((await v2(s)).status).toBe(200);

    expect((await adminCall(a, 'POST', '/freeze')).status).toBe(200);
    for (const s of [b, c, a]) {
      const r = await v2(s);
      expect(r.status).toBe(403);
      expect((await r.json()).code).toBe('KEY_FROZEN');
    }

    expect((await adminCall(b, 'POST', '/unfreeze')).status).toBe(200);
    for (const s of [a, c, b]) expect((await v2(s)).status).toBe(200);

    expect((await adminCall(c, 'DELETE', '')).status).toBeLessThan(300);
    for (const s of [a, b, c]) expect((await v2(s)).status).toBe(401);
  });

  it('an instance whose listener connection is cut reads keys from the database until it listens again', async () => {
    const { a, b, v2, adminCall, url } = await three();
    for (const s of [a, b, a, b]) expect((await v2(s)).status).toBe(200);
    // Cut every LISTEN connection on this database: B (and the others) lose their listeners.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
      );
    } finally {
      await client.end();
    }
    const started = Date.now();
    expect((await adminCall(a, 'POST', '/freeze')).status).toBe(200);
    // The freeze waited for the others to listen again and catch up, or for its bound (3 s).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await v2(b)).status).toBe(403);
  });

  it('the chat rate limit of one key holds for the three together: the 21st request in a minute is refused whichever instance gets it', async () => {
    const { a, b, c } = await three();
    // Windows are fixed minutes: one clock for the three, so a minute that ends mid-test cannot
    // open a new window (the test is about sharing the count, not about the clock).
    const now = new Date();
    for (const s of [a, b, c]) (s.ctx as { now: () => Date }).now = () => now;
    const key = a.bootstrap.data.api_key!;
    const chat = (s: RunningServer) =>
      fetch(`${s.url}/v2/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'hello' }),
      });
    const order = [a, b, c];
    for (let i = 0; i < 20; i++) {
      const r = await chat(order[i % 3]);
      expect(r.status, `request ${i + 1}`).toBe(200);
      await r.arrayBuffer();
    }
    for (const s of order) {
      const r = await chat(s);
      expect(r.status).toBe(429);
      expect((await r.json()).code).toBe('RATE_LIMITED');
    }
  });

  it('20 concurrent social searches through the three instances never spend more credits than the balance', async () => {
    const { a, b, c } = await three();
    const user = await createUser(a.ctx, { name: 'spender', plan: 'paid', credits: 100 });
    const { key } = await createKey(a.ctx, { userId: user.id });
    const order = [a, b, c];
    const search = (s: RunningServer) =>
      fetch(`${s.url}/v2/social/tweet/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'lang:en', limit: 10 }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    // The social store is seeded on first use: once, through one instance, before the race.
    expect((await search(a)).status).toBe(200);
    const before = (await findUserByName(a.ctx.db, 'spender'))!.credits;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => search(order[i % 3])));
    for (const x of answers) expect([200, 402]).toContain(x.status);
    const served = answers.filter((x) => x.status === 200).reduce((n, x) => n + x.body.data.tweets.length, 0);
    expect(served).toBeLessThanOrEqual(before);
    expect((await findUserByName(c.ctx.db, 'spender'))!.credits).toBe(before - served);
  }, 60_000);

  it('refuses to start an instance whose files directory is not the one the running instances use', async () => {
    const url = await createTestDatabase();
    instances.push(await startServer({ databaseUrl: url, memory: true, port: 0, logLevel: 'silent' }));
    const second = await startServer({ databaseUrl: url, memory: true, port: 0, logLevel: 'silent' }).catch(
      (e: Error) => e,
    );
    expect(second).toBeInstanceOf(Error);
    expect((second as Error).message).toMatch(
      /use a different files directory .* Start every instance with the same --files-dir/,
    );
  });
});
