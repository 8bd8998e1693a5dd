import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { HttpRequestFn } from '../../mcp/index.js';

/** Who called /mcp: where from, and the headers that say so (a trusted proxy's forwarded ones). */
export interface Caller {
  remoteAddress: string;
  headers: Record<string, string>;
}

const CARRIED = ['host', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'];

export function callerOf(raw: { socket: { remoteAddress?: string }; headers: IncomingHttpHeaders }): Caller {
  const headers: Record<string, string> = {};
  for (const name of CARRIED) {
    const v = raw.headers[name];
    if (typeof v === 'string') headers[name] = v;
  }
  return { remoteAddress: raw.socket.remoteAddress ?? '127.0.0.1', headers };
}

/**
 * The MCP tools' HTTP calls handed to this server's own routes in process (Fastify's inject), as if
 * the caller had made them: the same authentication, rate limits, credits, metering, request log
 * and audit, from the caller's address (so --trust-proxy reads the same forwarded headers), with no
 * socket and whatever address the server listens on.
 */
export function inProcessRequest(app: FastifyInstance, caller: Caller): HttpRequestFn {
  return async (url, options) => {
    const u = typeof url === 'string' ? new URL(url) : url;
    const res = await app.inject({
      method: options.method as 'GET',
      url: u.pathname + u.search,
      headers: { ...caller.headers, ...options.headers },
      ...(options.body !== undefined ? { payload: options.body } : {}),
      remoteAddress: caller.remoteAddress,
      payloadAsStream: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { statusCode: res.statusCode, headers: res.headers as IncomingHttpHeaders, body: res.stream() };
  };
}
