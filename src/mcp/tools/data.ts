import { z } from 'zod';
import { TASK_STATUS } from '../../contract/beta-seo.js';
import type { Envelope } from '../../client/beta.js';
import { PlatformOutcomeError } from '../errors.js';
import { defineTool } from '../tool.js';
import { waitFor } from '../wait.js';

/** The first task's result of a provider envelope, or its refusal as a tool error (HTTP was 200). */
function taskResult(env: Envelope): unknown[] {
  if (env.status_code >= 40000) throw new PlatformOutcomeError(`PROVIDER_${env.status_code}`, env.status_message);
  const task = env.tasks[0];
  if (!task) throw new PlatformOutcomeError('PROVIDER_NO_TASK', 'the provider answered without a task');
  if (task.status_code >= 40000) throw new PlatformOutcomeError(`TASK_${task.status_code}`, task.status_message);
  return task.result ?? [];
}

const Backlink = z.looseObject({
  url_from: z.string(),
  url_to: z.string(),
  domain_from: z.string(),
  anchor: z.string().nullable(),
  dofollow: z.boolean(),
  rank: z.number(),
  page_from_title: z.string().nullable(),
  first_seen: z.string().nullable(),
  last_seen: z.string().nullable(),
});

export const seoBacklinks = defineTool({
  name: 'seo_backlinks',
  title: 'Backlinks of a site',
  description:
    'The pages that link to a domain, subdomain or page (target without scheme or www, or an absolute page URL): linking URL, anchor text, dofollow, rank, first and last seen. Beta data.',
  input: z.object({
    target: z.string().min(1).max(2000),
    limit: z.number().int().min(1).max(1000).default(20),
    mode: z
      .enum(['as_is', 'one_per_domain', 'one_per_anchor'])
      .default('as_is')
      .describe('one_per_domain: one backlink per linking domain'),
    status: z.enum(['all', 'live', 'lost']).default('live'),
  }),
  output: z.object({
    target: z.string(),
    total_count: z.number().int(),
    items_count: z.number().int(),
    items: z.array(Backlink),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run(args, { api }) {
    const env = await api.beta.backlinks([
      { target: args.target, limit: args.limit, mode: args.mode, backlinks_status_type: args.status },
    ]);
    const result = taskResult(env)[0] as { target: string; total_count: number; items_count: number; items: unknown[] };
    return {
      structured: {
        target: result.target,
        total_count: result.total_count,
        items_count: result.items_count,
        items: result.items as Array<z.infer<typeof Backlink>>,
      },
    };
  },
});

export const financialStatements = defineTool({
  name: 'financial_statements',
  title: 'Income statements of a company',
  description:
    "A listed company's income statements by ticker (revenue, gross profit, operating income, net income, EPS...), newest period first: annual, quarterly or trailing twelve months. Beta data.",
  input: z.object({
    ticker: z.string().min(1).max(10).describe('the stock ticker, e.g. AAPL'),
    period: z.enum(['annual', 'quarterly', 'ttm']).default('annual'),
    limit: z.number().int().min(1).max(120).default(4).describe('periods to return'),
  }),
  output: z.object({
    income_statements: z.array(
      z.looseObject({
        ticker: z.string(),
        report_period: z.string(),
        period: z.string(),
        currency: z.string(),
        revenue: z.number(),
        net_income: z.number(),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run(args, { api }) {
    const data = await api.beta.incomeStatements({ ticker: args.ticker, period: args.period, limit: args.limit });
    return { structured: { income_statements: data.income_statements } };
  },
});

const Review = z.looseObject({
  rating: z.looseObject({ value: z.number() }),
  timestamp: z.string(),
  review_text: z.string(),
});

export const reviewsSearch = defineTool({
  name: 'reviews_search',
  title: 'Reviews of a business',
  description:
    'Collect the customer reviews of a business by its domain from a review platform (google, trustpilot or tripadvisor): overall rating, review count and the reviews themselves. It queues a review task and waits for it; progress is reported while it is queued. Beta data.',
  input: z.object({
    domain: z.string().min(1).max(255).describe('the business domain, e.g. example.com'),
    platform: z.enum(['google', 'trustpilot', 'tripadvisor']).default('google'),
    depth: z.number().int().min(1).max(200).default(20).describe('reviews to collect'),
    sort_by: z.enum(['relevance', 'recency']).default('relevance'),
  }),
  output: z.object({
    task_id: z.string(),
    domain: z.string(),
    reviews_count: z.number().int(),
    rating: z.number().nullable(),
    reviews: z.array(Review),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run(args, { api, signal, progress }) {
    const posted = await api.beta.reviewPost(args.platform, [
      { domain: args.domain, depth: args.depth, sort_by: args.sort_by },
    ]);
    taskResult(posted);
    const id = posted.tasks[0].id;
    let looks = 0;
    const env = await waitFor({
      what: `review task ${id}`,
      signal,
      check: () => api.beta.reviewGet(args.platform, id),
      done: (e) => e.tasks[0]?.status_code !== TASK_STATUS.taskInQueue.code,
      report: (e) => progress(++looks, `review task ${id}: ${e.tasks[0]?.status_message ?? 'waiting'}`),
    });
    const result = taskResult(env)[0] as {
      domain: string;
      reviews_count: number;
      rating: { value: number } | null;
      items: unknown[];
    };
    return {
      structured: {
        task_id: id,
        domain: result.domain,
        reviews_count: result.reviews_count,
        rating: result.rating?.value ?? null,
        reviews: result.items as Array<z.infer<typeof Review>>,
      },
    };
  },
});
