import type { AuthGroup } from '../../contract/route.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { findLiveKeyByHash, type ApiKeyRow } from '../store/api-keys.repo.js';
import { findUserById, type UserRow } from '../store/users.repo.js';
import { assertUsable, lastUseIsStale, touchKey } from '../services/keys.service.js';
import { hashSecret, sameSecret } from './secrets.js';
import { looksLikeJwt, verifyAccessToken } from './tokens.js';
import { getSetting } from '../store/settings.repo.js';

export const SESSION_COOKIE = 'facet_session';

export interface AuthContext {
  user: UserRow;
  /** The key the call was made with; null for access tokens and the session cookie. */
  apiKey: ApiKeyRow | null;
  via: 'token' | 'key' | 'cookie';
}

/** The parts of a request authentication looks at; kept small so it is easy to test. */
export interface Credentials {
  authorization?: string;
  apiKeyHeader?: string;
  adminKeyHeader?: string;
  sessionCookie?: string;
}

/** Spec 5 rule 3: "Bearer", exactly one space, the credential, no quotes or further spaces. */
const STRICT_BEARER = /^Bearer ([^\s"']+)$/;

function bearer(value: string | undefined): { kind: 'missing' } | { kind: 'malformed' } | { kind: 'ok'; credential: string } {
  if (value === undefined || value === '') return { kind: 'missing' };
  const m = STRICT_BEARER.exec(value);
  return m ? { kind: 'ok', credential: m[1] } : { kind: 'malformed' };
}

async function byApiKey(ctx: AppContext, key: string): Promise<AuthContext> {
  const row = await findLiveKeyByHash(ctx.db, hashSecret(key));
  if (!row) throw new HttpError('INVALID_API_KEY', 'The API key is invalid or has been revoked');
  const now = ctx.now();
  assertUsable(row, now);
  const user = await findUserById(ctx.db, row.user_id);
  if (!user) throw new HttpError('INVALID_API_KEY', 'The API key is invalid or has been revoked');
  // Recorded at most once a minute: most requests skip the call (and its await) altogether.
  if (lastUseIsStale(row, now)) await touchKey(ctx, row, now);
  return { user, apiKey: row, via: 'key' };
}

async function byAccessToken(ctx: AppContext, token: string, via: 'token' | 'cookie'): Promise<AuthContext> {
  const now = ctx.now();
  let check = ctx.tokenCache.get(token, now);
  if (!check) {
    check = await verifyAccessToken(ctx.tokenSecret, token, now);
    ctx.tokenCache.set(token, check);
  }
  if (!check.ok) {
    throw new HttpError('INVALID_ACCESS_TOKEN', check.reason === 'expired' ? 'The access token has expired' : 'The access token is invalid', { status: 401 });
  }
  const user = await findUserById(ctx.db, check.userId);
  if (!user) throw new HttpError('INVALID_ACCESS_TOKEN', 'The access token names an unknown user', { status: 401 });
  return { user, apiKey: null, via };
}

function missing(what: string): HttpError {
  return new HttpError('MISSING_AUTHORIZATION', `Authentication required: ${what}`);
}

/**
 * One mechanism for every surface: the route's auth group decides which credentials count, and
 * failures carry the codes of spec 5 whatever the surface; the route layer shapes the body.
 * Returns null only for the 'none' group.
 */
export async function authenticate(ctx: AppContext, group: AuthGroup, cred: Credentials): Promise<AuthContext | null> {
  switch (group) {
    case 'none':
      return null;

    case 'bearer-key': {
      const b = bearer(cred.authorization);
      if (b.kind === 'missing') throw missing('send Authorization: Bearer <API_KEY>');
      if (b.kind === 'malformed') {
        throw new HttpError('MALFORMED_AUTHORIZATION', 'The Authorization header must be "Bearer <API_KEY>": the scheme Bearer, one space, the key, no quotes');
      }
      return byApiKey(ctx, b.credential);
    }

    case 'key': {
      if (cred.authorization !== undefined) {
        const b = bearer(cred.authorization);
        if (b.kind === 'ok') return byApiKey(ctx, b.credential);
        if (b.kind === 'malformed') throw new HttpError('MALFORMED_AUTHORIZATION', 'The Authorization header must be "Bearer <API_KEY>"');
      }
      if (cred.apiKeyHeader) return byApiKey(ctx, cred.apiKeyHeader);
      throw missing('send Authorization: Bearer <API_KEY> or X-API-Key');
    }

    case 'access-token': {
      const b = bearer(cred.authorization);
      if (b.kind === 'missing') throw missing('send Authorization: Bearer <ACCESS_TOKEN>');
      if (b.kind === 'malformed') throw new HttpError('MALFORMED_AUTHORIZATION', 'The Authorization header must be "Bearer <ACCESS_TOKEN>"');
      if (!looksLikeJwt(b.credential)) {
        throw new HttpError('INVALID_ACCESS_TOKEN', 'This endpoint takes an access token, not an API key', { status: 401 });
      }
      return byAccessToken(ctx, b.credential, 'token');
    }

    case 'token-or-key':
    case 'token-key-or-cookie': {
      if (cred.authorization !== undefined) {
        const b = bearer(cred.authorization);
        if (b.kind === 'malformed') throw new HttpError('MALFORMED_AUTHORIZATION', 'The Authorization header must be "Bearer <ACCESS_TOKEN>"');
        if (b.kind === 'ok') return byAccessToken(ctx, b.credential, 'token');
      }
      if (cred.apiKeyHeader) return byApiKey(ctx, cred.apiKeyHeader);
      if (group === 'token-key-or-cookie' && cred.sessionCookie) return byAccessToken(ctx, cred.sessionCookie, 'cookie');
      throw missing('send Authorization: Bearer <ACCESS_TOKEN> or X-API-Key');
    }

    case 'admin':
    case 'admin-with-admin-key': {
      if (!cred.apiKeyHeader) throw missing("send an administrator's API key in X-API-Key");
      const auth = await byApiKey(ctx, cred.apiKeyHeader);
      if (auth.user.role !== 'admin') throw new HttpError('FORBIDDEN', 'This endpoint is for administrators');
      if (group === 'admin-with-admin-key') await checkAdminKey(ctx, cred.adminKeyHeader);
      return auth;
    }
  }
}

async function checkAdminKey(ctx: AppContext, given: string | undefined): Promise<void> {
  if (!given) throw new HttpError('MISSING_AUTHORIZATION', 'This endpoint also needs the deployment admin key in X-Admin-Key');
  const expected = await getSetting(ctx.db, 'admin_key_hash');
  if (!expected || !sameSecret(given, expected)) throw new HttpError('INVALID_ADMIN_KEY', 'The X-Admin-Key header is wrong');
}
