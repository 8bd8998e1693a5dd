import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';
import { connect, textOf } from '../helpers/mcp-clients.js';

/**
 * Issue 47: /mcp as the MCP specification and its clients expect. Origin and Host are checked
 * against DNS rebinding; DELETE ends a session whatever content type it carries; refusals are
 * JSON-RPC errors, a missing or wrong key with `WWW-Authenticate: Bearer`; arguments a tool's schema
 * refuses come back as README says (`CODE (HTTP status): message`, `_meta["facet/error"]`).
 * Both the MCP SDK's own client and a raw HTTP client, against a real server on 127.0.0.1.
 */
let p: Platform;
beforeAll(async () => {
  p = await startPlatform({
    args: ['--public-url', 'https://facet.example', '--mcp-allowed-origin', 'https://app.example:8443'],
  });
}, 60_000);
afterAll(() => p?.cleanup());

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** A raw HTTP request (node:http, so Host and Origin go as given), its status, headers and body. */
function raw(
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const url = new URL(`${p.url}/mcp`);
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  // node:http sends a DELETE's body unframed unless told its length.
  const length: Record<string, string> =
    payload === undefined ? {} : { 'content-length': String(Buffer.byteLength(payload)) };
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        headers: { accept: 'application/json, text/event-stream', ...length, ...headers },
        timeout: 15_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.end(payload);
  });
}
const key = () => `Bearer ${p.boot.api_key}`;
const json = { 'content-type': 'application/json' };
/** The JSON-RPC error object of a refusal: its data holds the v2 fields. */
function rpcError(text: string): { code: number; message: string; data: { status: number; code: string } } {
  const body = JSON.parse(text);
  expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
  return body.error;
}
async function open(headers: Record<string, string> = {}): Promise<string> {
  const r = await raw('POST', { ...json, authorization: key(), ...headers }, INIT);
  expect(r.status, r.text).toBe(200);
  return r.headers['mcp-session-id'] as string;
}
const ping = (session: string) =>
  raw('POST', { ...json, authorization: key(), 'mcp-session-id': session }, { jsonrpc: '2.0', id: 2, method: 'ping' });

