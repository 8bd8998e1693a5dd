import { SignJWT, jwtVerify, errors } from 'jose';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { getSetting, setSetting } from '../store/settings.repo.js';

const ISSUER = 'facet-local';
const AUDIENCE = 'facet';

/** The HMAC secret access tokens are signed with; made once per data dir and kept in the store. */
export async function tokenSecret(db: Kysely<Database>): Promise<Uint8Array> {
  let value = await getSetting(db, 'token_secret');
  if (!value) {
    value = randomBytes(32).toString('base64url');
    await setSetting(db, 'token_secret', value);
  }
  // A copy, not a view into Buffer's shared pool: WebCrypto would read the whole pool.
  return new Uint8Array(Buffer.from(value, 'base64url'));
}

/** Mints a signed, expiring access token (a JWT, HS256) for a local user. */
export async function mintAccessToken(secret: Uint8Array, userId: string, ttlSeconds: number, now = new Date()) {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + ttlSeconds;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(secret);
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}

export type TokenCheck = { ok: true; userId: string; exp: number } | { ok: false; reason: 'expired' | 'invalid' };

export async function verifyAccessToken(secret: Uint8Array, token: string, now = new Date()): Promise<TokenCheck> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      currentDate: now,
    });
    if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return { ok: false, reason: 'invalid' };
    return { ok: true, userId: payload.sub, exp: payload.exp };
  } catch (err) {
    return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}

/** JWTs have three dot-separated parts; API keys never contain a dot. */
export function looksLikeJwt(value: string): boolean {
  // Exactly two dots, found without splitting the token (this runs on every request).
  const first = value.indexOf('.');
  const second = first < 0 ? -1 : value.indexOf('.', first + 1);
  return second > 0 && value.indexOf('.', second + 1) < 0;
}
