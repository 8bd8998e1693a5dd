import type { AppContext } from '../../context.js';
import type { AuthContext } from '../../auth/authenticate.js';
import { HttpError } from '../../errors.js';
import * as repo from '../../store/stored-responses.repo.js';

/**
 * Bounds of what /api/v1 keeps between turns (stored responses and Anthropic threads alike). One
 * conversation is bounded by items and bytes, an API key by rows and bytes; the row count and the
 * retention are server options (`--stored-responses-per-key`, `--stored-response-days`).
 */
export const STORED_LIMITS = {
  /** items (messages, calls, results) one stored conversation holds, history included */
  itemsPerConversation: 10_000,
  /** UTF-8 bytes of one stored conversation's JSON, history included */
  bytesPerConversation: 4 * 1024 * 1024,
  /** UTF-8 bytes all of one key's stored conversations hold together */
  bytesPerKey: 256 * 1024 * 1024,
  /** stored responses one conversation chains (each turn keeps only what it added; reads walk the chain) */
  turnsPerConversation: 5_000,
  defaultPerKey: 10_000,
  defaultRetentionDays: 30,
} as const;

type Ctx = Pick<AppContext, 'db' | 'now' | 'config'>;
export type StoredKind = repo.StoredRow['kind'];

/** Who owns what a request stores: its API key (a session-authenticated caller: the user). */
export const ownerOf = (auth: AuthContext) => (auth.apiKey ? `key:${auth.apiKey.id}` : `user:${auth.user.id}`);

const retentionMs = (ctx: Ctx) => (ctx.config.storedResponseDays ?? STORED_LIMITS.defaultRetentionDays) * 86_400_000;
const perKey = (ctx: Ctx) => ctx.config.storedResponsesPerKey ?? STORED_LIMITS.defaultPerKey;

/** Why a conversation cannot be stored, or null: past the per-conversation bounds. */
export function conversationExcess(items: number, bytes: number): string | null {
  if (items > STORED_LIMITS.itemsPerConversation)
    return `a stored conversation holds at most ${STORED_LIMITS.itemsPerConversation} items (this one would hold ${items})`;
  if (bytes > STORED_LIMITS.bytesPerConversation)
    return `a stored conversation holds at most ${STORED_LIMITS.bytesPerConversation} bytes (this one would hold ${bytes})`;
  return null;
}

/** Why this owner cannot store `bytes` more (in one more row, or in place of `replacing`), or null. */
export async function ownerExcess(
  ctx: Ctx,
  owner: string,
  bytes: number,
  replacing?: { bytes: number },
): Promise<string | null> {
  const t = await repo.ownerTotals(ctx.db, owner, ctx.now().toISOString());
  const rows = t.rows + (replacing ? 0 : 1);
  const total = t.bytes + bytes - (replacing?.bytes ?? 0);
  if (rows > perKey(ctx))
    return `this API key holds ${t.rows} stored responses or thread messages, the most it may (${perKey(ctx)}); delete some, or send store: false`;
  if (total > STORED_LIMITS.bytesPerKey)
    return `this API key's stored conversations would hold ${total} bytes, more than the ${STORED_LIMITS.bytesPerKey} it may`;
  return null;
}

export const byteLength = (json: string) => Buffer.byteLength(json, 'utf8');

export async function findLive(ctx: Ctx, owner: string, id: string, kind: StoredKind) {
  return repo.findStored(ctx.db, owner, id, kind, ctx.now().toISOString());
}

export async function store(
  ctx: Ctx,
  owner: string,
  id: string,
  kind: StoredKind,
  body: unknown,
  items: number,
  previousId: string | null = null,
): Promise<void> {
  const json = JSON.stringify(body);
  const now = ctx.now();
  await repo.insertStored(ctx.db, {
    id,
    kind,
    owner,
    body: json,
    bytes: byteLength(json),
    items,
    previous_id: previousId,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + retentionMs(ctx)).toISOString(),
  });
}

/** The retention sweep: rows past their window go (a read already treats them as absent). */
export async function sweepStoredResponses(ctx: Ctx): Promise<number> {
  return repo.deleteExpiredStored(ctx.db, ctx.now().toISOString());
}

export const tooLarge = (message: string, param: string) =>
  new HttpError('stored_conversation_too_large', message, { status: 400, extra: { param } });
export const storageFull = (message: string) =>
  new HttpError('stored_responses_limit', message, { status: 400, extra: { param: 'store' } });
