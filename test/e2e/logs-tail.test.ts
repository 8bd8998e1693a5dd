import os from 'node:os';
import { execa, type ResultPromise } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ok, okJson, startPlatform, type Platform } from '../helpers/platform.js';
import { runOnPty } from '../helpers/pty.js';

/**
 * Issue 30: `facet logs tail` follows requests as they are answered, over SSE, filtered on the
 * server; no secret ever appears in a line.
 */
let p: Platform;
let bob: { id: string; key: string; keyId: string; token: string };
const tails: ResultPromise[] = [];
beforeAll(async () => {
  p = await startPlatform();
  const id = ok(await p.cli(['serve', 'users', 'create', 'tailbob', '--data-dir', p.dataDir])).stdout.trim();
  const token = ok(await p.cli(['serve', 'token', 'tailbob', '--data-dir', p.dataDir])).stdout.trim();
  const key = await (
    await p.fetch('/auth/api-keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'tail' }),
    })
  ).json();
  bob = { id, key: key.key, keyId: key.id, token };
});
afterEach(async () => {
  for (const t of tails.splice(0)) {
    t.kill('SIGTERM');
    await t.catch(() => undefined);
  }
});
afterAll(() => p?.cleanup());

/** A `facet logs tail` process in the background, and what it has printed so far. */
function startTail(args: string[], env: Record<string, string> = {}) {
  const proc = execa('node', [BIN, 'logs', 'tail', ...args], {
    env: {
      FACET_CONFIG_DIR: p.configDir,
      NO_COLOR: '1',
      CI: 'true',
      FACET_API_KEY: undefined,
      FACET_ACCESS_TOKEN: undefined,
      ...env,
    },
    extendEnv: true,
    reject: false,
    buffer: false,
  });
  tails.push(proc);
  let out = '';
  let err = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return { proc, out: () => out, err: () => err };
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Requests a probe until the tail shows it: from then on the tail is open and every line is ours. */
async function waitOpen(
  tail: { out: () => string; err: () => string },
  headers: Record<string, string>,
): Promise<void> {
  for (let i = 0; i < 100; i++) {
    await p.fetch(`/v2/tail-probe-${i}`, { headers: { ...headers, 'x-request-id': `probe-${i}` } });
    try {
      await until(() => tail.out().includes(`probe-${i}`), 200, 'the probe');
      return;
    } catch {
      // not open yet
    }
  }
  throw new Error(`the tail never opened:\nstdout: ${tail.out()}\nstderr: ${tail.err()}`);
}

describe('facet logs tail', () => {
  it('--status 4xx shows exactly the 4xx requests, within a few seconds, with no secret in them', async () => {
    const tail = startTail(['--status', '4xx']);
    await waitOpen(tail, {});
    const before = tail.out();
    const cookie = 'facet_session=sess-not-a-real-session-value-12345';
    const made: Array<[string, RequestInit & { headers: Record<string, string> }, number]> = [
      ['/healthz', { headers: {} }, 200],
      ['/auth/whoami', { headers: { 'x-api-key': p.boot.api_key } }, 200],
      ['/v2/livedocs', { headers: { authorization: 'Bearer fk_wrongwrongwrongwrongwrongwrongwrongwrong' } }, 401],
      ['/v2/no-such-thing', { headers: { authorization: `Bearer ${p.boot.api_key}` } }, 404],
      ['/admin/api-key-usage', { headers: { 'x-api-key': p.boot.api_key, 'x-admin-key': p.boot.admin_key } }, 200],
      ['/admin/api-key-usage', { headers: { 'x-api-key': p.boot.api_key, 'x-admin-key': 'fadm_wrong' } }, 403],
      ['/auth/api-keys', { headers: { authorization: `Bearer ${p.boot.access_token}` } }, 200],
      ['/auth/api-keys', { headers: { cookie } }, 401],
      ['/admin/audit', { headers: { 'x-api-key': bob.key } }, 403],
      [`/v2/tasks?token=${p.boot.access_token}`, { headers: { authorization: `Bearer ${bob.key}` } }, 404],
    ];
    const started = Date.now();
    for (const [i, [path, init, status]] of made.entries()) {
      const r = await p.fetch(path, { ...init, headers: { ...init.headers, 'x-request-id': `tail-${i}` } });
      expect(r.status, path).toBe(status);
    }
    const wanted = made.flatMap(([, , status], i) => (status >= 400 && status < 500 ? [`tail-${i}`] : []));
    await until(() => wanted.every((id) => tail.out().includes(id)), 5_000, 'the 4xx lines');
    expect(Date.now() - started).toBeLessThan(5_000);
    await new Promise((r) => setTimeout(r, 300));
    const lines = tail.out().slice(before.length).trim().split('\n');
    expect(lines.map((l) => /\b(tail-\d+)\b/.exec(l)?.[1])).toEqual(wanted);
    for (const line of lines)
      expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} {2}(GET|POST) +4\d\d {2}\/\S+ {2}[\d.]+ ms {2}\S+ {2}tail-\d+$/);
    // The key the request was made with is named by id; the frozen/wrong ones by nothing.
    expect(lines.find((l) => l.includes('tail-3'))).toContain(`${await whoamiKeyId()}`);
    for (const secret of [
      p.boot.api_key,
      p.boot.admin_key,
      p.boot.access_token,
      bob.key,
      'sess-not-a-real-session-value-12345',
      'fadm_wrong',
    ]) {
      expect(tail.out()).not.toContain(secret);
      expect(tail.err()).not.toContain(secret);
    }
  });

  it('--json writes one JSON object a line; filters on path, method and key', async () => {
    const tail = startTail(['--json', '--path', '/v2/*', '--method', 'get', '--key', bob.keyId]);
    await waitOpen(tail, { authorization: `Bearer ${bob.key}` });
    const before = tail.out().length;
    await p.fetch('/v2/json-a', { headers: { authorization: `Bearer ${bob.key}`, 'x-request-id': 'json-a' } });
    await p.fetch('/v2/json-b', {
      method: 'DELETE',
      headers: { authorization: `Bearer ${bob.key}`, 'x-request-id': 'json-b' },
    });
    await p.fetch('/v2/json-c', { headers: { authorization: `Bearer ${p.boot.api_key}`, 'x-request-id': 'json-c' } });
    await p.fetch('/auth/whoami', { headers: { 'x-api-key': bob.key, 'x-request-id': 'json-d' } });
    await p.fetch('/v2/json-e', { headers: { authorization: `Bearer ${bob.key}`, 'x-request-id': 'json-e' } });
    await until(() => tail.out().includes('json-e'), 5_000, 'the last line');
    const lines = tail
      .out()
      .slice(before)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.request_id)).toEqual(['json-a', 'json-e']);
    expect(lines[0]).toEqual({
      time: expect.any(String),
      method: 'GET',
      path: '/v2/json-a',
      status: 404,
      duration_ms: expect.any(Number),
      key_id: bob.keyId,
      user_id: bob.id,
      request_id: 'json-a',
      // The instance's name, as --instance-id (default host:port) gives it to audit entries and metrics.
      instance: `${os.hostname()}:${new URL(p.url).port}`,
    });
  });

  it("a user's tail shows only the requests made with their own keys", async () => {
    const tail = startTail(['--json'], { FACET_API_KEY: bob.key });
    await waitOpen(tail, { authorization: `Bearer ${bob.key}` });
    await until(() => tail.err().includes('your own keys'), 2_000, 'the note on stderr');
    const before = tail.out().length;
    await p.fetch('/v2/own-admin', {
      headers: { authorization: `Bearer ${p.boot.api_key}`, 'x-request-id': 'own-admin' },
    });
    await p.fetch('/v2/own-anon', { headers: { 'x-request-id': 'own-anon' } });
    await p.fetch('/auth/whoami', { headers: { authorization: `Bearer ${bob.token}`, 'x-request-id': 'own-token' } });
    await p.fetch('/v2/own-bob', { headers: { authorization: `Bearer ${bob.key}`, 'x-request-id': 'own-bob' } });
    await until(() => tail.out().includes('own-bob'), 5_000, "bob's line");
    const ids = tail
      .out()
      .slice(before)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).request_id);
    expect(ids).toEqual(['own-bob']);
    // The server refuses a non-admin the whole log in the surface's shape.
    const refused = await p.fetch('/admin/logs/tail', { headers: { 'x-api-key': bob.key } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('on an 80-column terminal: says what it follows at once, fits each line, and ends with 130 at Ctrl-C', async () => {
    const run = runOnPty(['logs', 'tail'], { configDir: p.configDir, cols: 80 });
    await run.waitFor(/following everyone's requests to http:\/\/127\.0\.0\.1:\d+ .*Ctrl-C/);
    const long = `/v2/a-rather-long-path/${'segment/'.repeat(12)}end`;
    await p.fetch(long, { headers: { 'x-request-id': 'pty-long-path-request' } });
    await run.waitFor(/4\d\d {2}\/v2\/a-rather-long-path\/\S*…/);
    const line = run
      .output()
      .split(/\r?\n/)
      .find((l) => l.includes('/v2/a-rather-long-path/'))!;
    expect(line.trimEnd().length).toBeLessThanOrEqual(80);
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} {2}GET +4\d\d/);
    run.type('\x03');
    expect(await run.exited).toBe(130);
  });

  it('refuses a malformed filter before it opens, and ends cleanly when the server drains', async () => {
    const bad = await p.cli(['logs', 'tail', '--status', '4x']);
    expect(bad.exitCode).toBe(2);
    expect((await p.fetch('/admin/logs/tail?status=99', { headers: { 'x-api-key': p.boot.api_key } })).status).toBe(
      422,
    );
    const tail = startTail(['--status', '5xx']);
    // The tail says on stderr once the server has taken it.
    await until(() => /following everyone's requests/.test(tail.err()), 20_000, 'the tail to open');
    await p.stop();
    const result = await tail.proc;
    expect(result.exitCode, tail.err()).toBe(0);
    expect(tail.err()).toMatch(/the server ended the log stream/);
  });
});

async function whoamiKeyId(): Promise<string> {
  return okJson(await p.cli(['whoami', '--json'])).api_key.id;
}