describe('Origin and Host (DNS rebinding)', () => {
  it('local pages, the public URL and an allowed origin are answered; no Origin is a non-browser client', async () => {
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1:3000',
      'http://[::1]:8080',
      'https://facet.example',
      'https://app.example:8443',
    ])
      expect(await open({ origin }), origin).toMatch(/^[0-9a-f-]{36}$/);
    expect(await open()).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('any other origin is 403 in a JSON-RPC error, before the key is even looked at', async () => {
    for (const origin of ['http://evil.example', 'https://app.example', 'null', 'http://localhost.evil.example']) {
      const r = await raw('POST', { ...json, authorization: key(), origin }, INIT);
      expect(r.status, origin).toBe(403);
      const e = rpcError(r.text);
      expect(e.data).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      expect(e.message).toMatch(/^FORBIDDEN \(HTTP 403\): \/mcp does not answer pages of /);
      expect(e.message).toContain('--mcp-allowed-origin');
      expect(r.headers['mcp-session-id']).toBeUndefined();
    }
    // No key at all: the origin is refused first.
    expect((await raw('POST', { ...json, origin: 'http://evil.example' }, INIT)).status).toBe(403);
  });

  it('a rebound name in Host is 421, whatever the Origin', async () => {
    const port = new URL(p.url).port;
    const r = await raw('POST', { ...json, authorization: key(), host: `evil.example:${port}` }, INIT);
    expect(r.status).toBe(421);
    expect(rpcError(r.text).data).toMatchObject({ status: 421, code: 'MISDIRECTED_REQUEST' });
    // The public URL's name is the server's own.
    expect((await raw('POST', { ...json, authorization: key(), host: 'facet.example' }, INIT)).status).toBe(200);
  });

  it('the SDK client sent from a foreign page is refused with the reason', async () => {
    const client = new Client({ name: 'foreign', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`${p.url}/mcp`), {
      requestInit: { headers: { authorization: key(), origin: 'http://evil.example' } },
    });
    const err = await client.connect(transport).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 403, message: expect.stringMatching(/FORBIDDEN \(HTTP 403\)/) });
  });

  it('--mcp-allowed-origin takes an origin or *, and refuses anything else at start', async () => {
    const any = await startPlatform({ args: ['--mcp-allowed-origin', '*'] });
    try {
      const r = await fetch(`${any.url}/mcp`, {
        method: 'POST',
        headers: {
          ...json,
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${any.boot.api_key}`,
          origin: 'http://anywhere.example',
        },
        body: JSON.stringify(INIT),
      });
      expect(r.status).toBe(200);
      await r.text();
    } finally {
      any.cleanup();
    }
    const bad = await p.cli(['serve', '--memory', '--port', '0', '--mcp-allowed-origin', 'https://app.example/path']);
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toMatch(/--mcp-allowed-origin https:\/\/app\.example\/path: an origin is http\(s\):\/\/host/);
  }, 60_000);
});

describe('DELETE ends a session whatever its content type', () => {
  it('Content-Type: application/json and no body (as the Python SDK sends it), or a body, or none', async () => {
    for (const headers of [
      json,
      { ...json, 'content-length': '0' },
      { 'content-type': 'text/plain' },
      {} as Record<string, string>,
    ]) {
      const session = await open();
      expect((await ping(session)).status).toBe(200);
      const del = await raw('DELETE', { ...headers, authorization: key(), 'mcp-session-id': session });
      expect(del.status, JSON.stringify(headers) + del.text).toBe(200);
      expect((await ping(session)).status).toBe(404);
    }
    const withBody = await open();
    const del = await raw('DELETE', { ...json, authorization: key(), 'mcp-session-id': withBody }, '{"ignored":');
    expect(del.status, del.text).toBe(200);
    expect((await ping(withBody)).status).toBe(404);
  });
});

describe('credentials refused as MCP clients read them', () => {
  it('no key: 401, WWW-Authenticate: Bearer, a JSON-RPC error naming the code', async () => {
    const r = await raw('POST', json, INIT);
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toBe('Bearer realm="facet"');
    const e = rpcError(r.text);
    expect(e.code).toBe(-32000);
    expect(e.message).toMatch(/^MISSING_AUTHORIZATION \(HTTP 401\): /);
    expect(e.data).toMatchObject({ status: 401, code: 'MISSING_AUTHORIZATION', request_id: expect.any(String) });
  });

  it('a wrong key: 401 with error="invalid_token"; an unknown session: 404 with -32001', async () => {
    const r = await raw('POST', { ...json, authorization: 'Bearer fk_not_a_key' }, INIT);
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toMatch(/^Bearer realm="facet", error="invalid_token", error_description="/);
    expect(rpcError(r.text).data.code).toBe('INVALID_API_KEY');
    const gone = await ping('00000000-0000-0000-0000-000000000000');
    expect(gone.status).toBe(404);
    expect(rpcError(gone.text)).toMatchObject({ code: -32001, data: { code: 'MCP_SESSION_NOT_FOUND' } });
  });

  it('the SDK client without a key or with a wrong one: 401 with the code in its message', async () => {
    for (const authorization of [undefined, 'Bearer fk_not_a_key']) {
      const client = new Client({ name: 'keyless', version: '1' });
      const transport = new StreamableHTTPClientTransport(new URL(`${p.url}/mcp`), {
        requestInit: { headers: authorization ? { authorization } : {} },
      });
      const err = await client.connect(transport).catch((e: unknown) => e);
      expect(err).toMatchObject({
        code: 401,
        message: expect.stringMatching(authorization ? /INVALID_API_KEY \(HTTP 401\)/ : /MISSING_AUTHORIZATION/),
      });
    }
  });
});

describe('tool arguments the input schema refuses', () => {
  it("come back as README promises: CODE (HTTP status): message and _meta['facet/error'], naming the field", async () => {
    const c = await connect(p, 'http', p.boot.api_key);
    try {
      const bad = (await c.client.callTool({
        name: 'livedocs_search',
        arguments: { livedoc_id: 'ld_x', query: 'tea', top_k: 'many' },
      })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/^INVALID_PARAMETER \(HTTP 400\): livedocs_search: top_k: /);
      expect(textOf(bad)).not.toMatch(/MCP error|-32602/);
      expect(bad._meta?.['facet/error']).toMatchObject({
        status: 400,
        code: 'INVALID_PARAMETER',
        fields: [{ field: 'top_k', message: expect.any(String) }],
      });

      const missing = (await c.client.callTool({
        name: 'livedocs_search',
        arguments: { query: 'tea' },
      })) as CallToolResult;
      expect(textOf(missing)).toBe('MISSING_PARAMETER (HTTP 400): livedocs_search: livedoc_id: required');
      expect(missing._meta?.['facet/error']).toMatchObject({ code: 'MISSING_PARAMETER', status: 400 });

      const unknown = (await c.client.callTool({ name: 'no_such_tool', arguments: {} })) as CallToolResult;
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toMatch(/^INVALID_PARAMETER \(HTTP 400\): no_such_tool: name: no tool no_such_tool/);

      // Good arguments still run (and reach the platform: its own 404 comes back the same way).
      const notThere = (await c.client.callTool({
        name: 'livedocs_search',
        arguments: { livedoc_id: 'ld_missing', query: 'tea' },
      })) as CallToolResult;
      expect(textOf(notThere)).toMatch(/^LIVEDOC_NOT_FOUND \(HTTP 404\): /);
    } finally {
      await c.close();
    }
  });

  it('the same over stdio (facet mcp)', async () => {
    const c = await connect(p, 'stdio', p.boot.api_key);
    try {
      const bad = (await c.client.callTool({ name: 'web_extract', arguments: { url: 'not a url' } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/^INVALID_PARAMETER \(HTTP 400\): web_extract: url: /);
    } finally {
      await c.close();
    }
  }, 30_000);
});
