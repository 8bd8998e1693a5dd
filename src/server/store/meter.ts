import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import { insertUsage } from './usage.repo.js';

export interface MeterInput {
  apiKeyId: string | null;
  userId: string;
  taskId?: string | null;
  model: string;
  /** What kind of call it was: chat, responses, illustration, retrieval, ... */
  operation: string;
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  webSearches?: number;
  costUsd: number;
}

/** Costs are stored in nano-dollars: whole numbers, summed exactly. */
const NANO = 1_000_000_000;

function count(value: number | undefined, name: string): number {
  const n = value ?? 0;
  if (!Number.isInteger(n) || n < 0) throw new Error(`meter: ${name} must be a whole number >= 0, got ${value}`);
  return n;
}

/** What metering needs: the store, the clock, and where metered calls are counted (metrics). */
export interface MeterContext {
  db: Kysely<Database>;
  now(): Date;
  metrics?: { metered(input: MeterInput): void };
}

/**
 * The one metering function: every model-like operation of the platform records its call here,
 * and /admin/api-key-usage reports from what it wrote.
 */
export async function meter(ctx: MeterContext, input: MeterInput): Promise<void> {
  if (!(input.costUsd >= 0) || !Number.isFinite(input.costUsd)) throw new Error(`meter: bad cost ${input.costUsd}`);
  await insertUsage(ctx.db, {
    api_key_id: input.apiKeyId,
    user_id: input.userId,
    task_id: input.taskId ?? null,
    model: input.model,
    operation: input.operation,
    input_tokens: count(input.inputTokens, 'inputTokens'),
    output_tokens: count(input.outputTokens, 'outputTokens'),
    cache_read_tokens: count(input.cacheReadTokens, 'cacheReadTokens'),
    cache_write_tokens: count(input.cacheWriteTokens, 'cacheWriteTokens'),
    web_searches: count(input.webSearches, 'webSearches'),
    cost_nano_usd: Math.round(input.costUsd * NANO),
    created_at: ctx.now().toISOString(),
  });
  ctx.metrics?.metered(input);
}
