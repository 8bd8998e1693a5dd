import { HttpError } from '../errors.js';
import { sign, signatureMatches } from './signed-token.js';

/**
 * Expiring signed links: URLs that work without credentials until `expires` (Unix seconds), for
 * what a browser opens (a download, a slide viewer, a landing page, a mindmap, a LiveDoc's page) —
 * a browser sends no API key. The signature (auth/signed-token.ts, a key per purpose) covers the id
 * it opens and the expiry, so a link for one thing opens nothing else and an altered expiry breaks
 * it. docs/decisions.md "Pages of the local platform".
 */

/** How long the page links the API returns stay valid unless a caller asks otherwise. */
export const PAGE_LINK_TTL_SECONDS = 7 * 24 * 3600;

export type LinkPurpose = 'resource-download' | 'slides' | 'page' | 'mindmap' | 'livedoc' | 'theme-preview';

const signed = (id: string, expires: number) => `${id}\n${expires}`;

function signature(secret: Uint8Array, purpose: LinkPurpose, id: string, expires: number): string {
  return sign(secret, `link:${purpose}`, signed(id, expires));
}

/** The query string (without `?`) that makes a link for `purpose` and `id` valid until `expires`. */
export function linkQuery(secret: Uint8Array, purpose: LinkPurpose, id: string, expires: number): string {
  return `expires=${expires}&sig=${signature(secret, purpose, id, expires)}`;
}

/** `baseUrl + path` signed; `path` may carry a query of its own. */
export function signedLink(
  baseUrl: string,
  secret: Uint8Array,
  purpose: LinkPurpose,
  id: string,
  path: string,
  expires: number,
): string {
  return `${baseUrl}${path}${path.includes('?') ? '&' : '?'}${linkQuery(secret, purpose, id, expires)}`;
}

export function checkLink(
  secret: Uint8Array,
  purpose: LinkPurpose,
  id: string,
  given: { expires?: unknown; sig?: unknown },
  nowSeconds: number,
): 'ok' | 'expired' | 'bad' {
  const expires = Number(given.expires);
  if (typeof given.sig !== 'string' || !Number.isInteger(expires)) return 'bad';
  if (!signatureMatches(secret, `link:${purpose}`, signed(id, expires), given.sig)) return 'bad';
  return nowSeconds > expires ? 'expired' : 'ok';
}

interface LinkCtx {
  baseUrl: string;
  tokenSecret: Uint8Array;
  now: () => Date;
}

/** A page link of the local platform, valid for `ttlSeconds` (7 days unless said otherwise). */
export function pageLink(
  ctx: LinkCtx,
  purpose: LinkPurpose,
  id: string,
  path: string,
  ttlSeconds = PAGE_LINK_TTL_SECONDS,
): string {
  const expires = Math.floor(ctx.now().getTime() / 1000) + ttlSeconds;
  return signedLink(ctx.baseUrl, ctx.tokenSecret, purpose, id, path, expires);
}

/** The query that keeps a page's own assets (pictures, downloads, other views) as open as the page. */
export function sameLinkQuery(ctx: LinkCtx, purpose: LinkPurpose, id: string, given: { expires?: unknown }): string {
  return linkQuery(ctx.tokenSecret, purpose, id, Number(given.expires));
}

/** Throws 403 FORBIDDEN unless the query carries a valid, unexpired signature for `purpose` and `id`. */
export function requirePageLink(
  ctx: LinkCtx,
  purpose: LinkPurpose,
  id: string,
  given: { expires?: unknown; sig?: unknown },
): void {
  const check = checkLink(ctx.tokenSecret, purpose, id, given, Math.floor(ctx.now().getTime() / 1000));
  if (check === 'bad') throw new HttpError('FORBIDDEN', 'this link is not valid: open the URL the API returned, whole');
  if (check === 'expired')
    throw new HttpError('FORBIDDEN', 'this link has expired: ask the API for the record again to get a fresh one');
}
