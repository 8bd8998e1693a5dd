import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { MCP_ANY_ORIGIN } from '../../contract/mcp.js';
import { HttpError } from '../errors.js';
import { assertAnsweringHost } from '../http/own-host.js';

/** A page of this machine: localhost (and *.localhost), 127.0.0.0/8 or [::1], on any port. */
function isLocalOrigin(origin: URL): boolean {
  const host = origin.hostname;
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/** An `--mcp-allowed-origin` value as browsers send it (scheme://host[:port]), or `*`; throws if neither. */
export function normalizeOrigin(value: string): string {
  if (value === MCP_ANY_ORIGIN) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--mcp-allowed-origin ${value}: not an origin (scheme://host[:port], or * for any)`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname.length > 1 || url.search || url.hash)
    throw new Error(`--mcp-allowed-origin ${value}: an origin is http(s)://host[:port], with no path`);
  return url.origin;
}

/**
 * The Streamable HTTP transport's guard against DNS rebinding: a browser page may reach /mcp only
 * from a local origin, the public URL's, or one allowed by `--mcp-allowed-origin` (403 otherwise);
 * a request without Origin is no browser's. Host must be one of the server's own names (421), as
 * for the console. The key every request needs stays the main guard; these keep pages out before it.
 */
export function assertMcpOrigin(request: FastifyRequest, linkBase: string, allowed: ReadonlySet<string>): void {
  assertAnsweringHost(request, linkBase, '/mcp', 'connect to it');
  const given = request.headers.origin;
  if (given === undefined || allowed.has(MCP_ANY_ORIGIN)) return;
  let origin: URL | undefined;
  try {
    origin = given === 'null' ? undefined : new URL(given);
  } catch {
    origin = undefined;
  }
  if (origin && (isLocalOrigin(origin) || allowed.has(origin.origin) || origin.origin === new URL(linkBase).origin))
    return;
  throw new HttpError(
    'FORBIDDEN',
    `/mcp does not answer pages of ${given === 'null' ? 'an opaque origin' : given}: only local pages and ${new URL(linkBase).origin}; facet serve --mcp-allowed-origin ORIGIN allows another`,
    { status: 403 },
  );
}
