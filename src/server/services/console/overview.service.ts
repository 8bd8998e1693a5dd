import type { AppContext } from '../../context.js';
import type { ApiKeyInfo } from '../../../contract/image-auth.js';
import type { UserRow } from '../../store/users.repo.js';
import { dailyUsage, type DailyUsageRow } from '../../store/console.repo.js';
import { findKeysByIds } from '../../store/api-keys.repo.js';
import * as keys from '../keys.service.js';
import { HttpError, notFound } from '../../errors.js';
import type { AuditActor } from '../audit.service.js';

/** Keys an administrator's console lists at once (the API pages through more). */
export const CONSOLE_KEYS_LIMIT = 200;
/** Days of usage the charts cover, today included. */
export const USAGE_DAYS = 30;

const NANO = 1_000_000_000;

/** Administrators see every user's keys, anyone else their own. */
export async function visibleKeys(ctx: AppContext, user: UserRow): Promise<{ keys: ApiKeyInfo[]; more: boolean }> {
  if (user.role === 'admin') {
    const page = await keys.listKeysPage(ctx, { limit: CONSOLE_KEYS_LIMIT });
    return { keys: page.keys, more: page.nextCursor !== null };
  }
  const page = await keys.listKeysPage(ctx, { userId: user.id, limit: CONSOLE_KEYS_LIMIT });
  return { keys: page.keys, more: page.nextCursor !== null };
}

export type KeyAction = 'freeze' | 'unfreeze' | 'delete';

/** Freezing is the administrators' (as in the API); anyone may delete their own keys. */
export function allowedActions(user: UserRow, key: ApiKeyInfo): KeyAction[] {
  const admin = user.role === 'admin';
  if (!admin && key.user_id !== user.id) return [];
  const out: KeyAction[] = [];
  if (admin) out.push(key.status === 'frozen' ? 'unfreeze' : 'freeze');
  out.push('delete');
  return out;
}

/** The key an action is asked for, when the user may act on it; null answers like a missing key. */
export async function keyFor(ctx: AppContext, user: UserRow, keyId: string): Promise<ApiKeyInfo | null> {
  const [row] = await findKeysByIds(ctx.db, [keyId]);
  if (!row || row.deleted_at) return null;
  if (user.role !== 'admin' && row.user_id !== user.id) return null;
  return keys.keyInfo(row);
}

/** Acts on a key the user may act on; another user's key answers like a missing one, as in the API. */
export async function applyKeyAction(
  ctx: AppContext,
  user: UserRow,
  keyId: string,
  action: KeyAction,
  actor: AuditActor,
): Promise<void> {
  const key = await keyFor(ctx, user, keyId);
  if (!key) throw notFound(`API key ${keyId}`);
  if (!allowedActions(user, key).includes(action))
    throw new HttpError('FORBIDDEN', `Only an administrator may ${action} a key`);
  if (action === 'delete') return keys.deleteKey(ctx, keyId, user.role === 'admin' ? null : user.id, actor);
  await keys.setFrozen(ctx, keyId, action === 'freeze', actor);
}

export interface Series {
  label: string;
  /** One value per day of `days`. */
  values: number[];
}

export interface UsageCharts {
  days: string[];
  costByKey: Series[];
  tokensByModel: Series[];
  totals: { calls: number; tokens: number; costUsd: number };
}

function pivot(
  rows: DailyUsageRow[],
  days: string[],
  pick: (r: DailyUsageRow) => number,
  label: (series: string) => string,
): Series[] {
  const index = new Map(days.map((d, i) => [d, i]));
  const out = new Map<string, number[]>();
  for (const r of rows) {
    let values = out.get(r.series);
    if (!values) out.set(r.series, (values = days.map(() => 0)));
    const i = index.get(r.day);
    if (i !== undefined) values[i] += pick(r);
  }
  return [...out.entries()]
    .map(([series, values]) => ({ label: label(series), values }))
    .sort((a, b) => sum(b.values) - sum(a.values));
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Cost per day per key and tokens per day per model over the last USAGE_DAYS days, from the daily rollups. */
export async function usageCharts(ctx: AppContext, user: UserRow): Promise<UsageCharts> {
  const today = Date.UTC(ctx.now().getUTCFullYear(), ctx.now().getUTCMonth(), ctx.now().getUTCDate());
  const days = Array.from({ length: USAGE_DAYS }, (_, i) =>
    new Date(today - (USAGE_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
  const filter = { userId: user.role === 'admin' ? undefined : user.id, sinceDay: days[0] };
  const [byKey, byModel] = await Promise.all([
    dailyUsage(ctx.db, 'api_key_id', filter),
    dailyUsage(ctx.db, 'model', filter),
  ]);
  const names = new Map(
    (await findKeysByIds(ctx.db, [...new Set(byKey.map((r) => r.series).filter((s) => s !== ''))])).map((k) => [
      k.id,
      `${k.name} (${k.prefix}…)`,
    ]),
  );
  return {
    days,
    costByKey: pivot(
      byKey,
      days,
      (r) => r.cost_nano_usd / NANO,
      (id) => (id === '' ? 'without a key' : (names.get(id) ?? id)),
    ),
    tokensByModel: pivot(
      byModel,
      days,
      (r) => r.tokens,
      (m) => m,
    ),
    totals: {
      calls: sum(byModel.map((r) => r.calls)),
      tokens: sum(byModel.map((r) => r.tokens)),
      costUsd: sum(byModel.map((r) => r.cost_nano_usd)) / NANO,
    },
  };
}
