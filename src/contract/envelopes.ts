import { z } from 'zod';

/** v2 success envelope (spec 2.1). */
export function v2Envelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('ok'), message: z.null(), data });
}

/** v2 paged list data: total, page, size, items. */
export function v2Page<T extends z.ZodType>(item: T) {
  return z.object({ total: z.number().int(), page: z.number().int(), size: z.number().int(), items: z.array(item) });
}

/**
 * Provider envelope of the beta data endpoints (spec 2.1). Loose objects: an upstream provider's
 * answers pass through unchanged, and its fields may grow.
 */
export const ProviderTask = z.looseObject({
  id: z.string(),
  status_code: z.number().int().min(10000).max(60000),
  status_message: z.string(),
  time: z.string(),
  cost: z.number(),
  result_count: z.number().int(),
  path: z.array(z.string()),
  data: z.unknown(),
  result: z.array(z.unknown()).nullable(),
});

export const ProviderEnvelope = z.looseObject({
  version: z.string(),
  status_code: z.number().int(),
  status_message: z.string(),
  time: z.string(),
  cost: z.number(),
  tasks_count: z.number().int(),
  tasks_error: z.number().int(),
  tasks: z.array(ProviderTask),
});
