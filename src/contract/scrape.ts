import { z } from 'zod';
import { defineRoute } from './route.js';
import { BetaErrorBody } from './errors.js';
import { absoluteUrl } from './fields.js';

/** An https URL that is not a PDF (batch scrape reads HTML pages only, spec 4.9). */
// zod runs every refine even after one failed, so this one must not assume a parseable URL.
const HttpsPage = absoluteUrl(['https:'], 'must be an absolute https URL').refine(
  (s) => !URL.canParse(s) || !/\.pdf$/i.test(new URL(s).pathname),
  'PDF is not supported',
);

const Tag = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z][A-Za-z0-9-]*$/, 'must be an HTML tag name such as article or nav');
const Age = z.number().int().min(0).max(31_536_000_000);

export const BatchScrapeRequest = z.object({
  urls: z
    .array(HttpsPage)
    .min(1)
    .max(1000)
    .superRefine((urls, ctx) => {
      const seen = new Set<string>();
      urls.forEach((u, i) => {
        if (seen.has(u))
          ctx.addIssue({ code: 'custom', message: `duplicate URL ${u}; urls must be unique`, path: [i] });
        seen.add(u);
      });
    })
    .meta({ uniqueItems: true }),
  /** Pages fetched at once (default 10). */
  maxConcurrency: z.number().int().min(1).max(20).default(10),
  /** Readability's main content instead of the whole cleaned page (default false). */
  onlyMainContent: z.boolean().default(false),
  includeTags: z.array(Tag).max(50).optional(),
  excludeTags: z.array(Tag).max(50).optional(),
  /** A cached extraction at most this old (ms) is used instead of fetching (default 0: always fetch). */
  maxAge: Age.default(0),
  /** ... and at least this old (default 0). */
  minAge: Age.default(0),
  /** Per page, ms (default 30000). */
  timeout: z.number().int().min(1000).max(300_000).default(30_000),
});
export type BatchScrapeRequest = z.infer<typeof BatchScrapeRequest>;

/** Idempotency-Key: 1-191 characters, bare or as a quoted string (draft-ietf-httpapi-idempotency-key-header). */
export const IdempotencyHeaders = z.object({
  'idempotency-key': z.preprocess(
    (v) => (typeof v === 'string' && /^".*"$/.test(v) ? v.slice(1, -1) : v),
    z
      .string({ error: (i) => (i.input === undefined ? 'the Idempotency-Key header is required' : undefined) })
      .min(1)
      .max(191)
      .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII without spaces'),
  ),
});

export const ScrapePageResult = z.object({
  url: z.string(),
  status: z.enum(['success', 'failed']),
  title: z.string().optional(),
  description: z.string().optional(),
  markdown: z.string().optional(),
  finalUrl: z.string().optional(),
  cached: z.boolean().optional(),
  warnings: z.array(z.string()).optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type ScrapePageResult = z.infer<typeof ScrapePageResult>;

export const BatchScrapeOutput = z.object({
  total: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  data: z.array(ScrapePageResult),
});

/** Spec 2.13's async job; `progress` is the local platform's addition. */
export const AsyncJob = z.object({
  id: z.string(),
  object: z.literal('integration_async_job'),
  endpoint: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  pricing: z.object({
    currency: z.string(),
    authorizedMicrosUSD: z.number().int(),
    finalMicrosUSD: z.number().int().nullable(),
    billingMode: z.string(),
  }),
  output: BatchScrapeOutput.nullable(),
  outputExpired: z.boolean(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  progress: z.object({ total: z.number().int(), done: z.number().int(), failed: z.number().int() }),
});
export type AsyncJob = z.infer<typeof AsyncJob>;

export const JobParams = z.object({ id: z.string().min(1).max(100) });

const base = { auth: 'bearer-key', family: 'beta', tag: 'beta-scrape' } as const;
const errors = {
  400: BetaErrorBody,
  401: BetaErrorBody,
  403: BetaErrorBody,
  404: BetaErrorBody,
  500: BetaErrorBody,
} as const;

export const createBatchScrape = defineRoute({
  ...base,
  id: 'beta.scrape.batch',
  method: 'POST',
  path: '/v1/beta/scrape/batch-scrape',
  summary: 'Scrape 1-1000 HTTPS pages as an async job (header Idempotency-Key required)',
  body: BatchScrapeRequest,
  headers: IdempotencyHeaders,
  responses: { 202: AsyncJob, ...errors, 409: BetaErrorBody, 422: BetaErrorBody },
});
export const getBatchScrape = defineRoute({
  ...base,
  id: 'beta.scrape.batch.get',
  method: 'GET',
  path: '/v1/beta/scrape/batch-scrape/{id}',
  summary: 'Poll a batch scrape job (local: the Location of the create)',
  params: JobParams,
  responses: { 200: AsyncJob, ...errors },
});
export const cancelBatchScrape = defineRoute({
  ...base,
  id: 'beta.scrape.batch.cancel',
  method: 'POST',
  path: '/v1/beta/scrape/batch-scrape/{id}/cancel',
  summary: 'Cancel a batch scrape job; pages not yet scraped are not fetched',
  params: JobParams,
  responses: { 200: AsyncJob, ...errors },
});

export const scrapeRoutes = [createBatchScrape, getBatchScrape, cancelBatchScrape];
