import { z } from 'zod';
import { defineRoute } from './route.js';

/**
 * Pages of the local platform: what the URLs in API answers open in a browser (a LiveDoc's
 * resources, a slide viewer, a landing page, a mindmap). A browser sends no API key, so a page is
 * opened by an expiring signed link (docs/decisions.md "Pages of the local platform"); a missing,
 * altered or expired signature is a 403 page, never the content.
 */
export const PageLinkQuery = z.object({
  expires: z.string().max(20).optional(),
  sig: z.string().max(200).optional(),
});

const html = (description: string) => ({ contentType: 'text/html', description });
/** The answers of every page: the page, or an HTML page saying why not. */
export const PAGE_RESPONSES = {
  200: html('the page'),
  403: html('the link is missing its signature, altered or expired'),
  404: html('nothing by that id (any more)'),
  409: html('the page is not ready: its task has not completed'),
} as const;

/** What every page route shares: no credentials (the signed link is the grant), GET, the pages tag. */
export const PAGE_ROUTE_BASE = { auth: 'none', family: 'image', tag: 'pages', method: 'GET' } as const;

export const liveDocPage = defineRoute({
  ...PAGE_ROUTE_BASE,
  id: 'pages.livedoc',
  path: '/livedocs/{short_id}',
  summary: "A LiveDoc's resources as a page, with download links (signed link)",
  params: z.object({ short_id: z.string().min(1).max(100) }),
  query: PageLinkQuery,
  responses: PAGE_RESPONSES,
});

export const pageRoutes = [liveDocPage];
