import { OutboundFetchError } from '../../net/errors.js';
import type { FetchPolicy } from '../../net/policy.js';
import { safeFetch } from '../../net/safe-fetch.js';
import { REFUSED_HEADER } from '../../net/policy-proxy.js';
import { withPolicedBrowser } from '../policed-browser.js';
import { guardNavigations, settle, type PageFailure } from '../navigation-guard.js';
import type { ConnectionPool } from '../../net/connection-pool.js';
import { BrowserMissingError, chromiumAvailable } from '../screenshot.js';

export interface PageCookie {
  name: string;
  value: string;
}

export interface LoadOptions {
  policy: FetchPolicy;
  /** fast: one HTTP fetch; fine: Chromium loads the page, runs its scripts and lets it settle. */
  mode: 'fast' | 'fine';
  /** Needs the browser (fine mode): the page is read once an element matches. */
  waitForSelector?: string;
  cookies?: PageCookie[];
  userAgent?: string;
  timeoutMs?: number;
  maxBytes?: number;
  accept?: string;
  signal?: AbortSignal;
  /** The Chromium fine mode drives (facet serve --chromium). */
  chromiumPath?: string;
  /** Redirects may not leave https (batch scrape, an https-only surface); fast loads only. */
  httpsOnly?: boolean;
  /** Keep-alive connections for fast loads of many pages (batch scrape). */
  pool?: ConnectionPool;
}

export interface LoadedPage {
  url: string;
  finalUrl: string;
  status: number;
  /** Media type without parameters, lower case ('' when the server sent none). */
  contentType: string;
  body: Buffer;
  mode: 'fast' | 'fine';
}

/** Why a page could not be extracted: the load (policy, network, HTTP, browser) or the shaping. */
export type ExtractFailure =
  | 'refused'
  | 'invalid-url'
  | 'http'
  | 'network'
  | 'timeout'
  | 'too-large'
  | 'browser-missing'
  | 'wait-timeout'
  | 'not-html'
  | 'selector-miss'
  | 'invalid-selector'
  | 'no-main-content'
  | 'too-complex';

