import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startPlatform, type Platform } from '../helpers/platform.js';
import { connect, makeUser, textOf } from '../helpers/mcp-clients.js';

/**
 * Issue 40: /mcp on `facet serve`. Authentication is a /v2 API key as a bearer token, checked on
 * every request; sessions follow the MCP specification (Mcp-Session-Id, DELETE ends one) and are
 * bounded per key and by idleness; the tools' calls are metered and logged as the key's own.
 */
let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
}, 60_000);
afterAll(() => p?.cleanup());

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};
const ACCEPT = 'application/json, text/event-stream';
const post = (body: unknown, headers: Record<string, string>) =>
  p.fetch('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: JSON.stringify(body),
  });
/** A raw initialize; the session id the server gave. */
async function openSession(key: string): Promise<string> {
  const res = await post(INIT, { authorization: `Bearer ${key}` });
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get('mcp-session-id')!;
}
const ping = (key: string, session: string) =>
  post({ jsonrpc: '2.0', id: 2, method: 'ping' }, { authorization: `Bearer ${key}`, 'mcp-session-id': session });

describe('/mcp over Streamable HTTP', () => {
  it('refuses a request without a key (401) or with a bad one, as JSON-RPC errors with the v2 fields (issue 47)', async () => {
    const none = await post(INIT, {});
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ jsonrpc: '2.0', error: { data: { code: 'MISSING_AUTHORIZATION' } } });
    const bad = await post(INIT, { authorization: 'Bearer fk_not_a_key' });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ jsonrpc: '2.0', error: { data: { code: 'INVALID_API_KEY' } } });
    // Without a session, only an initialize request is taken.
    const orphan = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { authorization: `Bearer ${p.boot.api_key}` },
    );
    expect(orphan.status).toBe(400);
    expect(await orphan.json()).toMatchObject({ error: { code: -32600, data: { code: 'MCP_SESSION_REQUIRED' } } });
  });

  it('a frozen key is refused at once, in an open session too; a deleted key is refused', async () => {
    const user = await makeUser(p, 'icy');
    const c = await connect(p, 'http', user.key);
    expect((await c.client.listTools()).tools.length).toBe(19);
    ok(await p.cli(['admin', 'keys', 'freeze', user.keyId, '--json']));
    expect(await c.client.listTools().catch((e) => e)).toMatchObject({
      code: 403,
      message: expect.stringMatching(/KEY_FROZEN/),
    });
    expect(await connect(p, 'http', user.key).catch((e) => e)).toMatchObject({
      code: 403,
      message: expect.stringMatching(/KEY_FROZEN/),
    });
    ok(await p.cli(['admin', 'keys', 'unfreeze', user.keyId, '--json']));
    expect((await c.client.listTools()).tools.length).toBe(19);
    ok(await p.cli(['admin', 'keys', 'delete', user.keyId, '--yes']));
    expect(await c.client.listTools().catch((e) => e)).toMatchObject({
      code: 401,
      message: expect.stringMatching(/INVALID_API_KEY/),
    });
    await c.close().catch(() => undefined);
  });

  it('sessions: DELETE ends one, another key cannot use it, each key holds at most 10', async () => {
    const a = await makeUser(p, 'sess-a');
    const b = await makeUser(p, 'sess-b');
    const first = await openSession(a.key);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect((await ping(a.key, first)).status).toBe(200);
    const stolen = await ping(b.key, first);
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toMatchObject({ error: { code: -32001, data: { code: 'MCP_SESSION_NOT_FOUND' } } });

    const del = await p.fetch('/mcp', {
      method: 'DELETE',
      headers: { authorization: `Bearer ${a.key}`, 'mcp-session-id': first },
    });
    expect(del.status).toBe(200);
    expect((await ping(a.key, first)).status).toBe(404);

    // Ten sessions fit; the eleventh ends the least recently used one.
    const ten = [];
    for (let i = 0; i < 10; i++) ten.push(await openSession(a.key));
    expect((await ping(a.key, ten[0])).status).toBe(200); // ten[1] is now the least recently used
    const eleventh = await openSession(a.key);
    expect((await ping(a.key, eleventh)).status).toBe(200);
    expect((await ping(a.key, ten[1])).status).toBe(404);
    expect((await ping(a.key, ten[0])).status).toBe(200);
    // The other key's sessions are its own count.
    expect((await ping(b.key, await openSession(b.key))).status).toBe(200);
  });

  it("the tools' calls are the key's own: metered under it, in the request log under it", async () => {
    const user = await makeUser(p, 'metered');
    const adminHeaders = { 'x-api-key': p.boot.api_key };
    // The live request log of that key, opened before the calls.
    const stop = new AbortController();
    const tail = await p.fetch(`/admin/logs/tail?key=${user.keyId}`, { headers: adminHeaders, signal: stop.signal });
    expect(tail.status).toBe(200);
    const lines: any[] = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      let buf = '';
      for await (const chunk of tail.body as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        for (let at = buf.indexOf('\n\n'); at >= 0; at = buf.indexOf('\n\n')) {
          const frame = buf.slice(0, at);
          buf = buf.slice(at + 2);
          const data = /^event: request\ndata: (.*)$/m.exec(frame);
          if (data) lines.push(JSON.parse(data[1]));
        }
      }
    })().catch(() => undefined);

    const c = await connect(p, 'http', user.key);
    try {
      const doc = (await c.client.callTool({
        name: 'livedocs_create',
        arguments: { name: 'Metered' },
      })) as CallToolResult;
      const id = (doc.structuredContent as any).id;
      await c.client.callTool({
        name: 'livedocs_add_text',
        arguments: { livedoc_id: id, title: 'Tea', content: 'Green tea is brewed at 80 degrees Celsius.' },
      });
      const answer = (await c.client.callTool({
        name: 'livedocs_ask',
        arguments: { livedoc_id: id, question: 'At what temperature is green tea brewed?' },
      })) as CallToolResult;
      expect(answer.isError, textOf(answer)).toBeFalsy();
      expect((answer.structuredContent as any).answer).toMatch(/80 degrees/);

      const usage = await (
        await p.fetch(`/admin/api-key-usage?api_key_id=${user.keyId}`, {
          headers: { ...adminHeaders, 'x-admin-key': p.boot.admin_key },
        })
      ).json();
      expect(usage.keys).toHaveLength(1);
      expect(usage.keys[0]).toMatchObject({ api_key_id: user.keyId, user_id: user.id });
      expect(usage.keys[0].calls).toBeGreaterThanOrEqual(1);
      expect(usage.keys[0].input_tokens).toBeGreaterThan(0);
      // The same figures the key's owner reads for themself (GET /auth/usage), and usage_summary gives.
      const own = await (await p.fetch('/auth/usage', { headers: { 'x-api-key': user.key } })).json();
      expect(own.keys).toEqual(usage.keys);
      expect((await p.fetch('/auth/usage', { headers: adminHeaders }).then((r) => r.json())).keys).not.toContainEqual(
        expect.objectContaining({ api_key_id: user.keyId }),
      );
      const summary = (await c.client.callTool({ name: 'usage_summary', arguments: {} })) as CallToolResult;
      expect((summary.structuredContent as any).model_usage.this_key).toMatchObject({
        calls: usage.keys[0].calls,
        cost_usd: usage.keys[0].cost_usd,
      });

      const end = Date.now() + 10_000;
      while (Date.now() < end && !lines.some((l) => l.path.startsWith('/v2/conversations/stream/'))) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const paths = lines.map((l) => `${l.method} ${l.path}`);
      expect(paths).toContain('POST /v2/livedocs');
      expect(paths).toContain(`POST /v2/livedocs/${id}/resources/doc`);
      expect(paths).toContain('POST /v2/conversations');
      expect(paths.some((x) => x.startsWith('POST /mcp'))).toBe(true);
      for (const l of lines) expect(l).toMatchObject({ key_id: user.keyId, user_id: user.id });
    } finally {
      stop.abort();
      await reading;
      await c.close();
    }
  });
});

