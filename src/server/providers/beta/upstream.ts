import { request, errors as undiciErrors } from 'undici';
import type { IncomeQuery, IncomeStatement, InsiderQuery, InsiderTrade } from '../../../contract/beta-financial.js';
import type { TrafficQuery, TrafficResult } from '../../../contract/beta-traffic.js';
import { HttpError } from '../../errors.js';
import type { UpstreamConfig } from '../upstream-http.js';
import type { ProviderEnvelope } from './envelope.js';
import type { FinancialProvider } from './financial-provider.js';
import type { SeoOperation, SeoProvider } from './seo-provider.js';
import type { TrafficProvider } from './traffic-provider.js';

/**
 * The upstream beta data providers: a configured compatible provider (`facet serve
 * --beta-upstream-url`, `--beta-upstream-key`). Requests go to the same path under its base URL and
 * its answers come back unchanged (fields it adds pass through); its failures become the surface's
 * errors: unreachable 503, timeout 504, refused credentials or a server error 502, and its own
 * 400/402/404/429 keep their status with its message (docs/decisions.md "Beta data").
 */

/** "login:password" credentials go as HTTP Basic (the provider's scheme), anything else as a bearer key. */
function authorization(key: string | undefined): Record<string, string> {
  if (!key) return {};
  return key.includes(':') ? { authorization: `Basic ${Buffer.from(key).toString('base64')}` } : { authorization: `Bearer ${key}` };
}

function upstreamMessage(text: string): string {
  try {
    const b = JSON.parse(text) as { message?: unknown; error?: unknown; status_message?: unknown };
    if (typeof b.message === 'string') return b.message;
    if (typeof b.status_message === 'string') return b.status_message;
    if (typeof b.error === 'string') return b.error;
    if (b.error && typeof (b.error as { message?: unknown }).message === 'string') return (b.error as { message: string }).message;
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 300) || 'no message';
}

/** An upstream answer past this is refused (502) instead of parsed and sent on: tens of MB hold the event loop for most of a second. */
export const MAX_UPSTREAM_ANSWER_BYTES = 16 * 1024 * 1024;

/** The body as text, or null once it grows past `max` bytes (the rest is not read). */
async function boundedText(body: AsyncIterable<Buffer> & { destroy(): unknown }, max: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const KEPT = new Map<number, string>([
  [400, 'INVALID_PARAMETER'],
  [402, 'PAYMENT_REQUIRED'],
  [404, 'NOT_FOUND'],
  [429, 'RATE_LIMITED'],
]);

export async function upstreamCall<T>(config: UpstreamConfig, method: 'GET' | 'POST', path: string, options: { query?: Record<string, unknown>; body?: unknown } = {}): Promise<T> {
  const url = new URL(config.baseUrl.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
  const timeout = config.timeoutMs ?? 60_000;
  let res;
  try {
    res = await request(url, {
      method,
      headers: { accept: 'application/json', ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...authorization(config.apiKey) },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
  } catch (err) {
    if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError) {
      throw new HttpError('UPSTREAM_TIMEOUT', `the beta data upstream did not answer within ${timeout} ms`, { status: 504 });
    }
    throw new HttpError('SERVICE_UNAVAILABLE', `cannot reach the beta data upstream: ${(err as Error & { code?: string }).code ?? (err as Error).message}`, { status: 503 });
  }
  const text = await boundedText(res.body, MAX_UPSTREAM_ANSWER_BYTES);
  if (text === null) {
    throw new HttpError('UPSTREAM_FAILED', `the beta data upstream answered more than ${MAX_UPSTREAM_ANSWER_BYTES / 1024 / 1024} MB: ask for fewer rows or tasks per request`, { status: 502 });
  }
  if (res.statusCode >= 400) {
    const kept = KEPT.get(res.statusCode);
    const retry = res.headers['retry-after'];
    if (kept) throw new HttpError(kept, `upstream: ${upstreamMessage(text)}`, { status: res.statusCode, headers: typeof retry === 'string' ? { 'retry-after': retry } : {} });
    const why = res.statusCode === 401 || res.statusCode === 403 ? 'refused the configured credentials' : `failed with HTTP ${res.statusCode}`;
    throw new HttpError('UPSTREAM_FAILED', `the beta data upstream ${why}: ${upstreamMessage(text)}`, { status: 502 });
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new HttpError('UPSTREAM_FAILED', 'the beta data upstream answered something that is not JSON', { status: 502 });
  }
}

export function upstreamSeoProvider(config: UpstreamConfig): SeoProvider {
  return {
    kind: 'upstream',
    post: (_operation: SeoOperation, path: string, body: unknown) => upstreamCall<ProviderEnvelope>(config, 'POST', path, { body }),
  };
}

export function upstreamFinancialProvider(config: UpstreamConfig, paths: { income: string; insiders: string }): FinancialProvider {
  return {
    kind: 'upstream',
    incomeStatements: (query: IncomeQuery) => upstreamCall<{ income_statements: IncomeStatement[] }>(config, 'GET', paths.income, { query }),
    insiderTrades: (query: InsiderQuery) => upstreamCall<{ insider_trades: InsiderTrade[] }>(config, 'GET', paths.insiders, { query }),
  };
}

export function upstreamTrafficProvider(config: UpstreamConfig, path: string): TrafficProvider {
  return { kind: 'upstream', landingPages: (query: TrafficQuery) => upstreamCall<TrafficResult>(config, 'GET', path, { query }) };
}
