import { AsyncLocalStorage } from 'node:async_hooks';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Where the links in answers point (ARCHITECTURE "Running as a service"): `--public-url` when given;
 * else, behind a proxy named by `--trust-proxy`, the scheme and host it forwarded
 * (X-Forwarded-Proto/-Host, honoured only from a trusted address); else the address this instance
 * listens on. A Host header alone never decides it: a caller could then point links elsewhere.
 */
export interface LinkBaseOptions {
  publicUrl?: string;
  /** Fastify's trustProxy: true, addresses and CIDR blocks, or a number of hops. */
  trustProxy?: boolean | string | string[] | number;
}

const forwarded = new AsyncLocalStorage<string>();

type Trust = (addr: string, hop: number) => boolean;

/** `--public-url` without a trailing slash, checked: an http(s) URL with no query or fragment. */
export function normalizePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`--public-url must be an absolute http(s) URL, got ${value}`);
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash || url.username)
    throw new Error(`--public-url must be an http(s) URL without credentials, query or fragment, got ${value}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The link base for this request, or null to use the instance's own. */
function forwardedBase(request: FastifyRequest, trusted: Trust): string | null {
  if (!request.headers['x-forwarded-host']) return null;
  const from = request.socket.remoteAddress;
  if (!from || !trusted(from, 0)) return null;
  // Fastify already read the forwarded values, the last of each list (the nearest trusted proxy's).
  return `${request.protocol}://${request.host}`;
}

/**
 * Whom to believe about forwarded headers: nobody with --public-url (it decides every link) or
 * without --trust-proxy. The one function is given to Fastify and used here, so both agree.
 */
export function proxyTrust(options: LinkBaseOptions): Trust | undefined {
  const trust = options.trustProxy;
  if (options.publicUrl || trust === undefined || trust === false) return undefined;
  if (trust === true) return () => true;
  if (typeof trust === 'number') return (_addr, hop) => hop < trust;
  return proxyAddr.compile(typeof trust === 'string' ? trust.split(',').map((s) => s.trim()) : trust);
}

/**
 * Installs the per-request link base (only when proxies are trusted) and returns the function
 * every link is built from. The handler runs inside the hook's context, so services reading
 * `ctx.baseUrl` while serving the request see the forwarded base.
 */
export function installLinkBase(
  app: FastifyInstance,
  publicUrl: string | undefined,
  trusted: Trust | undefined,
  ownBase: () => string,
): () => string {
  if (publicUrl) return () => publicUrl;
  if (!trusted) return ownBase;
  app.addHook('preHandler', (request, _reply, done) => {
    const base = forwardedBase(request, trusted);
    if (base) forwarded.run(base, done);
    else done();
  });
  return () => forwarded.getStore() ?? ownBase();
}