describe('facet serve options for /mcp', () => {
  it('--mcp-idle-seconds ends an idle session; --no-mcp serves no /mcp', async () => {
    const short = await startPlatform({ args: ['--mcp-idle-seconds', '1'] });
    try {
      const id = await (async () => {
        const res = await fetch(`${short.url}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: ACCEPT,
            authorization: `Bearer ${short.boot.api_key}`,
          },
          body: JSON.stringify(INIT),
        });
        await res.text();
        return res.headers.get('mcp-session-id')!;
      })();
      const pingShort = () =>
        fetch(`${short.url}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: ACCEPT,
            authorization: `Bearer ${short.boot.api_key}`,
            'mcp-session-id': id,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
        });
      expect((await pingShort()).status).toBe(200);
      // Left alone past its second (the sweep looks every half of it), the session is gone.
      await new Promise((r) => setTimeout(r, 2500));
      expect((await pingShort()).status).toBe(404);
    } finally {
      short.cleanup();
    }
    const off = await startPlatform({ args: ['--no-mcp'] });
    try {
      const res = await fetch(`${off.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${off.boot.api_key}` },
        body: JSON.stringify(INIT),
      });
      expect(res.status).toBe(404);
      expect(off.serverOutput()).not.toMatch(/mcp:/);
    } finally {
      off.cleanup();
    }
  }, 60_000);
});
