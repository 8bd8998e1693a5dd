import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 30: every change to keys and users leaves an audit entry (who, when, from where, before and
 * after), readable by administrators at GET /admin/audit (`facet admin audit`) and by each user for
 * their own things at GET /auth/audit (`facet audit`); entries outlive a restart.
 */
let p: Platform;
let adminKeyId: string;
beforeAll(async () => {
  p = await startPlatform();
  adminKeyId = okJson(await p.cli(['whoami', '--json'])).api_key.id;
});
afterAll(() => p?.cleanup());

const admin = () => ({ 'x-api-key': p.boot.api_key });
type Entry = {
  action: string;
  time: string;
  actor: { kind: string; user_id: string | null; credential_id: string | null };
  target: { type: string; id: string | null };
  before: any;
  after: any;
  request_id: string | null;
  client: { ip: string | null; user_agent: string | null };
};

/** The freeze, unfreeze and delete entries of one key, oldest first. */
function lifecycle(entries: Entry[]): Entry[] {
  return entries.filter((e) => ['key.frozen', 'key.unfrozen', 'key.deleted'].includes(e.action)).reverse();
}

function expectLifecycle(entries: Entry[], keyId: string, userAgent: RegExp): void {
  const [frozen, unfrozen, deleted] = lifecycle(entries);
  expect([frozen, unfrozen, deleted].map((e) => e?.action)).toEqual(['key.frozen', 'key.unfrozen', 'key.deleted']);
  for (const e of [frozen, unfrozen, deleted]) {
    expect(e.target).toEqual({ type: 'api_key', id: keyId });
    expect(e.actor).toEqual({ kind: 'key', user_id: p.boot.user_id, credential_id: adminKeyId });
    expect(Date.now() - Date.parse(e.time)).toBeLessThan(120_000);
    expect(e.request_id).toMatch(/^req_/);
    expect(e.client.ip).toBe('127.0.0.1');
    expect(e.client.user_agent).toMatch(userAgent);
  }
  expect(frozen.before).toMatchObject({ status: 'active', frozen_at: null });
  expect(frozen.after).toMatchObject({ status: 'frozen' });
  expect(unfrozen.before).toMatchObject({ status: 'frozen' });
  expect(unfrozen.after).toEqual({ status: 'active', frozen_at: null });
  expect(deleted.before).toMatchObject({ deleted_at: null });
  expect(deleted.after.deleted_at).toEqual(expect.any(String));
  // Never a secret: the entries name keys by id only.
  expect(JSON.stringify(entries)).not.toContain(p.boot.api_key);
}

