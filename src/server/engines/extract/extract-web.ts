import { runCpuJob } from '../workers/index.js';
import { ExtractFailed, isHtml, loadPage, type LoadedPage, type LoadOptions } from './load-page.js';
import type { ShapedPage, ShapeOptions } from './shape-html.js';

export interface WebExtraction {
  loaded: Omit<LoadedPage, 'body'>;
  page: ShapedPage;
}

/**
 * The extraction engine: load a page (fast fetch or Chromium, always through the fetch policy) and
 * shape its HTML off the event loop. /v2/web/extract and batch scrape call it directly; LiveDoc URL
 * add and project sites through fetch-page.ts, which also converts PDFs and text.
 */
export async function extractWeb(
  url: string,
  load: LoadOptions,
  shape: ShapeOptions,
  owner?: string,
): Promise<WebExtraction> {
  const loaded = await loadPage(url, load);
  if (!isHtml(loaded))
    throw new ExtractFailed(
      'not-html',
      `the page is not HTML (${loaded.contentType || 'no content type'}); only HTML pages are extracted`,
    );
  return { loaded: withoutBody(loaded), page: await shapeLoaded(loaded, shape, load.signal, owner) };
}

/** Shapes an already loaded HTML page in a CPU worker (`owner`: whose turn it is in the pool's queue); refusals become ExtractFailed. */
export async function shapeLoaded(
  loaded: LoadedPage,
  shape: ShapeOptions,
  signal?: AbortSignal,
  owner?: string,
): Promise<ShapedPage> {
  const outcome = await runCpuJob(
    'shape-html',
    { html: loaded.body.toString('utf8'), url: loaded.finalUrl, options: shape },
    { signal, owner },
  );
  if (!outcome.ok) throw new ExtractFailed(outcome.reason, outcome.message);
  return outcome.page;
}

function withoutBody(p: LoadedPage): Omit<LoadedPage, 'body'> {
  const { body: _body, ...rest } = p;
  return rest;
}
