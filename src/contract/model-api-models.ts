import { z } from 'zod';
import { textInt } from './fields.js';
import { defineRoute } from './route.js';
import { DecisionsErrorBody, OpenAIErrorBody } from './errors.js';
import { ModelId, openaiErrors } from './model-api-common.js';

/** Model discovery (spec 4.8): what models there are, in the OpenAI shape or, for its client, the Anthropic one. */

export const MODEL_KINDS = ['chat', 'image_generation', 'video_generation', 'decisions'] as const;

export const ModelCard = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
  model_kind: z.enum(MODEL_KINDS),
});

export const ModelList = z.object({ object: z.literal('list'), data: z.array(ModelCard) });

/** A model as the Anthropic API describes one: what its client reads when it lists models. */
export const AnthropicModelInfo = z.object({
  type: z.literal('model'),
  id: z.string(),
  display_name: z.string(),
  created_at: z.string().describe('RFC 3339'),
});
export const AnthropicModelList = z.object({
  data: z.array(AnthropicModelInfo),
  has_more: z.boolean(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
});

const Price = z.object({
  input: z.number(),
  output: z.number(),
  cache_read: z.number().nullable(),
  cache_write: z.number().nullable(),
});

export const ModelDetail = ModelCard.extend({
  description: z.string().nullable(),
  context_window: z.number().int(),
  max_output_tokens: z.number().int(),
  surfaces: z.array(z.string()),
  capabilities: z
    .object({ tools: z.boolean(), structured_output: z.boolean(), thinking: z.boolean() })
    .describe(
      'whether the model takes tools, answers in a given JSON format, and thinks before it answers (Messages thinking)',
    ),
  pricing: Price.extend({
    currency: z.literal('USD'),
    unit: z.literal('per_million_tokens'),
    web_search_per_call: z.number(),
    tiers: z.array(Price.extend({ above_prompt_tokens: z.number().int() })),
    per_video: z.number().nullable(),
    per_image: z.number().nullable(),
  }),
});
export type ModelDetail = z.infer<typeof ModelDetail>;

/** An invalid boolean is a 422 (spec 4.8), so only these spellings are accepted. */
const QueryBoolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const ModelListQuery = z.object({
  provider: z.string().min(1).optional(),
  exclude_video_and_decisions: QueryBoolean.default(false),
  limit: textInt({ min: 1, max: 1000 }).optional().describe('Anthropic shape only: page size (default 20)'),
  after_id: z.string().min(1).optional().describe('Anthropic shape only: the page after this model'),
  before_id: z.string().min(1).optional().describe('Anthropic shape only: the page before this model'),
});
export const ProviderQuery = z.object({ provider: z.string().min(1).optional() });
export const ModelIdParams = z.object({ model_id: ModelId });

export const listApiModels = defineRoute({
  id: 'api.models.list',
  method: 'GET',
  path: '/api/v1/models',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary:
    "Discoverable models (never calls or charges one); in the Anthropic shape, paged, when the request carries the Anthropic client's anthropic-version header",
  query: ModelListQuery,
  validationStatus: 422,
  responses: { 200: z.union([ModelList, AnthropicModelList]), 422: OpenAIErrorBody, ...openaiErrors },
});

export const listVideoModels = defineRoute({
  id: 'api.videos.models.list',
  method: 'GET',
  path: '/api/v1/videos/models',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary: 'Discoverable video_generation models',
  query: ProviderQuery,
  validationStatus: 422,
  responses: { 200: ModelList, ...openaiErrors },
});

export const listDecisionModels = defineRoute({
  id: 'api.decisions.models.list',
  method: 'GET',
  path: '/api/v1/decisions/models',
  auth: 'key',
  family: 'decisions',
  tag: 'model-api',
  summary: 'Discoverable decisions models',
  query: ProviderQuery,
  validationStatus: 422,
  responses: { 200: ModelList, 401: DecisionsErrorBody },
});

export const getApiModel = defineRoute({
  id: 'api.models.get',
  method: 'GET',
  path: '/api/v1/models/{model_id}',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary:
    'One discoverable model: kind, limits, surfaces and prices; in the Anthropic shape with the anthropic-version header',
  params: ModelIdParams,
  responses: { 200: z.union([ModelDetail, AnthropicModelInfo]), ...openaiErrors },
});
