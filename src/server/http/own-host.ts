import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** A host name that cannot be a DNS-rebinding name: an IP literal, or localhost (resolved locally). */
export const fixedName = (hostname: string) =>
  isIP(hostname.replace(/^\[|\]$/g, '')) !== 0 || hostname === 'localhost' || hostname.endsWith('.localhost');

/**
 * A surface that browsers must not reach through a rebound name answers only under its own names:
 * the link base (`--public-url`, or the listen address), an IP literal or localhost at the port this
 * connection reached, or a name a trusted proxy forwarded. Anything else is 421 (`who` answers at …).
 */
export function assertAnsweringHost(request: FastifyRequest, linkBase: string, who: string, verb: string): void {
  const raw = one(request.headers.host) ?? '';
  // request.host is X-Forwarded-Host only when the socket is a trusted proxy (--trust-proxy).
  if (request.headers['x-forwarded-host'] !== undefined && request.host !== raw) return;
  let url: URL | undefined;
  try {
    url = raw === '' ? undefined : new URL(`http://${raw}`);
  } catch {
    url = undefined;
  }
  if (
    url &&
    (url.host === new URL(linkBase).host ||
      (fixedName(url.hostname) && Number(url.port || 80) === request.socket.localPort))
  )
    return;
  throw new HttpError(
    'MISDIRECTED_REQUEST',
    `${who} answers at ${new URL(linkBase).host}, not at ${raw === '' ? 'a request without a Host' : raw}: ${verb} by that address (behind a proxy, set --public-url)`,
    { status: 421 },
  );
}
