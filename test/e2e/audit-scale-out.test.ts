import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../helpers/postgres.js';

/**
 * Issue 30 on PostgreSQL: the audit trail is in the database, so an entry written through one
 * instance is read from another; and each instance publishes its request-log lines, so a tail
 * open on one instance sees the requests another serves.
 */
describePostgres('the audit trail and the request log across instances', () => {
  const instances: RunningServer[] = [];
  afterEach(async () => {
    for (const s of instances.splice(0)) await s.close();
  });
  afterAll(dropTestDatabases);

  async function two() {
    const url = await createTestDatabase();
    const filesDir = mkdtempSync(path.join(os.tmpdir(), 'facet-shared-files-'));
    for (let i = 0; i < 2; i++)
      instances.push(
        await startServer({
          databaseUrl: url,
          memory: true,
          port: 0,
          logLevel: 'silent',
          adminKey: `adm_${'y'.repeat(40)}`,
          filesDir,
          instanceId: `api-${'ab'[i]}`,
        }),
      );
    const [a, b] = instances;
    return { a, b, admin: { 'x-api-key': a.bootstrap.data.api_key! } };
  }

  it('an entry written through A is read from B', async () => {
    const { a, b, admin } = await two();
    const key = await (
      await fetch(`${a.url}/admin/api-keys`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: a.bootstrap.data.user_id }),
      })
    ).json();
    expect((await fetch(`${a.url}/admin/api-keys/${key.id}/freeze`, { method: 'POST', headers: admin })).status).toBe(
      200,
    );
    const entries = await (await fetch(`${b.url}/admin/audit?target=${key.id}`, { headers: admin })).json();
    expect(entries.map((e: { action: string }) => e.action)).toEqual(['key.frozen', 'key.created']);
    expect(entries[0]).toMatchObject({
      actor: { kind: 'key', user_id: a.bootstrap.data.user_id },
      before: { status: 'active' },
      after: { status: 'frozen' },
      // Issue 39: each entry names the instance it was made through.
      instance: 'api-a',
    });
    const viaB = await fetch(`${b.url}/admin/api-keys/${key.id}/unfreeze`, { method: 'POST', headers: admin });
    expect(viaB.status).toBe(200);
    const newest = (await (await fetch(`${a.url}/admin/audit?target=${key.id}`, { headers: admin })).json())[0];
    expect(newest).toMatchObject({ action: 'key.unfrozen', instance: 'api-b' });
  });

  it('a tail open on B shows a request A answered', async () => {
    const { a, b, admin } = await two();
    const stop = new AbortController();
    const res = await fetch(`${b.url}/admin/logs/tail?status=4xx`, { headers: admin, signal: stop.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    const read = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    })().catch(() => undefined);
    // A hears B's interest over LISTEN/NOTIFY within moments; until then its lines stay local.
    const deadline = Date.now() + 10_000;
    let i = 0;
    while (!text.includes('"request_id":"xa-') && Date.now() < deadline) {
      await fetch(`${a.url}/v2/nothing-here`, {
        headers: { authorization: `Bearer ${admin['x-api-key']}`, 'x-request-id': `xa-${i++}` },
      });
      await new Promise((r) => setTimeout(r, 200));
    }
    stop.abort();
    await read;
    const line = JSON.parse(/event: request\ndata: (.*)\n/.exec(text)![1]);
    // Named as audit entries and metrics name it (--instance-id): A served it, the tail is B's.
    expect(line).toMatchObject({ status: 404, path: '/v2/nothing-here', instance: 'api-a' });
    expect(JSON.parse(/event: ready\ndata: (.*)\n/.exec(text)![1]).instance).toBe('api-b');
    expect(text).not.toContain(admin['x-api-key']);
  });
});
