import type { z } from 'zod';
import type { AdminModel } from '../../../contract/admin-models.js';
import type {
  AnthropicModelInfo,
  AnthropicModelList,
  ModelCard,
  ModelDetail,
} from '../../../contract/model-api-models.js';
import type { ModelDirectory, ModelState } from '../../engines/gateway/directory.js';
import { WEB_SEARCH_USD } from '../../engines/gateway/pricing.js';
import { takesOutputFormat, takesThinking, takesTools } from '../../engines/gateway/catalog.js';
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
    capabilities: { tools: takesTools(m), structured_output: takesOutputFormat(m), thinking: takesThinking(m) },
    pricing: {
      currency: 'USD',
      unit: 'per_million_tokens',
      input: p.input,
      output: p.output,
      cache_read: p.cache_read ?? null,
      cache_write: p.cache_write ?? null,
      web_search_per_call: WEB_SEARCH_USD,
      tiers: (m.pricing?.tiers ?? []).map((t) => ({
        above_prompt_tokens: t.above_prompt_tokens,
        input: t.input,
        output: t.output,
        cache_read: t.cache_read ?? null,
        cache_write: t.cache_write ?? null,
      })),
      per_video: m.pricing?.per_video ?? null,
      per_image: m.pricing?.per_image ?? null,
    },
  };
}

export function adminModel(m: ModelState): AdminModel {
  return {
    ...modelDetail(m),
    api: m.api,
    enabled: m.enabled,
    listed: m.listed,
    deleted: m.deleted,
    priced: m.pricing !== null,
    offered: m.offered,
  };
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
  if (!m?.offered)
    throw new HttpError('model_not_found', `The model ${id} does not exist or is not available`, { status: 404 });
  return modelDetail(m);
}

/** A model in the Anthropic shape; the catalog has no display names, so the id is the display name. */
function anthropicInfo(m: ModelState): z.infer<typeof AnthropicModelInfo> {
  return { type: 'model', id: m.id, display_name: m.id, created_at: new Date(m.created * 1000).toISOString() };
}

const ANTHROPIC_PAGE = 20;

/**
 * The model list as the Anthropic API pages it: newest first (then by id), `limit` per page
 * (default 20), `after_id` / `before_id` cursors naming the last / first model of the page seen.
 */
export async function anthropicModelPage(
  directory: ModelDirectory,
  filter: ModelFilter,
  page: { limit?: number; after_id?: string; before_id?: string },
): Promise<z.infer<typeof AnthropicModelList>> {
  const models = (await directory.all())
    .filter(
      (m) =>
        m.offered &&
        (!filter.provider || m.provider === filter.provider) &&
        !(filter.excludeVideoAndDecisions && (m.model_kind === 'video_generation' || m.model_kind === 'decisions')),
    )
    .sort((a, b) => b.created - a.created || a.id.localeCompare(b.id));
  const limit = page.limit ?? ANTHROPIC_PAGE;
  const at = (id: string) => {
    const i = models.findIndex((m) => m.id === id);
    if (i < 0) throw new HttpError('not_found', `No model ${id} to page from`, { status: 404 });
    return i;
  };
  let from = 0;
  let to = models.length;
  if (page.after_id) from = at(page.after_id) + 1;
  if (page.before_id) {
    to = at(page.before_id);
    from = Math.max(from, to - limit);
  }
  const slice = models.slice(from, Math.min(to, from + limit));
  const hasMore = page.before_id ? from > 0 : from + slice.length < to;
  return {
    data: slice.map(anthropicInfo),
    has_more: hasMore,
    first_id: slice[0]?.id ?? null,
    last_id: slice.at(-1)?.id ?? null,
  };
}

export async function anthropicModel(
  directory: ModelDirectory,
  id: string,
): Promise<z.infer<typeof AnthropicModelInfo>> {
  const m = await directory.get(id);
  if (!m?.offered)
    throw new HttpError('model_not_found', `The model ${id} does not exist or is not available`, { status: 404 });
  return anthropicInfo(m);
}
