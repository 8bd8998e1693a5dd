import type { UsageCounters, UsageResponse } from '../../contract/image-admin.js';
import type { Ctx } from './users.service.js';
import { sumUsageByKeyAndModel, type UsageFilter, type UsageGroupRow } from '../store/usage.repo.js';
import { findKeysByIds } from '../store/api-keys.repo.js';

const NANO = 1_000_000_000;

/** The summable counters of a usage group. */
type Acc = Omit<UsageGroupRow, 'api_key_id' | 'user_id' | 'model' | 'first_call_at' | 'last_call_at'>;

const zero = (): Acc => ({
  calls: 0,
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  web_searches: 0,
  cost_nano_usd: 0,
});

function add(acc: Acc, row: Acc): void {
  for (const k of Object.keys(acc) as Array<keyof Acc>) acc[k] += row[k];
}

function counters(acc: Acc): UsageCounters {
  return {
    calls: acc.calls,
    input_tokens: acc.input_tokens,
    output_tokens: acc.output_tokens,
    cache_read_tokens: acc.cache_read_tokens,
    cache_write_tokens: acc.cache_write_tokens,
    total_tokens: acc.input_tokens + acc.output_tokens + acc.cache_read_tokens + acc.cache_write_tokens,
    web_searches: acc.web_searches,
    cost_usd: acc.cost_nano_usd / NANO,
  };
}

/** Usage per key (most expensive first, up to limit) with a per-model breakdown and totals. */
export async function usageReport(ctx: Ctx, filter: UsageFilter & { limit: number }): Promise<UsageResponse> {
  const rows = await sumUsageByKeyAndModel(ctx.db, filter);
  const groups = new Map<
    string,
    { keyId: string | null; userId: string; acc: Acc; first: string; last: string; models: UsageGroupRow[] }
  >();
  const total = zero();
  for (const row of rows) {
    const id = `${row.api_key_id ?? ''}\u0000${row.user_id}`;
    let g = groups.get(id);
    if (!g) {
      g = {
        keyId: row.api_key_id,
        userId: row.user_id,
        acc: zero(),
        first: row.first_call_at,
        last: row.last_call_at,
        models: [],
      };
      groups.set(id, g);
    }
    add(g.acc, row);
    add(total, row);
    if (row.first_call_at < g.first) g.first = row.first_call_at;
    if (row.last_call_at > g.last) g.last = row.last_call_at;
    g.models.push(row);
  }
  const keyIds = [...groups.values()].map((g) => g.keyId).filter((k): k is string => k !== null);
  const keys = new Map((await findKeysByIds(ctx.db, keyIds)).map((k) => [k.id, k]));
  const sorted = [...groups.values()].sort(
    (a, b) =>
      b.acc.cost_nano_usd - a.acc.cost_nano_usd ||
      b.acc.calls - a.acc.calls ||
      (a.keyId ?? '').localeCompare(b.keyId ?? ''),
  );
  return {
    filters: {
      api_key_id: filter.apiKeyId ?? null,
      user_id: filter.userId ?? null,
      task_id: filter.taskId ?? null,
      limit: filter.limit,
    },
    keys: sorted.slice(0, filter.limit).map((g) => ({
      api_key_id: g.keyId,
      key_name: g.keyId ? (keys.get(g.keyId)?.name ?? null) : null,
      key_prefix: g.keyId ? (keys.get(g.keyId)?.prefix ?? null) : null,
      user_id: g.userId,
      first_call_at: g.first,
      last_call_at: g.last,
      ...counters(g.acc),
      models: g.models
        .sort((a, b) => b.cost_nano_usd - a.cost_nano_usd || a.model.localeCompare(b.model))
        .map((m) => ({ model: m.model, ...counters(m) })),
    })),
    totals: counters(total),
  };
}
