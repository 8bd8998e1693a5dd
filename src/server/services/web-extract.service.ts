import { createHash } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { WebExtractData, WebExtractRequest } from '../../contract/web.js';
import { HttpError } from '../errors.js';
import { extractWeb } from '../engines/extract/extract-web.js';
import { ExtractFailed, type LoadOptions, type PageCookie } from '../engines/extract/load-page.js';
import type { ReadabilityMode, ShapeOptions } from '../engines/extract/shape-html.js';
import { findCached, pruneCached, putCached } from '../store/web-cache.repo.js';
import type { ConnectionPool } from '../net/connection-pool.js';
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';

/** How long a cached extraction serves /v2/web/extract (docs/decisions.md). */
export const WEB_CACHE_TTL_MS = 60 * 60 * 1000;
/** Entries are kept this long for batch scrape's maxAge, then pruned. */
export const WEB_CACHE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** The cache's view of a URL: fragment dropped, query parameters sorted, host lower case. */
export function normalizeForCache(raw: string): string {
  const u = new URL(raw);
  u.hash = '';
  u.searchParams.sort();
  return u.href;
}

const lastPrune = new WeakMap<object, number>();

export interface ExtractionJob {
  url: string;
  load: Omit<LoadOptions, 'policy' | 'chromiumPath' | 'signal' | 'pool'>;
  /** Keep-alive connections shared across the pages of one job. */
  pool?: ConnectionPool;
  shape: ShapeOptions;
  /** Cached results between minAgeMs and maxAgeMs old are used; null never reads nor writes the cache. */
  cache: { maxAgeMs: number; minAgeMs?: number } | null;
  signal?: AbortSignal;
  /** The API key or user the page is shaped for (the CPU pool's turn-taking). */
  owner?: string;
}

/** A result to keep in the shared cache: written by the caller, alone or with its own writes. */
export interface CacheEntry {
  key: string;
  url: string;
  result: string;
  created_at: string;
}

/**
 * One extraction with the shared cache: /v2/web/extract and batch scrape both come here, so the
 * same URL with the same options is served from one store whichever surface asked first.
 */
export async function runExtraction(ctx: AppContext, job: ExtractionJob): Promise<WebExtractData> {
  const { data, cacheEntry } = await extractUncommitted(ctx, job);
  if (cacheEntry) await saveCached(ctx.db, cacheEntry, ctx.now());
  return data;
}

/**
 * runExtraction without its cache write, which comes back as `cacheEntry` (null when nothing is to be
 * cached): batch scrape writes it in the same transaction as the page's outcome (one commit a page).
 */
export async function extractUncommitted(
  ctx: AppContext,
  job: ExtractionJob,
): Promise<{ data: WebExtractData; cacheEntry: CacheEntry | null }> {
  const normalized = normalizeForCache(job.url);
  // httpsOnly decides whether a page may be fetched, not what it becomes: one cache for both surfaces.
  const { timeoutMs: _t, httpsOnly, ...loadKey } = job.load;
  const key = createHash('sha256')
    .update(JSON.stringify({ url: normalized, load: loadKey, shape: job.shape }))
    .digest('hex');
  const now = ctx.now();
  // maxAge 0 (batch scrape's default) can never be served from the cache: no read for it.
  if (job.cache && job.cache.maxAgeMs > 0) {
    const hit = await findCached(ctx.db, key);
    const age = hit ? now.getTime() - Date.parse(hit.created_at) : Infinity;
    if (hit && age <= job.cache.maxAgeMs && age >= (job.cache.minAgeMs ?? 0)) {
      const data = JSON.parse(hit.result) as WebExtractData;
      // A page web extract followed to plain http is not an answer for an https-only caller.
      if (!httpsOnly || data.final_url.startsWith('https:'))
        return { data: { ...data, cached: true }, cacheEntry: null };
    }
  }
  const { loaded, page } = await extractWeb(
    job.url,
    { ...job.load, policy: ctx.fetchPolicy, chromiumPath: ctx.config.chromiumPath, signal: job.signal, pool: job.pool },
    job.shape,
    job.owner,
  );
  const data: WebExtractData = {
    url: job.url,
    final_url: loaded.finalUrl,
    title: page.title,
    description: page.description,
    content: page.content,
    output_format: job.shape.format,
    crawl_mode: loaded.mode,
    readability: page.readability,
    ...(page.links ? { links: page.links } : {}),
    ...(page.links_summary ? { links_summary: page.links_summary } : {}),
    ...(page.images ? { images: page.images } : {}),
    ...(page.images_summary ? { images_summary: page.images_summary } : {}),
    ...(page.stypes ? { stypes: page.stypes } : {}),
    warnings: page.warnings,
    cached: false,
    fetched_at: now.toISOString(),
  };
  return {
    data,
    cacheEntry: job.cache
      ? { key, url: normalized, result: JSON.stringify(data), created_at: now.toISOString() }
      : null,
  };
}

