import type { FastifyReply, FastifyRequest } from 'fastify';
import { serialize } from 'cookie';
import { HttpError } from '../errors.js';
import { sign, signatureMatches } from '../auth/signed-token.js';
import { SESSION_COOKIE } from '../auth/authenticate.js';
import { assertAnsweringHost } from '../http/own-host.js';

const policy = (script: string) =>
  `default-src 'self'; script-src ${script}; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'`;

/**
 * The console's page policy: its own stylesheet and pictures, no script at all, forms only to
 * itself, never framed. The viewers it links to keep their own (stricter) policy.
 */
export const CONSOLE_CSP = policy("'none'");

/**
 * A page that declares a script file (the live request log) may load script files of its own
 * origin and nothing else: no inline script, no eval, no other host. Every other page keeps 'none'.
 */
export const CONSOLE_CSP_WITH_SCRIPT = policy("'self'");

/** Headers every console answer carries, pages and refusals alike. */
export function secureHeaders(reply: FastifyReply): FastifyReply {
  return (
    reply
      .header('content-security-policy', CONSOLE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with a form post,
      // and the origin check would refuse the console's own forms. Nothing leaves the origin anyway.
      .header('referrer-policy', 'same-origin')
      .header('cross-origin-opener-policy', 'same-origin')
      .header('cross-origin-resource-policy', 'same-origin')
      .header('permissions-policy', 'camera=(), microphone=(), geolocation=()')
      .header('cache-control', 'private, no-store')
  );
}

/** The session cookie as the console sets it: the API's session, but Strict, and Secure over https. */
export function sessionCookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  return serialize(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    maxAge: maxAgeSeconds,
    secure: request.protocol === 'https',
  });
}

/**
 * The synchronizer token of a session's forms: a signature of the session cookie's value, so it
 * needs no storage, differs per session and is worthless once the session has ended.
 */
export function csrfToken(secret: Uint8Array, session: string): string {
  return sign(secret, 'console-csrf', session);
}

export function csrfTokenMatches(secret: Uint8Array, session: string, given: unknown): boolean {
  return typeof given === 'string' && given.length > 0 && signatureMatches(secret, 'console-csrf', session, given);
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * A form post must come from a console page of this very origin: a browser says where a request
 * comes from in Origin and Sec-Fetch-Site, and whichever of them it sent must name this origin.
 * (A client that sends neither is not a browser, and still needs the form's token.)
 */
export function assertSameOrigin(request: FastifyRequest, publicBase: string): void {
  const site = one(request.headers['sec-fetch-site']);
  if (site !== undefined && site !== 'same-origin')
    throw new HttpError('FORBIDDEN', `A console form must be sent from the console itself, not from a ${site} page`, {
      status: 403,
    });
  const origin = one(request.headers.origin);
  if (origin === undefined) return;
  const own = `${request.protocol}://${request.host}`;
  // Behind a proxy the browser's origin is the public address (--public-url), not the one reached.
  if (origin !== own && origin !== new URL(publicBase).origin)
    throw new HttpError(
      'FORBIDDEN',
      `A console form must be sent from ${own}, not from ${origin === 'null' ? 'an opaque origin' : origin}`,
      { status: 403 },
    );
}

/**
 * The whole console answers only under its own names (issue 38): the link base (`--public-url`, or
 * the listen address), an IP literal or localhost at the port this connection reached, or a name a
 * trusted proxy forwarded. A page of evil.example whose name was rebound to this machine sends
 * `Host: evil.example` (and a matching Origin); it gets no page, no sign-in, no form: 421.
 */
export const assertOwnHost = (request: FastifyRequest, linkBase: string): void =>
  assertAnsweringHost(request, linkBase, 'This console', 'open it');
