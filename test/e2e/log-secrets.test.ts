import { unescape } from 'node:querystring';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ok, startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 38: a credential pasted where it does not belong — a URL path, a query parameter of any
 * name, an unknown header's name or value — reaches no log: not the server's own (stdout/stderr of
 * `facet serve` at debug level), not the admin's or the user's tail, not the console's Requests page.
 */
let p: Platform;
let bob: { key: string; token: string; session: string };
const tails: ResultPromise[] = [];
beforeAll(async () => {
  p = await startPlatform({ args: ['--log-level', 'debug'] });
  ok(await p.cli(['serve', 'users', 'create', 'logbob', '--data-dir', p.dataDir]));
  const token = ok(await p.cli(['serve', 'token', 'logbob', '--data-dir', p.dataDir])).stdout.trim();
  const made = await (
    await p.fetch('/auth/api-keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'logs' }),
    })
  ).json();
  bob = { key: made.key, token, session: await consoleSession(made.key) };
});
afterAll(async () => {
  for (const t of tails) {
    t.kill('SIGTERM');
    await t.catch(() => undefined);
  }
  p?.cleanup();
});

async function consoleSession(secret: string): Promise<string> {
  const r = await p.fetch('/console/login', {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: p.url },
    body: new URLSearchParams({ key: secret }).toString(),
  });
  expect(r.status).toBe(303);
  return /facet_session=([^;]+)/.exec(r.headers.get('set-cookie')!)![1];
}

function startTail(env: Record<string, string | undefined>) {
  const proc = execa('node', [BIN, 'logs', 'tail', '--json'], {
    env: { FACET_CONFIG_DIR: p.configDir, NO_COLOR: '1', CI: 'true', FACET_API_KEY: undefined, ...env },
    extendEnv: true,
    reject: false,
    buffer: false,
  });
  tails.push(proc);
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  return () => out;
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Probes until every tail shows one: from then on they are open. */
async function waitOpen(outs: Array<() => string>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    await p.fetch(`/v2/log-probe-${i}`, { headers: { authorization: `Bearer ${bob.key}` } });
    try {
      await until(() => outs.every((o) => o().includes(`log-probe-${i}`)), 200, 'the probe');
      return;
    } catch {
      // not open yet
    }
  }
  throw new Error('the tails never opened');
}

describe('secrets never reach a log', () => {
  it('a key, a token and a session id in a path, a query, a header name or value: in no log line, no tail, no Requests page', async () => {
    const adminTail = startTail({});
    const userTail = startTail({ FACET_API_KEY: bob.key });
    await waitOpen([adminTail, userTail]);
    const auth = { authorization: `Bearer ${bob.key}` };
    const secrets = [bob.key, bob.token, bob.session];
    const made: Array<[string, Record<string, string>]> = [
      [`/v2/livedocs/${bob.key}`, {}],
      [`/v2/livedocs/${bob.key.replace('_', '%5F')}/resources`, {}],
      [`/v2/livedocs?note=${bob.key}&other=${encodeURIComponent(bob.token)}`, {}],
      [`/v2/livedocs/${bob.session}`, {}],
      [`/api/v1/${bob.token}`, {}],
      ['/v2/livedocs', { 'x-debug-note': `pasted ${bob.key} and ${bob.token}`, [`x-${bob.key}`]: bob.session }],
      ['/v2/log-secrets-done', {}],
    ];
    for (const [path, headers] of made) await p.fetch(path, { headers: { ...auth, ...headers } });
    await until(
      () => [adminTail, userTail].every((o) => o().includes('/v2/log-secrets-done')),
      10_000,
      'the last request in both tails',
    );
    const pages = await Promise.all(
      [p.boot.admin_key, bob.key].map(async (secret) => {
        const cookie = `facet_session=${await consoleSession(secret)}`;
        const r = await p.fetch('/console/requests', { headers: { cookie } });
        expect(r.status).toBe(200);
        return r.text();
      }),
    );
    // Let the server's own log catch up with the last request.
    await until(() => p.serverOutput().includes('/v2/log-secrets-done'), 5_000, 'the server log');
    const logs = {
      'server log': p.serverOutput(),
      'admin tail': adminTail(),
      'user tail': userTail(),
      "admin's Requests page": pages[0],
      "user's Requests page": pages[1],
    };
    for (const [where, text] of Object.entries(logs)) {
      // The requests are there, with what was pasted shown redacted.
      expect(text, where).toContain('/v2/livedocs/fk_[redacted]');
      for (const secret of secrets) expect(text, where).not.toContain(secret);
      // Not even its last 20 characters (a token's signature), however it was encoded.
      for (const secret of secrets) expect(text, where).not.toContain(secret.slice(-20));
    }
    expect(logs['server log']).toContain('note=fk_[redacted]&other=[redacted-token]');
  }, 90_000);
});

