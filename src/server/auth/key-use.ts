import type { Kysely } from 'kysely';
import { HttpError } from '../errors.js';
import type { Database } from '../store/database.js';
import { updateApiKey, type ApiKeyRow } from '../store/api-keys.repo.js';

// What a request made with a key checks and records about it: auth runs it on every request, the
// console's sign-in once. It lives here, below services, because both use it.

/** How long a key's last_used_at may lag: one write a minute, not one per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

// A key row is read from the cache on every request made with it: its times are parsed once per row.
const lastUsedMs = new WeakMap<ApiKeyRow, number>();
const expiresMs = new WeakMap<ApiKeyRow, number>();
const parsedOnce = (memo: WeakMap<ApiKeyRow, number>, row: ApiKeyRow, iso: string): number => {
  let ms = memo.get(row);
  if (ms === undefined) memo.set(row, (ms = Date.parse(iso)));
  return ms;
};

/** Whether a use of the key at `now` is to be recorded (last use is kept to the minute). */
export function lastUseIsStale(row: ApiKeyRow, now: Date): boolean {
  return !row.last_used_at || now.getTime() - parsedOnce(lastUsedMs, row, row.last_used_at) >= LAST_USED_RESOLUTION_MS;
}

export async function touchKey(
  ctx: { db: Kysely<Database>; now(): Date },
  row: ApiKeyRow,
  now = ctx.now(),
): Promise<void> {
  if (!lastUseIsStale(row, now)) return;
  await updateApiKey(ctx.db, row.id, { last_used_at: now.toISOString() });
}

export function assertUsable(row: ApiKeyRow, now: Date): void {
  if (row.expires_at && parsedOnce(expiresMs, row, row.expires_at) <= now.getTime()) {
    throw new HttpError('EXPIRED_API_KEY', `API key ${row.prefix}… expired at ${row.expires_at}`);
  }
  if (row.status === 'frozen') {
    throw new HttpError('KEY_FROZEN', `API key ${row.prefix}… is frozen by an administrator`);
  }
}