/**
 * Writes one cache entry through `db` (the store or a transaction). Old entries go at most once an
 * hour per store (`store`, the store itself even inside a transaction): the cache never serves them anyway.
 */
export async function saveCached(
  db: Kysely<Database>,
  entry: CacheEntry,
  now: Date,
  store: object = db,
): Promise<void> {
  await putCached(db, entry);
  const last = lastPrune.get(store) ?? 0;
  if (now.getTime() - last > 60 * 60 * 1000) {
    lastPrune.set(store, now.getTime());
    await pruneCached(db, new Date(now.getTime() - WEB_CACHE_RETENTION_MS).toISOString());
  }
}

function readabilityMode(v: WebExtractRequest['with_readability']): ReadabilityMode {
  if (v === true || v === 'article') return 'article';
  if (v === 'strict') return 'strict';
  return 'off';
}

function cookiesOf(list: WebExtractRequest['set_cookies']): PageCookie[] {
  return (list ?? []).map((c) => {
    if (typeof c !== 'string') return c;
    const eq = c.indexOf('=');
    return { name: c.slice(0, eq), value: c.slice(eq + 1) };
  });
}

/** POST /v2/web/extract: every option of spec 4.6, errors as WEB_EXTRACT_FAILED (400 or 500). */
export async function extract(ctx: AppContext, req: WebExtractRequest, owner?: string): Promise<WebExtractData> {
  const cookies = cookiesOf(req.set_cookies);
  try {
    return await runExtraction(ctx, {
      url: req.url,
      owner,
      load: {
        mode: req.crawl_mode,
        waitForSelector: req.wait_for_selector,
        cookies,
        userAgent: req.user_agent,
        timeoutMs: req.timeout,
      },
      shape: {
        format: req.output_format,
        readability: readabilityMode(req.with_readability),
        targetSelector: req.target_selector,
        links: req.with_links,
        linksSummary: req.with_links_summary,
        images: req.with_images,
        imagesSummary: req.with_images_summary,
        imagesReadability: req.with_images_readability,
        ignoreEmptyTextImage: req.ignore_empty_text_image,
        stypes: req.with_stypes,
      },
      // A page fetched with someone's cookies is theirs: never cached, never served from the cache.
      cache: req.with_cache && cookies.length === 0 ? { maxAgeMs: WEB_CACHE_TTL_MS } : null,
    });
  } catch (err) {
    if (err instanceof ExtractFailed) {
      if (err.kind === 'browser-missing') {
        const needs = req.wait_for_selector ? 'wait_for_selector' : 'crawl_mode "fine"';
        throw new HttpError('WEB_EXTRACT_FAILED', `${needs} needs a browser: ${err.message}`, { status: 400 });
      }
      throw new HttpError('WEB_EXTRACT_FAILED', err.message, { status: 400 });
    }
    if (err instanceof HttpError) throw err;
    throw new HttpError('WEB_EXTRACT_FAILED', `internal error while extracting ${req.url}`, { status: 500 });
  }
}
