import type { AppContext } from '../../context.js';
import { HttpError } from '../../errors.js';
import { hashSecret, sameSecret } from '../../auth/secrets.js';
import { SESSION_MAX_MS, sessionUser, startSession } from '../../auth/sessions.js';
import { findLiveKeyByHash, type ApiKeyRow } from '../../store/api-keys.repo.js';
import { getSetting } from '../../store/settings.repo.js';
import { findUserById, type UserRow } from '../../store/users.repo.js';
import { assertUsable } from '../../auth/key-use.js';
import { ADMIN_KEY_PREFIX } from '../../auth/secrets.js';
import { recordAudit, type AuditActor } from '../audit.service.js';

/** Longest secret the sign-in form takes; keys and admin keys are far shorter. */
export const MAX_SECRET_LENGTH = 512;

const refused = () =>
  new HttpError('INVALID_API_KEY', 'That is not a usable API key or admin key of this server', { status: 401 });

/**
 * Whose console a pasted secret opens: an API key's owner (a frozen or expired key opens nothing),
 * or, for the deployment admin key, the bootstrap administrator the key was made with.
 */
async function userOfSecret(
  ctx: AppContext,
  secret: string,
): Promise<{ user: UserRow; key: ApiKeyRow | null; adminKeyHash: string | null }> {
  if (secret.startsWith(ADMIN_KEY_PREFIX)) {
    const expected = await getSetting(ctx.db, 'admin_key_hash');
    const adminId = await getSetting(ctx.db, 'bootstrap_user_id');
    if (!expected || !adminId || !sameSecret(secret, expected)) throw refused();
    const admin = await findUserById(ctx.db, adminId);
    if (!admin) throw refused();
    return { user: admin, key: null, adminKeyHash: expected };
  }
  const key = await findLiveKeyByHash(ctx.db, hashSecret(secret));
  if (!key) throw refused();
  assertUsable(key, ctx.now());
  const user = await findUserById(ctx.db, key.user_id);
  if (!user) throw refused();
  return { user, key, adminKeyHash: null };
}

/**
 * Starts a console session (the same sessions table and cookie as POST /auth/session-cookie) and
 * records it as the API records a login; a sign-in with the deployment admin key records that use too.
 * `actorOf` makes the entries' actor from the request, given who signed in with which key.
 */
export async function signIn(
  ctx: AppContext,
  secret: string,
  actorOf: (user: UserRow, key: ApiKeyRow | null) => AuditActor,
): Promise<{ user: UserRow; value: string; maxAgeSeconds: number }> {
  const trimmed = secret.trim();
  if (trimmed === '' || trimmed.length > MAX_SECRET_LENGTH) throw refused();
  const { user, key, adminKeyHash } = await userOfSecret(ctx, trimmed);
  const end = Math.floor((ctx.now().getTime() + SESSION_MAX_MS) / 1000);
  const session = await startSession(ctx, user.id, end, key, adminKeyHash);
  const actor = actorOf(user, key);
  if (!key)
    await recordAudit(ctx, actor, { action: 'admin_key.used', targetType: 'endpoint', targetId: '/console/login' });
  await recordAudit(ctx, actor, {
    action: 'session.login',
    targetType: 'user',
    targetId: user.id,
    subjectUserId: user.id,
    after: { session_expires_in_seconds: session.maxAgeSeconds, via: 'console' },
  });
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