/** Text as a reader who decodes it would see it (percent-escapes undone, twice-encoded too). */
const decodedText = (text: string) => unescape(unescape(unescape(text)));
/** Every character of the secret percent-encoded, as a URL may carry it. */
const encodeAll = (secret: string) =>
  [...secret].map((ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** Two of the secret's characters percent-encoded, the rest as they are. */
const partlyEncoded = (secret: string) =>
  [...secret].map((ch, i) => (i === 8 || i === 20 ? `%${ch.charCodeAt(0).toString(16)}` : ch)).join('');

describe('issue 47: encoded keys and keys pasted into free text', () => {
  it('a fully, partly or twice percent-encoded key in a URL reaches no log, even decoded', async () => {
    const tail = startTail({});
    await waitOpen([tail]);
    const auth = { authorization: `Bearer ${bob.key}` };
    const partly = partlyEncoded(bob.key);
    const paths = [
      `/v2/livedocs/${encodeAll(bob.key)}`,
      `/v2/livedocs/${partly}/resources`,
      `/v2/livedocs?note=${encodeURIComponent(encodeAll(bob.key))}`,
      `/v2/livedocs?q=x%2F${partly}%2Fy`,
      '/v2/encoded-done',
    ];
    for (const path of paths) await p.fetch(path, { headers: auth });
    await until(() => tail().includes('/v2/encoded-done'), 10_000, 'the last request in the tail');
    await until(() => p.serverOutput().includes('/v2/encoded-done'), 5_000, 'the server log');
    for (const [where, text] of Object.entries({ 'server log': p.serverOutput(), 'admin tail': tail() })) {
      expect(decodedText(text), where).not.toContain(bob.key.slice(-20));
      expect(text, where).not.toContain(encodeAll(bob.key).slice(-30));
    }
    // What was pasted is shown decoded and redacted.
    expect(p.serverOutput()).toContain('/v2/livedocs/fk_[redacted]');
  }, 60_000);

  it('a key pasted into a key name (plain or partly encoded) or a user name is kept neither in the audit trail nor in a log', async () => {
    const victim = bob.key;
    const made = await (
      await p.fetch('/auth/api-keys', {
        method: 'POST',
        headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `oops ${victim} pasted` }),
      })
    ).json();
    expect(made.id).toMatch(/^key_/);
    const partly = (await (
      await p.fetch('/auth/api-keys', {
        method: 'POST',
        headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `again ${partlyEncoded(victim)}` }),
      })
    ).json()) as { id: string };
    expect(partly.id).toMatch(/^key_/);
    ok(await p.cli(['serve', 'users', 'create', `u.${victim}`, '--data-dir', p.dataDir]));
    const entries = await (
      await p.fetch(`/admin/audit?limit=500`, { headers: { 'x-api-key': p.boot.api_key } })
    ).text();
    const mine = await (
      await p.fetch(`/auth/audit?limit=500`, { headers: { authorization: `Bearer ${bob.token}` } })
    ).text();
    for (const [where, text] of Object.entries({
      'admin audit': entries,
      'own audit': mine,
      'server log': p.serverOutput(),
    })) {
      expect(decodedText(text), where).not.toContain(victim.slice(-20));
    }
    // The entries are there, with the name's other words kept.
    expect(entries).toContain('oops fk_[redacted] pasted');
    expect(entries).toContain('again fk_[redacted]');
  }, 60_000);
});
