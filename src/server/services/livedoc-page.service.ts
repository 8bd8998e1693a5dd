import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { requirePageLink } from '../auth/signed-links.js';
import { findLiveDoc } from '../store/livedocs.repo.js';
import { pageResources } from '../store/resources.repo.js';
import { signedDownloadUrl } from './resource-files.js';

/** The most resources a LiveDoc's page lists (newest first); the API pages through the rest. */
export const LIVEDOC_PAGE_LIMIT = 200;

export interface LiveDocPageData {
  name: string;
  description: string;
  total: number;
  resources: Array<{
    id: string;
    title: string;
    type: string;
    snippet: string;
    created_at: string;
    link: string;
    download?: string;
  }>;
}

/**
 * What the page behind `live_doc_url` shows: the LiveDoc's resources with download links that
 * expire with the page's own link. The signed link is the grant: it was handed to the LiveDoc's
 * user in an API answer.
 */
export async function liveDocPage(
  ctx: AppContext,
  shortId: string,
  link: { expires?: string; sig?: string },
): Promise<LiveDocPageData> {
  requirePageLink(ctx, 'livedoc', shortId, link);
  const doc = await findLiveDoc(ctx.db, shortId);
  if (!doc) throw new HttpError('NOT_FOUND', `LiveDoc ${shortId} no longer exists`);
  const { total, rows } = await pageResources(ctx.db, shortId, { offset: 0, limit: LIVEDOC_PAGE_LIMIT });
  const expires = Number(link.expires);
  return {
    name: doc.name,
    description: doc.description,
    total,
    resources: rows.map((r) => ({
      id: r.id,
      title: r.title,
      type: r.resource_type,
      snippet: r.snippet,
      created_at: r.created_at,
      link: r.link,
      ...(r.file_path ? { download: signedDownloadUrl(ctx.baseUrl, ctx.tokenSecret, r.id, expires) } : {}),
    })),
  };
}
