import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { newId, randomToken } from '../store/ids.js';
import { deleteSessionByHash, findSessionByHash, insertSession, touchSession } from '../store/sessions.repo.js';
import { findLiveKeyById, type ApiKeyRow } from '../store/api-keys.repo.js';
import { getSetting } from '../store/settings.repo.js';
import { findUserById, type UserRow } from '../store/users.repo.js';
import { hashSecret } from './secrets.js';

/**
 * A browser session (the facet_session cookie) is its own credential, not the access token it was
 * made from: a random value the server keeps only as a hash, ended by logout, and shorter-lived
 * than the 30-day token (docs/decisions.md "Sessions").
 */
export const SESSION_PREFIX = 'fs_';
/** Unused this long, a session ends. */
export const SESSION_IDLE_MS = 12 * 3600_000;
/** However active, a session ends this long after login (or when its access token would, if sooner). */
export const SESSION_MAX_MS = 7 * 86_400_000;
/** Use is recorded at most this often: most requests made with the cookie write nothing. */
const TOUCH_RESOLUTION_MS = 60_000;

type Ctx = Pick<AppContext, 'db' | 'now'>;

/**
 * Starts a session for the user whose access token (or API key: `apiKey`) was presented;
 * `tokenExpiresAt` (seconds) and the key's expiry cap its end. A session opened with a key ends
 * when that key is frozen or deleted too. Returns the cookie's value (shown once, stored hashed)
 * and its Max-Age in seconds.
 */
export async function startSession(
  ctx: Ctx,
  userId: string,
  tokenExpiresAt: number,
  apiKey: Pick<ApiKeyRow, 'id' | 'expires_at'> | null = null,
  adminKeyHash: string | null = null,
): Promise<{ value: string; maxAgeSeconds: number }> {
  const value = SESSION_PREFIX + randomToken(40);
  const now = ctx.now();
  const keyEnd = apiKey?.expires_at ? Date.parse(apiKey.expires_at) : Infinity;
  const end = Math.min(now.getTime() + SESSION_MAX_MS, tokenExpiresAt * 1000, keyEnd);
  await insertSession(
    ctx.db,
    {
      id: newId('ses'),
      user_id: userId,
      hash: hashSecret(value),
      created_at: now.toISOString(),
      last_used_at: now.toISOString(),
      expires_at: new Date(end).toISOString(),
      api_key_id: apiKey?.id ?? null,
      admin_key_hash: adminKeyHash,
    },
    new Date(now.getTime() - SESSION_IDLE_MS).toISOString(),
  );
  return { value, maxAgeSeconds: Math.max(0, Math.floor((end - now.getTime()) / 1000)) };
}

const ended = (why: string) => new HttpError('INVALID_SESSION', `The session has ended (${why}); sign in again`);

/** The user of a live session; INVALID_SESSION (401) for a value that is unknown, logged out or expired. */
export async function sessionUser(ctx: Ctx, value: string): Promise<UserRow> {
  const row = await findSessionByHash(ctx.db, hashSecret(value));
  if (!row) throw ended('logged out, or never started');
  const now = ctx.now().getTime();
  if (Date.parse(row.expires_at) <= now) throw ended('its lifetime is over');
  const lastUsed = Date.parse(row.last_used_at);
  if (now - lastUsed >= SESSION_IDLE_MS) throw ended('unused for too long');
  const user = await findUserById(ctx.db, row.user_id);
  if (!user) throw ended('its user is gone');
  if (row.api_key_id !== null) {
    // Read at each use (never cached), so a freeze or delete on any instance holds at once.
    const key = await findLiveKeyById(ctx.db, row.api_key_id);
    const why = !key
      ? 'deleted'
      : key.status === 'frozen'
        ? 'frozen'
        : key.expires_at && Date.parse(key.expires_at) <= now
          ? 'expired'
          : null;
    if (why) {
      // For good: unfreezing the key later does not bring this session back.
      await deleteSessionByHash(ctx.db, row.hash);
      throw ended(`the API key it was opened with is ${why}`);
    }
  }
  if (row.admin_key_hash !== null && row.admin_key_hash !== (await getSetting(ctx.db, 'admin_key_hash'))) {
    await deleteSessionByHash(ctx.db, row.hash);
    throw ended('the admin key it was opened with has been replaced');
  }
  if (now - lastUsed >= TOUCH_RESOLUTION_MS) await touchSession(ctx.db, row.id, new Date(now).toISOString());
  return user;
}

/** Logout: the session's row is deleted, so the cookie is refused from now on even if a browser keeps it. */
export async function endSession(ctx: Ctx, value: string | undefined): Promise<void> {
  if (value) await deleteSessionByHash(ctx.db, hashSecret(value));
}
