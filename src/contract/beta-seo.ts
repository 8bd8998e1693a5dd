import { z } from 'zod';
import { defineRoute } from './route.js';
import { BetaErrorBody } from './errors.js';
import { ProviderEnvelope } from './envelopes.js';
import { taskBody } from './beta-bounds.js';

/**
 * The SEO beta endpoints (spec 4.9): every one answers the provider envelope (spec 2.1), HTTP 200
 * even when a task is rejected; the outcome is in tasks[i].status_code (docs/decisions.md "Beta data").
 * Request bodies are JSON arrays of task objects; each task is checked by the service, not by the
 * route, so that a bad task becomes a task error and the others still run.
 */

/** Task status codes the local platform answers (the spec names the range 10000-60000, not the list). */
export const TASK_STATUS = {
  ok: { code: 20000, message: 'Ok.' },
  created: { code: 20100, message: 'Task Created.' },
  tooManyTasks: { code: 40000, message: 'You can set only 100 tasks at a time.' },
  notFound: { code: 40400, message: 'Not Found.' },
  invalidPath: { code: 40401, message: 'Invalid Path.' },
  postDataInvalid: { code: 40500, message: 'POST Data Is Invalid.' },
  invalidField: { code: 40501, message: 'Invalid Field' },
  invalidValue: { code: 40503, message: 'Invalid Value' },
  invalidFilter: { code: 40504, message: 'Invalid Filter' },
  invalidToken: { code: 40505, message: 'Invalid Token' },
  taskInQueue: { code: 40602, message: 'Task In Queue.' },
  internal: { code: 50000, message: 'Internal Error.' },
  upstreamFailed: { code: 50301, message: 'Upstream Provider Failed.' },
} as const;

