import type { AppContext } from '../../context.js';
import { HttpError } from '../../errors.js';
import { hashSecret, sameSecret } from '../../auth/secrets.js';
import { SESSION_MAX_MS, sessionUser, startSession } from '../../auth/sessions.js';
import { findLiveKeyByHash } from '../../store/api-keys.repo.js';
import { getSetting } from '../../store/settings.repo.js';
import { findUserById, type UserRow } from '../../store/users.repo.js';
import { assertUsable } from '../keys.service.js';
import { ADMIN_KEY_PREFIX } from '../../auth/secrets.js';

/** Longest secret the sign-in form takes; keys and admin keys are far shorter. */
export const MAX_SECRET_LENGTH = 512;

const refused = () => new HttpError('INVALID_API_KEY', 'That is not a usable API key or admin key of this server', { status: 401 });

/**
 * Whose console a pasted secret opens: an API key's owner (a frozen or expired key opens nothing),
 * or, for the deployment admin key, the bootstrap administrator the key was made with.
 */
async function userOfSecret(ctx: AppContext, secret: string): Promise<UserRow> {
  if (secret.startsWith(ADMIN_KEY_PREFIX)) {
    const expected = await getSetting(ctx.db, 'admin_key_hash');
    const adminId = await getSetting(ctx.db, 'bootstrap_user_id');
    if (!expected || !adminId || !sameSecret(secret, expected)) throw refused();
    const admin = await findUserById(ctx.db, adminId);
    if (!admin) throw refused();
    return admin;
  }
  const key = await findLiveKeyByHash(ctx.db, hashSecret(secret));
  if (!key) throw refused();
  assertUsable(key, ctx.now());
  const user = await findUserById(ctx.db, key.user_id);
  if (!user) throw refused();
  return user;
}

/** Starts a console session (the same sessions table and cookie as POST /auth/session-cookie). */
export async function signIn(ctx: AppContext, secret: string): Promise<{ user: UserRow; value: string; maxAgeSeconds: number }> {
  const trimmed = secret.trim();
  if (trimmed === '' || trimmed.length > MAX_SECRET_LENGTH) throw refused();
  const user = await userOfSecret(ctx, trimmed);
  const session = await startSession(ctx, user.id, Math.floor((ctx.now().getTime() + SESSION_MAX_MS) / 1000));
  return { user, ...session };
}

/** The signed-in user, or null when the cookie is missing or its session has ended. */
export async function consoleUser(ctx: AppContext, cookie: string | undefined): Promise<UserRow | null> {
  if (!cookie) return null;
  try {
    return await sessionUser(ctx, cookie);
  } catch (err) {
    if (err instanceof HttpError) return null;
    throw err;
  }
}
