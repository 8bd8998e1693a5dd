import { z } from 'zod';
import { defineRoute } from './route.js';
import { BetaErrorBody } from './errors.js';
import { textInt } from './fields.js';

/** Landing-page traffic (spec 4.9, 2.13): GET with a query, errors in the beta error shape. */

const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month YYYY-MM');
/** Spec 8: at most 20 rows are returned; a larger limit is accepted and billed as 20 (meta.query.limit shows 20). */
export const TRAFFIC_MAX_ROWS = 20;
/** A range is summed month by month: at most ten years of months in one request. */
export const TRAFFIC_MAX_MONTHS = 120;

export const TrafficQuery = z.object({
  domain: z.string().min(1).max(253),
  start_date: Month.describe(
    `the first month; the range runs forwards to end_date and spans at most ${TRAFFIC_MAX_MONTHS} months`,
  ),
  end_date: Month,
  granularity: z.literal('monthly').optional(),
  limit: textInt({ min: 1, max: 10_000 }).describe(
    `rows wanted; at most ${TRAFFIC_MAX_ROWS} are returned, and a larger limit is billed as ${TRAFFIC_MAX_ROWS}`,
  ),
  country: z.enum(['us', 'ww']).optional().describe('default ww'),
  web_source: z.enum(['desktop', 'mobile_web', 'total']).optional().describe('default total'),
  main_domain_only: z.enum(['true', 'false']).optional(),
  offset: textInt({ min: 0, max: 10_000 }).optional(),
  traffic_source: z.enum(['organic', 'paid', 'all']).optional().describe('default all'),
});
export type TrafficQuery = z.infer<typeof TrafficQuery>;

export const LandingPage = z.looseObject({
  url: z.string(),
  clicks: z.number(),
  traffic_share: z.number(),
  desktop_share: z.number(),
  mobile_share: z.number(),
  keywords: z.number().int(),
  top_keyword: z.string(),
  serp_features: z.union([z.array(z.string()), z.string()]),
  spend: z.string().nullable(),
  ads: z.string().nullable(),
});

export const TrafficResult = z.looseObject({
  meta: z.looseObject({
    status: z.string(),
    last_updated: z.string(),
    query: z.object({ limit: z.number().int(), offset: z.number().int(), asc: z.boolean(), sort: z.string() }),
    request: z.record(z.string(), z.unknown()),
    total_count: z.number().int(),
  }),
  data: z.array(LandingPage),
});
export type TrafficResult = z.infer<typeof TrafficResult>;

export const landingPages = defineRoute({
  id: 'beta.webanalytics.landing-pages',
  method: 'GET',
  path: '/v1/beta/webanalytics/search/landing-pages',
  auth: 'bearer-key',
  family: 'beta',
  tag: 'beta-traffic',
  summary: 'Landing pages of a domain by search clicks over a range of months',
  query: TrafficQuery,
  responses: { 200: TrafficResult, 400: BetaErrorBody, 401: BetaErrorBody },
});

export const betaTrafficRoutes = [landingPages];
