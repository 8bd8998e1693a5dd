import type { z } from 'zod';
import {
  cancelBatchScrape,
  createBatchScrape,
  getBatchScrape,
  type AsyncJob,
  type BatchScrapeRequest,
} from '../contract/scrape.js';
import { callRoute, callRouteWithHeaders } from './call.js';
import type { Transport } from './transport.js';

export const scrapeClient = (t: Transport) => ({
  /** POST /v1/beta/scrape/batch-scrape: the same key and body return the same job (safe to retry). */
  async create(
    body: z.input<typeof BatchScrapeRequest>,
    idempotencyKey: string,
    signal?: AbortSignal,
  ): Promise<{ job: AsyncJob; location: string | null }> {
    const { body: job, headers } = await callRouteWithHeaders(t, createBatchScrape, {
      body,
      headers: { 'idempotency-key': idempotencyKey },
      signal,
    });
    const location = headers.location;
    return { job, location: typeof location === 'string' ? location : null };
  },
  get: (id: string, options: { signal?: AbortSignal } = {}) =>
    callRoute(t, getBatchScrape, { params: { id }, signal: options.signal }),
  cancel: (id: string) => callRoute(t, cancelBatchScrape, { params: { id } }),
});
