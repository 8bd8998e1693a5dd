import type { AuthGroup } from '../../contract/route.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { findLiveKeyByHash, peekLiveKeyByHash, type ApiKeyRow } from '../store/api-keys.repo.js';
import { findUserById, peekUserById, type UserRow } from '../store/users.repo.js';
import { assertUsable, lastUseIsStale, touchKey } from './key-use.js';
import { hashSecret, sameSecret } from './secrets.js';
import { looksLikeJwt, verifyAccessToken } from './tokens.js';
import { getSetting } from '../store/settings.repo.js';
import { sessionUser } from './sessions.js';

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

function bearer(
  value: string | undefined,
): { kind: 'missing' } | { kind: 'malformed' } | { kind: 'ok'; credential: string } {
  if (value === undefined || value === '') return { kind: 'missing' };
  const m = STRICT_BEARER.exec(value);
  return m ? { kind: 'ok', credential: m[1] } : { kind: 'malformed' };
}

type Maybe<T> = T | Promise<T>;

/** `next` on the value at once, or once its promise settles: what the caches hold is used in the same tick. */
function chain<T, U>(value: Maybe<T>, next: (v: T) => Maybe<U>): Maybe<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** The user from this process's cache when it holds the row, else from the store (same cache, see users.repo.ts). */
function userById(ctx: AppContext, id: string): Maybe<UserRow | undefined> {
  return peekUserById(ctx.db, id) ?? findUserById(ctx.db, id);
}

function byApiKey(ctx: AppContext, key: string): Maybe<AuthContext> {
  const hash = hashSecret(key);
  return chain(peekLiveKeyByHash(ctx.db, hash) ?? findLiveKeyByHash(ctx.db, hash), (row) => {
    if (!row) throw new HttpError('INVALID_API_KEY', 'The API key is invalid or has been revoked');
    const now = ctx.now();
    assertUsable(row, now);
    return chain(userById(ctx, row.user_id), (user) => {
      if (!user) throw new HttpError('INVALID_API_KEY', 'The API key is invalid or has been revoked');
      const auth: AuthContext = { user, apiKey: row, via: 'key' };
      // Recorded at most once a minute: most requests skip the write (and its await) altogether.
      return lastUseIsStale(row, now) ? touchKey(ctx, row, now).then(() => auth) : auth;
    });
  });
}

function byAccessToken(ctx: AppContext, token: string): Maybe<AuthContext> {
  const now = ctx.now();
  const checked =
    ctx.tokenCache.get(token, now) ??
    verifyAccessToken(ctx.tokenSecret, token, now).then((check) => {
      ctx.tokenCache.set(token, check);
      return check;
    });
  return chain(checked, (check) => {
    if (!check.ok) {
      throw new HttpError(
        'INVALID_ACCESS_TOKEN',
        check.reason === 'expired' ? 'The access token has expired' : 'The access token is invalid',
        { status: 401 },
      );
    }
    return chain(userById(ctx, check.userId), (user) => {
      if (!user) throw new HttpError('INVALID_ACCESS_TOKEN', 'The access token names an unknown user', { status: 401 });
      return { user, apiKey: null, via: 'token' } satisfies AuthContext;
    });
  });
}

function missing(what: string): HttpError {
  return new HttpError('MISSING_AUTHORIZATION', `Authentication required: ${what}`);
}

/** The credential a route's auth group takes from a request; null for the 'none' group. */
type Chosen = { by: 'key' | 'token' | 'session'; credential: string };

/**
 * Which credential counts, by the route's auth group (spec 5); throws the spec's errors for a
 * missing or malformed one. The administrators' groups are handled by `authenticate` itself.
 */