/** Operators of the filter language (spec 4.9), the limits of spec 8. */
export const FILTER_OPERATORS = [
  '=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  'in',
  'not_in',
  'like',
  'not_like',
  'ilike',
  'not_ilike',
  'regex',
  'not_regex',
  'match',
  'not_match',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
export const MAX_FILTER_CONDITIONS = 8;
/**
 * Bounds on one task's filters beyond the spec's 8 conditions (docs/decisions.md "Bounded queries
 * and filters"): groups nested at most maxDepth deep, `in`/`not_in` lists of at most maxInValues,
 * patterns (like, regex) of at most maxPattern characters and at most maxPatternConditions of them.
 */
export const FILTER_LIMITS = { maxDepth: 8, maxInValues: 1000, maxPattern: 200, maxPatternConditions: 4 } as const;
export const MAX_ORDER_RULES = 3;
export const MAX_TAG = 255;

export const BACKLINKS_LIMITS = { maxLimit: 1000, defaultLimit: 100, maxOffset: 20000 } as const;
export const WHOIS_LIMITS = { maxLimit: 1000, defaultLimit: 100, maxOffset: 100000 } as const;
export { REVIEW_LIMITS } from './beta-reviews.js';
/** Keywords per task (spec), and in all the tasks of one request (local bound on a request's work). */
export const VOLUME_LIMITS = { maxKeywords: 1000, maxKeywordsPerRequest: 2000 } as const;

/** Loose on purpose: the service reports a bad task as a task error, not an HTTP 400. */
const TaskArray = taskBody(
  'JSON array of task objects (at most 100); anything else answers status_code 40500 in the envelope',
);

const Filters = z
  .array(z.unknown())
  .describe(
    '[field, op, value] conditions joined by "and"/"or", nested arrays for grouping; at most 8 conditions, 8 levels of groups, 1000 values in an in list, 4 like/regex conditions of at most 200 characters',
  );
const OrderBy = z.array(z.string()).describe('at most 3 "field,asc|desc" rules');
const Tag = z.string().describe('at most 255 characters');

export const BacklinksTask = z.object({
  target: z.string().describe('domain or subdomain without scheme and www, or an absolute page URL'),
  backlinks_status_type: z.enum(['all', 'live', 'lost']).optional(),
  mode: z.enum(['as_is', 'one_per_domain', 'one_per_anchor']).optional(),
  custom_mode: z.object({ field: z.string(), value: z.number().int() }).optional(),
  exclude_internal_backlinks: z.boolean().optional(),
  include_subdomains: z.boolean().optional(),
  filters: Filters.optional(),
  limit: z.number().int().optional(),
  offset: z.number().int().optional(),
  order_by: OrderBy.optional(),
  rank_scale: z.enum(['one_hundred', 'one_thousand']).optional(),
  search_after_token: z.string().optional(),
  tag: Tag.optional(),
});
export type BacklinksTask = z.infer<typeof BacklinksTask>;

export const WhoisTask = z.object({
  filters: Filters.optional(),
  limit: z.number().int().optional(),
  offset: z.number().int().optional(),
  offset_token: z.string().optional(),
  order_by: OrderBy.optional(),
  tag: Tag.optional(),
});
export type WhoisTask = z.infer<typeof WhoisTask>;

export const VolumeTask = z.object({
  keywords: z.array(z.string()),
  language_code: z.string().optional(),
  language_name: z.string().optional(),
  location_code: z.number().int().optional(),
  location_name: z.string().optional(),
  use_clickstream: z.boolean().optional(),
  tag: Tag.optional(),
});
export type VolumeTask = z.infer<typeof VolumeTask>;

// ---- result shapes (spec 2.13) ----

export const IndirectLink = z.object({
  type: z.enum(['redirect', 'canonical']),
  status_code: z.number().int(),
  url: z.string(),
});

export const BacklinkItem = z.object({
  type: z.literal('backlink'),
  domain_from: z.string(),
  domain_from_country: z.string().nullable(),
  domain_from_ip: z.string(),
  domain_from_is_ip: z.boolean(),
  domain_from_platform_type: z.array(z.string()),
  domain_from_rank: z.number(),
  page_from_rank: z.number(),
  rank: z.number(),
  backlink_spam_score: z.number(),
  url_from: z.string(),
  url_from_https: z.boolean(),
  domain_to: z.string(),
  url_to: z.string(),
  url_to_https: z.boolean(),
  tld_from: z.string(),
  url_to_status_code: z.number().int().nullable(),
  url_to_spam_score: z.number().nullable(),
  url_to_redirect_target: z.string().nullable(),
  page_from_title: z.string().nullable(),
  page_from_encoding: z.string(),
  page_from_language: z.string(),
  page_from_size: z.number().int(),
  page_from_status_code: z.number().int(),
  page_from_external_links: z.number().int(),
  page_from_internal_links: z.number().int(),
  /** Null for an imported link whose record gave no date. */
  first_seen: z.string().nullable(),
  prev_seen: z.string().nullable(),
  last_seen: z.string().nullable(),
  item_type: z.enum(['anchor', 'image', 'meta', 'canonical', 'alternate', 'redirect']),
  attributes: z.array(z.string()).nullable(),
  dofollow: z.boolean(),
  original: z.boolean(),
  is_new: z.boolean(),
  is_lost: z.boolean(),
  is_broken: z.boolean(),
  is_indirect_link: z.boolean(),
  indirect_link_path: z.array(IndirectLink).nullable(),
  alt: z.string().nullable(),
  image_url: z.string().nullable(),
  anchor: z.string().nullable(),
  text_pre: z.string().nullable(),
  text_post: z.string().nullable(),
  semantic_location: z.string().nullable(),
  links_count: z.number().int(),
  group_count: z.number().int(),
});
export type BacklinkItem = z.infer<typeof BacklinkItem>;

export const BacklinkResult = z.object({
  target: z.string(),
  mode: z.string(),
  custom_mode: z.object({ field: z.string(), value: z.number().int() }).nullable(),
  total_count: z.number().int(),
  items_count: z.number().int(),
  search_after_token: z.string().nullable(),
  items: z.array(BacklinkItem),
});
export type BacklinkResult = z.infer<typeof BacklinkResult>;

const RankBuckets = {
  pos_1: z.number().int(),
  pos_2_3: z.number().int(),
  pos_4_10: z.number().int(),
  pos_11_20: z.number().int(),
  pos_21_30: z.number().int(),
  pos_31_40: z.number().int(),
  pos_41_50: z.number().int(),
  pos_51_60: z.number().int(),
  pos_61_70: z.number().int(),
  pos_71_80: z.number().int(),
  pos_81_90: z.number().int(),
  pos_91_100: z.number().int(),
};
export const SearchMetrics = z.object({
  count: z.number().int(),
  etv: z.number(),
  estimated_paid_traffic_cost: z.number(),
  ...RankBuckets,
});

/**
 * backlinks_info's inner names (the spec lists the facts, not the names; docs/decisions.md): counts
 * over the domain's live backlinks with the backlinks endpoint's defaults (internal excluded,
 * subdomains included), so they agree with that list.
 */
export const BacklinksInfo = z.object({
  backlinks: z.number().int(),
  dofollow: z.number().int(),
  referring_domains: z.number().int(),
  referring_main_domains: z.number().int(),
  referring_pages: z.number().int(),
  time_update: z.string(),
});

export const WhoisItem = z.object({
  domain: z.string(),
  created_datetime: z.string().nullable(),
  changed_datetime: z.string().nullable(),
  expiration_datetime: z.string().nullable(),
  updated_datetime: z.string().nullable(),
  first_seen: z.string().nullable(),
  epp_status_codes: z.array(z.string()),
  tld: z.string(),
  registered: z.boolean(),
  registrar: z.string().nullable(),
  metrics: z.object({ organic: SearchMetrics, paid: SearchMetrics }),
  backlinks_info: BacklinksInfo,
});
export type WhoisItem = z.infer<typeof WhoisItem>;

export const WhoisResult = z.object({
  total_count: z.number().int(),
  items_count: z.number().int(),
  offset: z.number().int(),
  offset_token: z.string().nullable(),
  items: z.array(WhoisItem),
});
export type WhoisResult = z.infer<typeof WhoisResult>;

export const MonthlySearch = z.object({
  year: z.number().int(),
  month: z.number().int(),
  search_volume: z.number().int(),
});
export const VolumeItem = z.object({
  keyword: z.string(),
  use_clickstream: z.boolean(),
  search_volume: z.number().int(),
  monthly_searches: z.array(MonthlySearch),
});
export const VolumeResult = z.object({
  location_code: z.number().int(),
  language_code: z.string(),
  items_count: z.number().int(),
  items: z.array(VolumeItem),
});
export type VolumeResult = z.infer<typeof VolumeResult>;

const errors = { 400: BetaErrorBody, 401: BetaErrorBody, 403: BetaErrorBody } as const;

export const BACKLINKS_PATH = '/v1/beta/seo/backlinks/backlinks/live';
export const WHOIS_PATH = '/v1/beta/seo/domain_analytics/whois/overview/live';
export const VOLUME_PATH = '/v1/beta/seo/keywords_data/clickstream_data/seo_search_volume/live';

export const backlinks = defineRoute({
  id: 'beta.seo.backlinks',
  method: 'POST',
  path: BACKLINKS_PATH,
  auth: 'bearer-key',
  family: 'beta',
  tag: 'beta-seo',
  summary: "Backlinks of a domain, subdomain or page (the path is the local platform's choice, docs/decisions.md)",
  body: TaskArray,
  responses: { 200: ProviderEnvelope, ...errors },
});

export const whois = defineRoute({
  id: 'beta.seo.whois',
  method: 'POST',
  path: WHOIS_PATH,
  auth: 'bearer-key',
  family: 'beta',
  tag: 'beta-seo',
  summary: 'Whois overview of domains with organic and paid metrics and backlink counts',
  body: TaskArray,
  responses: { 200: ProviderEnvelope, ...errors },
});

export const volume = defineRoute({
  id: 'beta.seo.volume',
  method: 'POST',
  path: VOLUME_PATH,
  auth: 'bearer-key',
  family: 'beta',
  tag: 'beta-seo',
  summary: 'Search volume of keywords with monthly history',
  body: TaskArray,
  responses: { 200: ProviderEnvelope, ...errors },
});

export const betaSeoRoutes = [backlinks, whois, volume];