/** Why a page could not be loaded or extracted, in words for the person who gave the URL. */
export class ExtractFailed extends Error {
  constructor(
    readonly kind: ExtractFailure,
    message: string,
    /** The page's HTTP status when it answered with an error. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ExtractFailed';
  }

  /** The same load may work later: the network or the server failed, not the URL or the policy. */
  get transient(): boolean {
    return this.kind === 'network' || this.kind === 'timeout' || (this.kind === 'http' && (this.status ?? 0) >= 500);
  }

  /** The caller's request (URL, policy, page answer) is at fault rather than this platform. */
  get clientSide(): boolean {
    return this.kind !== 'browser-missing';
  }
}

const DEFAULT_TIMEOUT_MS = 15_000;
const MAX_BYTES = 15 * 1024 * 1024;

export const mediaType = (header: string | null | undefined) => (header ?? '').split(';')[0].trim().toLowerCase();

/** Loads one page through the outbound fetch policy, by HTTP (fast) or in Chromium (fine). */
export async function loadPage(url: string, o: LoadOptions): Promise<LoadedPage> {
  return o.mode === 'fine' || o.waitForSelector ? loadInBrowser(url, o) : loadByFetch(url, o);
}

async function loadByFetch(url: string, o: LoadOptions): Promise<LoadedPage> {
  const headers: Record<string, string> = { accept: o.accept ?? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' };
  if (o.userAgent) headers['user-agent'] = o.userAgent;
  if (o.cookies?.length) headers.cookie = o.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  let res;
  try {
    res = await safeFetch(url, {
      policy: o.policy,
      maxBytes: o.maxBytes ?? MAX_BYTES,
      timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      signal: o.signal,
      headers,
      pool: o.pool,
      httpsOnly: o.httpsOnly,
    });
  } catch (err) {
    if (err instanceof OutboundFetchError)
      throw new ExtractFailed(err.kind === 'too-many-redirects' ? 'invalid-url' : err.kind, err.message);
    throw err;
  }
  if (res.status < 200 || res.status > 299)
    throw new ExtractFailed('http', `the page answered HTTP ${res.status}`, res.status);
  return {
    url,
    finalUrl: res.url,
    status: res.status,
    contentType: mediaType(res.headers.get('content-type')),
    body: res.body,
    mode: 'fast',
  };
}

/**
 * Chromium through playwright-core, held to the fetch policy by its own policy proxy (as the
 * screenshot engine is): one fresh browser per page, so cookies never leak between requests. The
 * page is read after `load` and a settle (network idle, bounded), or once `waitForSelector` matches;
 * a refused navigation of the main frame at any point (a redirect hop, or one the page starts
 * itself) fails the load with the policy's message.
 */
async function loadInBrowser(url: string, o: LoadOptions): Promise<LoadedPage> {
  const executable = o.chromiumPath ?? '/usr/bin/chromium';
  if (!(await chromiumAvailable(executable)))
    throw new ExtractFailed('browser-missing', new BrowserMissingError(executable).message);
  try {
    await o.policy.check(url);
  } catch (err) {
    if (err instanceof OutboundFetchError)
      throw new ExtractFailed(err.kind === 'too-many-redirects' ? 'invalid-url' : err.kind, err.message);
    throw err;
  }
  o.signal?.throwIfAborted();
  const timeoutMs = o.timeoutMs ?? 30_000;
  return withPolicedBrowser(
    { executablePath: executable, policy: o.policy, signal: o.signal },
    async (browser, proxy) => {
      const context = await browser.newContext({
        serviceWorkers: 'block',
        ...(o.userAgent ? { userAgent: o.userAgent } : {}),
      });
      if (o.cookies?.length) await context.addCookies(o.cookies.map((c) => ({ name: c.name, value: c.value, url })));
      const page = await context.newPage();
      // Every navigation of the main frame — redirect hops and the page's own — is held to the proxy's refusals.
      const guard = guardNavigations(page, proxy);
      const failed = (f: PageFailure) => new ExtractFailed(f.kind, f.message);
      const started = Date.now();
      const response = await page.goto(url, { waitUntil: 'load', timeout: timeoutMs }).catch((err: Error) => {
        guard.check(failed);
        throw new ExtractFailed(
          /timeout/i.test(err.message) ? 'timeout' : 'network',
          `cannot load ${url} in the browser: ${err.message.split('\n')[0]}`,
        );
      });
      const refusedHere = response?.headers()[REFUSED_HEADER];
      if (refusedHere) throw new ExtractFailed('refused', guard.failure()?.message ?? refusedHere);
      const status = response?.status() ?? 200;
      if (status < 200 || status > 299) throw new ExtractFailed('http', `the page answered HTTP ${status}`, status);
      const left = () => Math.max(1, timeoutMs - (Date.now() - started));
      if (o.waitForSelector) {
        await page.waitForSelector(o.waitForSelector, { state: 'attached', timeout: left() }).catch((err: Error) => {
          if (o.signal?.aborted) throw err;
          guard.check(failed);
          throw new ExtractFailed(
            'wait-timeout',
            `wait_for_selector ${JSON.stringify(o.waitForSelector)} matched nothing within ${timeoutMs} ms`,
          );
        });
      } else {
        // Scripts that fetch their content after load, a meta refresh: give the network a bounded moment to go quiet.
        await settle(page, Math.min(5_000, left()));
      }
      o.signal?.throwIfAborted();
      guard.check(failed);
      // A navigation the page set off may tear the document down while it is read.
      const html = await page.content().catch((err: Error) => {
        guard.check(failed);
        throw err;
      });
      // Checked after reading too: what was read may be the proxy's refusal page, or cut short.
      guard.check(failed);
      return {
        url,
        finalUrl: page.url(),
        status,
        contentType: 'text/html',
        body: Buffer.from(html, 'utf8'),
        mode: 'fine',
      };
    },
  );
}

/** HTML by its declared type, or by its first bytes when the server declared none. */
export function isHtml(page: Pick<LoadedPage, 'contentType' | 'body'>): boolean {
  const t = page.contentType;
  return (
    t === 'text/html' || t === 'application/xhtml+xml' || (!t && /<html/i.test(page.body.subarray(0, 2000).toString()))
  );
}