function choose(
  group: Exclude<AuthGroup, 'admin' | 'admin-or-cookie' | 'admin-with-admin-key'>,
  cred: Credentials,
): Chosen | null {
  switch (group) {
    case 'none':
      return null;

    case 'bearer-key': {
      const b = bearer(cred.authorization);
      if (b.kind === 'missing') throw missing('send Authorization: Bearer <API_KEY>');
      if (b.kind === 'malformed') {
        throw new HttpError(
          'MALFORMED_AUTHORIZATION',
          'The Authorization header must be "Bearer <API_KEY>": the scheme Bearer, one space, the key, no quotes',
        );
      }
      return { by: 'key', credential: b.credential };
    }

    case 'key': {
      if (cred.authorization !== undefined) {
        const b = bearer(cred.authorization);
        if (b.kind === 'ok') return { by: 'key', credential: b.credential };
        if (b.kind === 'malformed')
          throw new HttpError('MALFORMED_AUTHORIZATION', 'The Authorization header must be "Bearer <API_KEY>"');
      }
      if (cred.apiKeyHeader) return { by: 'key', credential: cred.apiKeyHeader };
      throw missing('send Authorization: Bearer <API_KEY> or X-API-Key');
    }

    case 'access-token': {
      const b = bearer(cred.authorization);
      if (b.kind === 'missing') throw missing('send Authorization: Bearer <ACCESS_TOKEN>');
      if (b.kind === 'malformed')
        throw new HttpError('MALFORMED_AUTHORIZATION', 'The Authorization header must be "Bearer <ACCESS_TOKEN>"');
      if (!looksLikeJwt(b.credential)) {
        throw new HttpError('INVALID_ACCESS_TOKEN', 'This endpoint takes an access token, not an API key', {
          status: 401,
        });
      }
      return { by: 'token', credential: b.credential };
    }

    case 'token-or-key':
    case 'token-key-or-cookie': {
      if (cred.authorization !== undefined) {
        const b = bearer(cred.authorization);
        if (b.kind === 'malformed')
          throw new HttpError('MALFORMED_AUTHORIZATION', 'The Authorization header must be "Bearer <ACCESS_TOKEN>"');
        if (b.kind === 'ok') return { by: 'token', credential: b.credential };
      }
      if (cred.apiKeyHeader) return { by: 'key', credential: cred.apiKeyHeader };
      // The cookie holds a session (auth/sessions.ts), never an access token; only this group reads it.
      if (group === 'token-key-or-cookie' && cred.sessionCookie)
        return { by: 'session', credential: cred.sessionCookie };
      throw missing('send Authorization: Bearer <ACCESS_TOKEN> or X-API-Key');
    }
  }
}

/**
 * One mechanism for every surface: the route's auth group decides which credentials count, and
 * failures carry the codes of spec 5 whatever the surface; the route layer shapes the body.
 * Returns null only for the 'none' group. When every row it needs is in this process's caches and
 * nothing is to be written (most requests), the answer comes at once, not in a promise; the checks
 * are the same either way, and a refusal is always a rejected promise.
 */
export function authenticate(ctx: AppContext, group: AuthGroup, cred: Credentials): Maybe<AuthContext | null> {
  try {
    return authenticateBy(ctx, group, cred);
  } catch (err) {
    return Promise.reject(err);
  }
}

function authenticateBy(ctx: AppContext, group: AuthGroup, cred: Credentials): Maybe<AuthContext | null> {
  if (group === 'admin-or-cookie' && !cred.apiKeyHeader && cred.sessionCookie) {
    // The console's session (SameSite=Strict, so never sent by another site's page) of an administrator.
    return sessionUser(ctx, cred.sessionCookie).then((user): AuthContext => {
      if (user.role !== 'admin') throw new HttpError('FORBIDDEN', 'This endpoint is for administrators');
      return { user, apiKey: null, via: 'cookie' };
    });
  }
  if (group === 'admin' || group === 'admin-or-cookie' || group === 'admin-with-admin-key') {
    if (!cred.apiKeyHeader) throw missing("send an administrator's API key in X-API-Key");
    return chain(byApiKey(ctx, cred.apiKeyHeader), async (auth) => {
      if (auth.user.role !== 'admin') throw new HttpError('FORBIDDEN', 'This endpoint is for administrators');
      if (group === 'admin-with-admin-key') await checkAdminKey(ctx, cred.adminKeyHeader);
      return auth;
    });
  }
  const chosen = choose(group, cred);
  if (!chosen) return null;
  // A session is read from the store at each use, so a logout holds on every instance at once.
  if (chosen.by === 'session')
    return sessionUser(ctx, chosen.credential).then(
      (user) => ({ user, apiKey: null, via: 'cookie' }) satisfies AuthContext,
    );
  return chosen.by === 'key' ? byApiKey(ctx, chosen.credential) : byAccessToken(ctx, chosen.credential);
}

async function checkAdminKey(ctx: AppContext, given: string | undefined): Promise<void> {
  if (!given)
    throw new HttpError('MISSING_AUTHORIZATION', 'This endpoint also needs the deployment admin key in X-Admin-Key');
  const expected = await getSetting(ctx.db, 'admin_key_hash');
  if (!expected || !sameSecret(given, expected))
    throw new HttpError('INVALID_ADMIN_KEY', 'The X-Admin-Key header is wrong');
}
