import type { IncomeQuery, IncomeStatement, InsiderQuery, InsiderTrade } from '../../../contract/beta-financial.js';
import type { TrafficQuery, TrafficResult } from '../../../contract/beta-traffic.js';
import { HttpError } from '../../errors.js';
import { OutboundFetchError } from '../../net/errors.js';
import type { FetchPolicy } from '../../net/policy.js';
import { fetchUpstream } from '../upstream-fetch.js';
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
 * 400/402/404/429 keep their status with its message (docs/decisions.md "Beta data"). Calls go
 * through the outbound fetch (upstream-fetch.ts): the answer is capped and the call has one time limit.
 */

/** "login:password" credentials go as HTTP Basic (the provider's scheme), anything else as a bearer key. */
function authorization(key: string | undefined): Record<string, string> {
  if (!key) return {};
  return key.includes(':')
    ? { authorization: `Basic ${Buffer.from(key).toString('base64')}` }
    : { authorization: `Bearer ${key}` };
}

function upstreamMessage(text: string): string {
  try {
    const b = JSON.parse(text) as { message?: unknown; error?: unknown; status_message?: unknown };
    if (typeof b.message === 'string') return b.message;
    if (typeof b.status_message === 'string') return b.status_message;
    if (typeof b.error === 'string') return b.error;
    if (b.error && typeof (b.error as { message?: unknown }).message === 'string')
      return (b.error as { message: string }).message;
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 300) || 'no message';
}

const KEPT = new Map<number, string>([
  [400, 'INVALID_PARAMETER'],
  [402, 'PAYMENT_REQUIRED'],
  [404, 'NOT_FOUND'],
  [429, 'RATE_LIMITED'],
]);

export async function upstreamCall<T>(
  config: UpstreamConfig,
  policy: FetchPolicy,
  method: 'GET' | 'POST',
  path: string,
  options: { query?: Record<string, string | number | boolean | null | undefined>; body?: unknown } = {},
): Promise<T> {
  const url = new URL(config.baseUrl.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(options.query ?? {}))
    if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
  const timeout = config.timeoutMs ?? 60_000;
  let res;
  try {
    res = await fetchUpstream(policy, config.baseUrl, url, {
      method,
      headers: {
        accept: 'application/json',
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...authorization(config.apiKey),
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      timeoutMs: timeout,
    });
  } catch (err) {
    if (!(err instanceof OutboundFetchError)) throw err;
    if (err.kind === 'timeout')
      throw new HttpError('UPSTREAM_TIMEOUT', `the beta data upstream did not answer within ${timeout} ms`, {
        status: 504,
      });
    if (err.kind === 'too-large')
      throw new HttpError('UPSTREAM_FAILED', `the beta data upstream failed: ${err.message}`, { status: 502 });
    throw new HttpError('SERVICE_UNAVAILABLE', `cannot reach the beta data upstream: ${err.message}`, { status: 503 });
  }
  const text = res.body.toString('utf8');
  if (res.status >= 400) {
    const kept = KEPT.get(res.status);
    const retry = res.headers.get('retry-after');
    if (kept)
      throw new HttpError(kept, `upstream: ${upstreamMessage(text)}`, {
        status: res.status,
        headers: retry ? { 'retry-after': retry } : {},
      });
    const why =
      res.status === 401 || res.status === 403
        ? 'refused the configured credentials'
        : `failed with HTTP ${res.status}`;
    throw new HttpError('UPSTREAM_FAILED', `the beta data upstream ${why}: ${upstreamMessage(text)}`, { status: 502 });
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new HttpError('UPSTREAM_FAILED', 'the beta data upstream answered something that is not JSON', {
      status: 502,
    });
  }
}

export function upstreamSeoProvider(config: UpstreamConfig, policy: FetchPolicy): SeoProvider {
  return {
    kind: 'upstream',
    post: (_operation: SeoOperation, path: string, body: unknown) =>
      upstreamCall<ProviderEnvelope>(config, policy, 'POST', path, { body }),
  };
}

export function upstreamFinancialProvider(
  config: UpstreamConfig,
  policy: FetchPolicy,
  paths: { income: string; insiders: string },
): FinancialProvider {
  return {
    kind: 'upstream',
    incomeStatements: (query: IncomeQuery) =>
      upstreamCall<{ income_statements: IncomeStatement[] }>(config, policy, 'GET', paths.income, { query }),
    insiderTrades: (query: InsiderQuery) =>
      upstreamCall<{ insider_trades: InsiderTrade[] }>(config, policy, 'GET', paths.insiders, { query }),
  };
}

export function upstreamTrafficProvider(config: UpstreamConfig, policy: FetchPolicy, path: string): TrafficProvider {
  return {
    kind: 'upstream',
    landingPages: (query: TrafficQuery) => upstreamCall<TrafficResult>(config, policy, 'GET', path, { query }),
  };
}
