import type { z } from 'zod';
import type { AdminModel } from '../../../contract/admin-models.js';
import type { ModelCard, ModelDetail } from '../../../contract/model-api.js';
import type { ModelDirectory, ModelState } from '../../engines/gateway/directory.js';
import { WEB_SEARCH_USD } from '../../engines/gateway/pricing.js';
import { HttpError } from '../../errors.js';

export function modelCard(m: ModelState): z.infer<typeof ModelCard> {
  return { id: m.id, object: 'model', created: m.created, owned_by: m.provider, model_kind: m.model_kind };
}

export function modelDetail(m: ModelState): ModelDetail {
  const p = m.pricing ?? { input: 0, output: 0 };
  return {
    ...modelCard(m),
    description: m.description ?? null,
    context_window: m.context_window,
    max_output_tokens: m.max_output_tokens,
    surfaces: m.surfaces,
    pricing: {
      currency: 'USD',
      unit: 'per_million_tokens',
      input: p.input,
      output: p.output,
      cache_read: p.cache_read ?? null,
      cache_write: p.cache_write ?? null,
      web_search_per_call: WEB_SEARCH_USD,
      tiers: (m.pricing?.tiers ?? []).map((t) => ({ above_prompt_tokens: t.above_prompt_tokens, input: t.input, output: t.output, cache_read: t.cache_read ?? null, cache_write: t.cache_write ?? null })),
      per_video: m.pricing?.per_video ?? null,
      per_image: m.pricing?.per_image ?? null,
    },
  };
}

export function adminModel(m: ModelState): AdminModel {
  return { ...modelDetail(m), api: m.api, enabled: m.enabled, listed: m.listed, deleted: m.deleted, priced: m.pricing !== null, offered: m.offered };
}

export interface ModelFilter {
  provider?: string;
  kinds?: ReadonlyArray<ModelState['model_kind']>;
  excludeVideoAndDecisions?: boolean;
}

/** Discovery reads the catalog only: it never calls or charges a model. */
export async function discoverModels(directory: ModelDirectory, filter: ModelFilter) {
  const models = (await directory.all()).filter(
    (m) =>
      m.offered &&
      (!filter.provider || m.provider === filter.provider) &&
      (!filter.kinds || filter.kinds.includes(m.model_kind)) &&
      !(filter.excludeVideoAndDecisions && (m.model_kind === 'video_generation' || m.model_kind === 'decisions')),
  );
  return { object: 'list' as const, data: models.map(modelCard) };
}

export async function discoverModel(directory: ModelDirectory, id: string): Promise<ModelDetail> {
  const m = await directory.get(id);
  if (!m?.offered) throw new HttpError('model_not_found', `The model ${id} does not exist or is not available`, { status: 404 });
  return modelDetail(m);
}
