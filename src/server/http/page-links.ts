import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';

/**
 * Expiring signed links to the platform's pages (a mindmap page), opened in a browser without
 * credentials: an HMAC with the server's secret over the purpose, the id and the expiry, as the
 * resource download links are signed. It has the shape of the shared signed-links module
 * (signedUrl / requireSignedLink); when that lands on main this file is replaced by an import.
 */
type Ctx = Pick<AppContext, 'baseUrl' | 'tokenSecret' | 'now'>;

export const DEFAULT_PAGE_TTL = 7 * 24 * 3600;

function signature(secret: Uint8Array, purpose: string, id: string, expires: number): string {
  return createHmac('sha256', secret).update(`page-link\n${purpose}\n${id}\n${expires}`).digest('base64url');
}

/** `pathAndQuery` may carry its own query; expires and sig are appended. */
export function signedUrl(ctx: Ctx, purpose: string, id: string, pathAndQuery: string, ttlSeconds = DEFAULT_PAGE_TTL): string {
  const expires = Math.floor(ctx.now().getTime() / 1000) + ttlSeconds;
  const sep = pathAndQuery.includes('?') ? '&' : '?';
  return `${ctx.baseUrl}${pathAndQuery}${sep}expires=${expires}&sig=${signature(ctx.tokenSecret, purpose, id, expires)}`;
}

/** 403 FORBIDDEN for a signature that does not match this purpose and id, or a link past its expiry. */
export function requireSignedLink(ctx: Ctx, purpose: string, id: string, query: { expires?: string | number; sig?: string }): void {
  const expires = Number(query.expires);
  const given = Buffer.from(String(query.sig ?? ''));
  const expected = Buffer.from(Number.isInteger(expires) ? signature(ctx.tokenSecret, purpose, id, expires) : '');
  if (expected.length === 0 || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new HttpError('FORBIDDEN', 'the link is not valid; ask for a new one');
  }
  if (Math.floor(ctx.now().getTime() / 1000) > expires) throw new HttpError('FORBIDDEN', 'the link has expired; ask for a new one');
}