describe('the audit trail', () => {
  it('records a freeze, unfreeze and delete made through the CLI, read back by the CLI and over HTTP', async () => {
    const key = okJson(
      await p.cli(['admin', 'keys', 'create', '--user', p.boot.user_id, '--name', 'cli-audited', '--json']),
    );
    ok(await p.cli(['admin', 'keys', 'freeze', key.id]));
    ok(await p.cli(['admin', 'keys', 'unfreeze', key.id]));
    ok(await p.cli(['admin', 'keys', 'delete', key.id, '--yes']));

    const viaCli = okJson<Entry[]>(await p.cli(['admin', 'audit', '--key', key.id, '--json']));
    expectLifecycle(viaCli, key.id, /^facet-cli\//);
    expect(viaCli.at(-1)).toMatchObject({
      action: 'key.created',
      before: null,
      after: { name: 'cli-audited', status: 'active' },
    });

    const res = await p.fetch(`/admin/audit?target=${key.id}`, { headers: admin() });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(viaCli);
    // --jq works on the entries like on every other listing.
    expect(
      ok(await p.cli(['admin', 'audit', '--key', key.id, '--action', 'key.*', '--jq', '.[].action']))
        .stdout.trim()
        .split('\n'),
    ).toEqual(['key.deleted', 'key.unfrozen', 'key.frozen', 'key.created']);
  });

  it('records the same made through the API, read back by the CLI', async () => {
    const json = { ...admin(), 'content-type': 'application/json', 'user-agent': 'audit-test/1' };
    const key = await (
      await p.fetch('/admin/api-keys', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ user_id: p.boot.user_id, name: 'api-audited' }),
      })
    ).json();
    for (const [method, path] of [
      ['POST', '/freeze'],
      ['POST', '/unfreeze'],
      ['DELETE', ''],
    ]) {
      const r = await p.fetch(`/admin/api-keys/${key.id}${path}`, {
        method,
        headers: { ...admin(), 'user-agent': 'audit-test/1' },
      });
      expect(r.status).toBeLessThan(300);
    }
    const entries = okJson<Entry[]>(await p.cli(['admin', 'audit', '--key', key.id, '--since', '10m', '--json']));
    expectLifecycle(entries, key.id, /^audit-test\/1$/);
    // Filters: an action, and a time range that ends before the entries.
    expect(
      okJson<Entry[]>(await p.cli(['admin', 'audit', '--key', key.id, '--action', 'key.frozen', '--json'])).map(
        (e) => e.action,
      ),
    ).toEqual(['key.frozen']);
    expect(okJson(await p.cli(['admin', 'audit', '--key', key.id, '--until', '2000-01-01', '--json']))).toEqual([]);
  });

  it('pages with X-Next-Cursor, and refuses a cursor it did not give out', async () => {
    const first = await p.fetch('/admin/audit?limit=2', { headers: admin() });
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    expect(first.headers.get('link')).toMatch(/rel="next"/);
    const page1 = await first.json();
    const page2 = await (await p.fetch(`/admin/audit?limit=2&cursor=${cursor}`, { headers: admin() })).json();
    expect(page1).toHaveLength(2);
    expect(page2.length).toBeGreaterThan(0);
    expect(page2.map((e: Entry & { id: string }) => e.id)).not.toContain(page1[1].id);
    expect(page2[0].time <= page1[1].time).toBe(true);
    // `facet api --paginate` follows the same header to the last page.
    const all = okJson<Entry[]>(await p.cli(['api', 'GET', '/admin/audit', '-F', 'limit=2', '--paginate', '--slurp']));
    const whole = await (await p.fetch('/admin/audit?limit=500', { headers: admin() })).json();
    expect(all).toEqual(whole);
    const bad = await p.fetch('/admin/audit?cursor=nonsense', { headers: admin() });
    expect(bad.status).toBe(422);
    expect((await p.fetch('/admin/audit?limit=501', { headers: admin() })).status).toBe(422);
    expect((await p.fetch('/admin/audit?action=DROP%20TABLE', { headers: admin() })).status).toBe(422);
  });

  it('records offline changes as local-admin; a non-admin is refused GET /admin/audit and sees only their own entries', async () => {
    const bobId = ok(await p.cli(['serve', 'users', 'create', 'bob', '--data-dir', p.dataDir])).stdout.trim();
    ok(await p.cli(['serve', 'users', 'credits', 'bob', '+25', '--data-dir', p.dataDir]));
    ok(await p.cli(['serve', 'users', 'plan', 'bob', 'paid', '--data-dir', p.dataDir]));
    const token = ok(await p.cli(['serve', 'token', 'bob', '--data-dir', p.dataDir])).stdout.trim();
    const bobKey = await (
      await p.fetch('/auth/api-keys', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bobs' }),
      })
    ).json();

    const offline = okJson<Entry[]>(
      await p.cli(['admin', 'audit', '--actor', 'local-admin', '--target', bobId, '--json']),
    );
    expect(offline.map((e) => e.action).sort()).toEqual([
      'token.issued',
      'user.created',
      'user.credits_changed',
      'user.plan_changed',
    ]);
    for (const e of offline) expect(e.actor).toEqual({ kind: 'local-admin', user_id: null, credential_id: null });
    expect(offline.find((e) => e.action === 'user.credits_changed')).toMatchObject({
      before: { credits: 0 },
      after: { credits: 25 },
    });
    expect(offline.find((e) => e.action === 'user.plan_changed')).toMatchObject({
      before: { plan: 'free' },
      after: { plan: 'paid' },
    });
    expect(JSON.stringify(offline)).not.toContain(token);

    const refused = await p.fetch('/admin/audit', { headers: { 'x-api-key': bobKey.key } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ detail: expect.any(String), code: 'FORBIDDEN' });
    const cliRefused = await p.cli(['admin', 'audit'], { env: { FACET_API_KEY: bobKey.key } });
    expect(cliRefused.exitCode).not.toBe(0);
    expect(cliRefused.stderr).toMatch(/FORBIDDEN|administrators/);

    const own = okJson<Entry[]>(await p.cli(['audit', '--json'], { env: { FACET_API_KEY: bobKey.key } }));
    expect(own.map((e) => e.action)).toContain('key.created');
    expect(own.map((e) => e.action)).toContain('user.created');
    // Only bob's: what he did, and what was done to his account.
    for (const e of own)
      expect([e.actor.user_id, (e as Entry & { subject_user_id: string }).subject_user_id]).toContain(bobId);
    expect(own.find((e) => e.action === 'key.created')).toMatchObject({
      actor: { kind: 'token', user_id: bobId, credential_id: null },
      target: { id: bobKey.id },
    });
  });

  it('records a model hidden and shown, the admin key used, and a login by session cookie', async () => {
    const listing = okJson(await p.cli(['admin', 'models', 'list', '--json']));
    const models = (Array.isArray(listing) ? listing : listing.models) as Array<{ id: string; listed: boolean }>;
    const model = models.find((m) => m.listed)!;
    ok(await p.cli(['admin', 'models', 'hide', model.id]));
    ok(await p.cli(['admin', 'models', 'show', model.id]));
    const modelEntries = okJson<Entry[]>(
      await p.cli(['admin', 'audit', '--target', model.id, '--action', 'model.*', '--json']),
    );
    expect(modelEntries.map((e) => [e.action, e.before, e.after])).toEqual([
      ['model.shown', { listed: false }, { listed: true }],
      ['model.hidden', { listed: true }, { listed: false }],
    ]);

    ok(await p.cli(['admin', 'usage']));
    const used = okJson<Entry[]>(
      await p.cli(['admin', 'audit', '--action', 'admin_key.used', '--limit', '1', '--json']),
    );
    expect(used[0]).toMatchObject({
      actor: { user_id: p.boot.user_id, credential_id: adminKeyId },
      target: { type: 'endpoint', id: '/admin/api-key-usage' },
    });
    expect(JSON.stringify(used)).not.toContain(p.boot.admin_key);

    const login = await p.fetch('/auth/session-cookie', {
      method: 'POST',
      headers: { authorization: `Bearer ${p.boot.access_token}` },
    });
    expect(login.status).toBeLessThan(300);
    const cookie = /facet_session=([^;]+)/.exec(login.headers.get('set-cookie')!)![1];
    const [entry] = okJson<Entry[]>(await p.cli(['admin', 'audit', '--action', 'session.login', '--json']));
    expect(entry).toMatchObject({
      actor: { kind: 'token', user_id: p.boot.user_id },
      target: { type: 'user', id: p.boot.user_id },
    });
    expect(JSON.stringify(entry)).not.toContain(cookie);
    expect(JSON.stringify(entry)).not.toContain(p.boot.access_token);
  });

  it('keeps its entries across a restart of facet serve', async () => {
    const before = okJson<Entry[]>(await p.cli(['admin', 'audit', '--all', '--json']));
    p = await p.restart();
    const after = okJson<Entry[]>(await p.cli(['admin', 'audit', '--all', '--json']));
    // The restart adds its own token.issued; everything from before is still there, unchanged.
    expect(after.slice(after.length - before.length)).toEqual(before);
    expect(after[0]).toMatchObject({ action: 'token.issued', actor: { kind: 'local-admin' } });
  });

  it('offers no way to change or delete an entry', async () => {
    const [entry] = await (await p.fetch('/admin/audit?limit=1', { headers: admin() })).json();
    for (const method of ['DELETE', 'PUT', 'PATCH', 'POST']) {
      const r = await p.fetch(`/admin/audit/${entry.id}`, { method, headers: admin() });
      expect(r.status).toBe(404);
    }
    const again = await (await p.fetch('/admin/audit?limit=1', { headers: admin() })).json();
    expect(again[0]).toEqual(entry);
  });
});
