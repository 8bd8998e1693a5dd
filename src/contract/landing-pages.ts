import { z } from 'zod';
import { defineRoute } from './route.js';
import { textInt, NOT_BLANK } from './fields.js';
import { V2ErrorBody } from './errors.js';
import { v2Envelope, v2Page } from './envelopes.js';
import { PAGE_RESPONSES, PageLinkQuery } from './pages.js';

/**
 * POST /v2/landing_page (spec 4.5; errors of spec 7.2: INSUFFICIENT_CREDITS 402, LIVEDOC_NOT_FOUND
 * 404, LIVEDOC_CREATE_FAILED and LANDING_PAGE_TASK_CREATE_FAILED 502) and what the local platform decides around it (docs/decisions.md,
 * "Landing pages"): the price in credits, the accepted stream protocols, the multipart part names,
 * and the credit ledger a user reads their charges from.
 */

/** Credits one landing page costs, taken when the task is created; a FAILED task gives them back. */
export const LANDING_PAGE_CREDITS = 10;

/** The only protocol the platform speaks (the spec's default); any other value is a 400 naming it. */
export const STREAM_PROTOCOLS = ['message_center_v1'] as const;

export const LANDING_PAGE_LIMITS = { queryChars: 2000, resourceIds: 50 } as const;

export const LandingPageRequest = z
  .strictObject({
    query: z
      .string()
      .trim()
      .min(1, 'query must not be empty')
      .max(LANDING_PAGE_LIMITS.queryChars, `query is at most ${LANDING_PAGE_LIMITS.queryChars} characters`)
      .meta(NOT_BLANK),
    stream_protocol: z
      .enum(STREAM_PROTOCOLS, { message: `stream_protocol must be one of: ${STREAM_PROTOCOLS.join(', ')}` })
      .default('message_center_v1'),
    livedoc_short_id: z.string().min(1).max(100).optional(),
    resource_ids: z.array(z.string().min(1).max(100)).min(1).max(LANDING_PAGE_LIMITS.resourceIds).optional(),
  })
  // A JSON body has no file to build from: it names a LiveDoc (which resource_ids select from); the service says so in its own words.
  .meta({ required: ['query', 'livedoc_short_id'] });
export type LandingPageRequest = z.infer<typeof LandingPageRequest>;

/** Multipart: the text fields and ONE file part, named `file` (the spec does not name it). */
export const LandingPageForm = {
  files: { file: 1 },
  fields: ['query', 'stream_protocol', 'livedoc_short_id'],
} as const;

export const LandingPageCreated = z.object({ task_id: z.string() });

/** Headers of the create answer: what the page cost and the balance left (as social search's). */
export const LANDING_PAGE_CREDIT_HEADERS = { cost: 'x-credits-cost', remaining: 'x-credits-remaining' } as const;

const errors = {
  400: V2ErrorBody,
  401: V2ErrorBody,
  402: V2ErrorBody,
  404: V2ErrorBody,
  413: V2ErrorBody,
  502: V2ErrorBody,
} as const;

export const createLandingPage = defineRoute({
  id: 'landingPages.create',
  method: 'POST',
  path: '/v2/landing_page',
  auth: 'bearer-key',
  family: 'v2',
  tag: 'landing-pages',
  summary: `Start a landing-page task (costs ${LANDING_PAGE_CREDITS} credits): JSON, or multipart with query and one file part named "file"`,
  body: LandingPageRequest,
  bodyType: 'json-or-multipart',
  form: LandingPageForm,
  responses: { 200: v2Envelope(LandingPageCreated), ...errors },
});

export const LedgerEntry = z.object({
  id: z.string(),
  delta: z.number().int().describe('credits taken (negative) or given back (positive)'),
  balance_after: z.number().int(),
  reason: z.string().describe('landing_page, landing_page_refund'),
  task_id: z.string().nullable(),
  created_at: z.string(),
});
export const LedgerQuery = z.object({
  page: textInt({ min: 1, max: 100_000, default: 1 }),
  size: textInt({ min: 1, max: 100, default: 20 }),
});

/** The local platform's addition: the caller's own credit ledger, newest first. */
export const creditLedger = defineRoute({
  id: 'credits.ledger',
  method: 'GET',
  path: '/v2/credits/ledger',
  auth: 'bearer-key',
  family: 'v2',
  tag: 'landing-pages',
  summary: "The caller's credit charges and refunds, newest first",
  query: LedgerQuery,
  responses: { 200: v2Envelope(v2Page(LedgerEntry)), 400: V2ErrorBody, 401: V2ErrorBody },
});

/**
 * The page itself, opened in a browser through the expiring signed link the task's historical
 * record gives (ai_page_html); served with a Content-Security-Policy that forbids every network
 * load. Errors are HTML pages, as for every page of the platform (contract/pages.ts).
 */
export const landingPageView = defineRoute({
  id: 'pages.landingPage',
  method: 'GET',
  path: '/pages/{biz_id}',
  auth: 'none',
  family: 'image',
  tag: 'pages',
  summary: 'A landing page: one self-contained HTML file (signed link)',
  params: z.object({ biz_id: z.string().min(1).max(100) }),
  query: PageLinkQuery,
  responses: PAGE_RESPONSES,
});

export const landingPageRoutes = [createLandingPage, creditLedger, landingPageView];
