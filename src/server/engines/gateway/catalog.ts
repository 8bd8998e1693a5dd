import { readFileSync } from 'node:fs';
import { z } from 'zod';
import shipped from './catalog.json' with { type: 'json' };

/** Prices in USD per million tokens (spec 8, "Model pricing"). Absent cache rates bill at 0. */
const PriceRow = z.object({
  input: z.number().min(0),
  output: z.number().min(0),
  cache_read: z.number().min(0).optional(),
  cache_write: z.number().min(0).optional(),
});

export const Pricing = PriceRow.extend({
  /** Above this many prompt tokens the whole request is billed at the tier's rates. */
  tiers: z.array(PriceRow.extend({ above_prompt_tokens: z.number().int().positive() })).optional(),
  /** Flat price of one generated video, for video_generation models. */
  per_video: z.number().min(0).optional(),
  /** USD per generated image, on top of the prompt's tokens. */
  per_image: z.number().min(0).optional(),
});
export type Pricing = z.infer<typeof Pricing>;

export const MODEL_KINDS = ['chat', 'image_generation', 'video_generation', 'decisions'] as const;
export const SURFACES = ['responses', 'chat', 'messages', 'images', 'videos', 'decisions'] as const;
export type Surface = (typeof SURFACES)[number];

export const CatalogModel = z.object({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/),
  /** Who offers the model: owned_by in listings, and the `provider` filter. */
  provider: z.string().min(1),
  /** How it is reached: a local engine, an upstream speaking one of two wire formats, or nothing yet. */
  api: z.enum(['local', 'openai', 'anthropic', 'none']),
  /** Which local engine answers (api local). */
  engine: z.enum(['grounded', 'echo', 'agent', 'illustration']).optional(),
  /** Whether the model takes tools (function calling); default: yes for upstream models, no for local ones. */
  tools: z.boolean().optional(),
  /** Whether it answers in a given JSON format; default: yes for OpenAI-compatible upstreams, no otherwise. */
  structured_output: z.boolean().optional(),
  /** Whether Messages' `thinking` may be asked for (a local engine writes the thinking block); default no. */
  thinking: z.boolean().optional(),
  /** The model name sent upstream, when it differs from id (for example an Ollama tag). */
  upstream_model: z.string().min(1).optional(),
  model_kind: z.enum(MODEL_KINDS),
  description: z.string().optional(),
  created: z.number().int().nonnegative(),
  context_window: z.number().int().positive(),
  max_output_tokens: z.number().int().nonnegative(),
  surfaces: z.array(z.enum(SURFACES)),
  /** null: no current price, so the model is not offered. */
  pricing: Pricing.nullable(),
  enabled: z.boolean(),
  listed: z.boolean(),
  deleted: z.boolean(),
});
export type CatalogModel = z.infer<typeof CatalogModel>;

export function takesTools(m: Pick<CatalogModel, 'api' | 'tools'>): boolean {
  return m.tools ?? (m.api === 'openai' || m.api === 'anthropic');
}

/** The Messages wire format has no JSON output mode, so only OpenAI-compatible upstreams default to one. */
export function takesOutputFormat(m: Pick<CatalogModel, 'api' | 'structured_output'>): boolean {
  return m.structured_output ?? m.api === 'openai';
}

export function takesThinking(m: Pick<CatalogModel, 'thinking'>): boolean {
  return m.thinking ?? false;
}

export const CatalogFile = z.object({ version: z.literal(1), models: z.array(CatalogModel) });

export interface Catalog {
  models: CatalogModel[];
  get(id: string): CatalogModel | undefined;
}

function index(models: CatalogModel[]): Catalog {
  const byId = new Map<string, CatalogModel>();
  for (const m of models) {
    if (byId.has(m.id)) throw new Error(`catalog: model ${m.id} appears twice`);
    if (m.api === 'local' && !m.engine) throw new Error(`catalog: local model ${m.id} names no engine`);
    byId.set(m.id, m);
  }
  return { models, get: (id) => byId.get(id) };
}

/** The catalog shipped in the package, or a replacement file (`facet serve --catalog FILE`). */
export function loadCatalog(file?: string): Catalog {
  const raw: unknown = file ? JSON.parse(readFileSync(file, 'utf8')) : shipped;
  const parsed = CatalogFile.safeParse(raw);
  if (!parsed.success)
    throw new Error(`catalog${file ? ` ${file}` : ''} is not valid: ${z.prettifyError(parsed.error)}`);
  return index(parsed.data.models);
}
