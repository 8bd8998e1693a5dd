import { chat, type ChatResult } from '../contract/chat.js';
import type { Transport } from './transport.js';

export interface RateLimitState {
  limit: number | null;
  remaining: number | null;
  /** Unix seconds. */
  reset: number | null;
  retryAfter: number | null;
}

function num(v: string | string[] | undefined): number | null {
  const s = Array.isArray(v) ? v[0] : v;
  return s !== undefined && s !== '' && Number.isFinite(Number(s)) ? Number(s) : null;
}

export function rateLimitOf(headers: Record<string, string | string[] | undefined>): RateLimitState {
  return {
    limit: num(headers['x-ratelimit-limit']),
    remaining: num(headers['x-ratelimit-remaining']),
    reset: num(headers['x-ratelimit-reset']),
    retryAfter: num(headers['retry-after']),
  };
}

export const chatClient = (t: Transport) => ({
  /**
   * One chat request, never retried by the transport: the caller decides what a 429 means (spec 8
   * rule 4: read the limits from the headers). Errors throw ApiError with `rateLimit` attached.
   */
  async ask(
    query: string,
    options: { includeGenerated?: boolean } = {},
  ): Promise<{ data: ChatResult; rateLimit: RateLimitState }> {
    const body = options.includeGenerated ? { query, include_generated: true } : { query };
    const res = await t.send({ method: chat.method, path: chat.path, auth: chat.auth, body, retries: 0 });
    const rateLimit = rateLimitOf(res.headers);
    try {
      const body = t.parse<{ data: ChatResult }>(res);
      return { data: body.data, rateLimit };
    } catch (err) {
      Object.assign(err as object, { rateLimit });
      throw err;
    }
  },
});
