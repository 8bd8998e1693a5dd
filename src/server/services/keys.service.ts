import type { ApiKeyInfo, CreatedApiKey } from '../../contract/image-auth.js';
import type { Ctx } from './users.service.js';
import { decodePageCursor, encodePageCursor } from './page-cursor.js';
import { HttpError, notFound } from '../errors.js';
import { generateApiKey } from '../auth/secrets.js';
import { newId } from '../store/ids.js';
import { JsonText } from '../json-text.js';
import { ViewCache } from '../store/view-cache.js';
import {
  findLiveKeyById,
  insertApiKeyWithinLimit,
  listLiveKeys,
  listLiveKeysPage,
  updateApiKey,
  type ApiKeyRow,
} from '../store/api-keys.repo.js';
import { findUserById } from '../store/users.repo.js';
import { deleteSessionsOfKey } from '../store/sessions.repo.js';
import { auditRow, SYSTEM, type AuditActor } from './audit.service.js';

export function keyInfo(row: ApiKeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    user_id: row.user_id,
    status: row.status,
    created_at: row.created_at,
    expires_at: row.expires_at,
    frozen_at: row.frozen_at,
    last_used_at: row.last_used_at,
  };
}

/** Usable keys one user may hold unless the server says otherwise (--max-keys-per-user). */
export const DEFAULT_MAX_KEYS_PER_USER = 100;

export async function createKey(
  ctx: Ctx,
  input: { userId: string; name?: string; expiresInDays?: number; maxKeys?: number },
  actor: AuditActor = SYSTEM,
): Promise<CreatedApiKey> {
  if (!(await findUserById(ctx.db, input.userId))) throw notFound(`user ${input.userId}`);
  const { key, prefix, hash } = generateApiKey();
  const now = ctx.now();
  const row: ApiKeyRow = {
    id: newId('key'),
    user_id: input.userId,
    name: input.name ?? 'default',
    prefix,
    hash,
    status: 'active',
    created_at: now.toISOString(),
    expires_at: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000).toISOString() : null,
    frozen_at: null,
    last_used_at: null,
    deleted_at: null,
  };
  const max = input.maxKeys ?? DEFAULT_MAX_KEYS_PER_USER;
  const audit = auditRow(now, actor, {
    action: 'key.created',
    targetType: 'api_key',
    targetId: row.id,
    subjectUserId: row.user_id,
    after: { name: row.name, prefix: row.prefix, status: row.status, expires_at: row.expires_at },
  });
  if (!(await insertApiKeyWithinLimit(ctx.db, row, max, row.created_at, audit))) {
    throw new HttpError(
      'KEY_LIMIT_REACHED',
      `user ${input.userId} already has ${max} API keys, the most this server allows (facet serve --max-keys-per-user); delete one first`,
    );
  }
  return { ...keyInfo(row), key };
}

/** A user's own keys: at most --max-keys-per-user of them, so one answer holds them all. */
// A user's key list as sent, served again until a key of anyone's changes (view-cache.ts).
const keyListAnswers = new ViewCache('keys');

export function listKeys(ctx: Ctx, filter: { userId: string }): JsonText | Promise<JsonText> {
  return keyListAnswers.get(
    ctx.db,
    filter.userId,
    async () => new JsonText(JSON.stringify((await listLiveKeys(ctx.db, filter)).map(keyInfo))),
  );
}

/** The cursor is opaque to callers: where the previous page ended. */

/** Every user's keys, or one user's, a page at a time (admins). */
export async function listKeysPage(
  ctx: Ctx,
  query: { userId?: string; limit: number; cursor?: string },
): Promise<{ keys: ApiKeyInfo[]; nextCursor: string | null }> {
  const [created_at, id] = query.cursor ? decodePageCursor(query.cursor) : [];
  const after = created_at && id ? { created_at, id } : undefined;
  const { rows, more } = await listLiveKeysPage(ctx.db, { userId: query.userId, after, limit: query.limit });
  const last = rows.at(-1);
  return { keys: rows.map(keyInfo), nextCursor: more && last ? encodePageCursor(last.created_at, last.id) : null };
}

/**
 * Finds a live key the caller may act on. Another user's key answers exactly like a missing one,
 * so ids cannot be probed.
 */
async function ownedKey(ctx: Ctx, keyId: string, ownerId: string | null): Promise<ApiKeyRow> {
  const row = await findLiveKeyById(ctx.db, keyId);
  if (!row || (ownerId !== null && row.user_id !== ownerId)) throw notFound(`API key ${keyId}`);
  return row;
}

/** ownerId null = an admin acting on any user's key. */
export async function deleteKey(
  ctx: Ctx,
  keyId: string,
  ownerId: string | null,
  actor: AuditActor = SYSTEM,
): Promise<void> {
  const row = await ownedKey(ctx, keyId, ownerId);
  const now = ctx.now();
  const patch = { deleted_at: now.toISOString() };
  const audit = auditRow(now, actor, {
    action: 'key.deleted',
    targetType: 'api_key',
    targetId: row.id,
    subjectUserId: row.user_id,
    before: { name: row.name, status: row.status, deleted_at: null },
    after: { name: row.name, status: row.status, ...patch },
  });
  await updateApiKey(ctx.db, row.id, patch, audit);
  await deleteSessionsOfKey(ctx.db, row.id);
}

export async function setFrozen(
  ctx: Ctx,
  keyId: string,
  frozen: boolean,
  actor: AuditActor = SYSTEM,
): Promise<ApiKeyInfo> {
  const row = await ownedKey(ctx, keyId, null);
  const now = ctx.now();
  const patch = frozen
    ? { status: 'frozen' as const, frozen_at: row.frozen_at ?? now.toISOString() }
    : { status: 'active' as const, frozen_at: null };
  const audit = auditRow(now, actor, {
    action: frozen ? 'key.frozen' : 'key.unfrozen',
    targetType: 'api_key',
    targetId: row.id,
    subjectUserId: row.user_id,
    before: { status: row.status, frozen_at: row.frozen_at },
    after: patch,
  });
  await updateApiKey(ctx.db, row.id, patch, audit);
  // The console sessions opened with a frozen key end now, and stay ended when it is unfrozen.
  if (frozen) await deleteSessionsOfKey(ctx.db, row.id);
  return keyInfo({ ...row, ...patch });
}
