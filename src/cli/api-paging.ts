import type { RawResponse } from '../client/transport.js';

/**
 * How `facet api --paginate` finds the next page, by the surface's own paging (docs/decisions.md):
 * an `X-Next-Cursor` header (admin key listings) or a `next_cursor` in the body (social) become
 * the `cursor` query parameter; a /v2 page (`data: {page, size, total, items}`) asks for page + 1
 * while page × size < total. Returns the query changes for the next request, or undefined at the end.
 */
export function nextPageQuery(res: RawResponse, body: unknown): Record<string, string | number> | undefined {
  const header = res.headers['x-next-cursor'];
  const cursor = Array.isArray(header) ? header[0] : header;
  if (cursor) return { cursor };
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.next_cursor === 'string' && b.next_cursor) return { cursor: b.next_cursor };
  const page = v2Page(body);
  if (page && page.page * page.size < page.total && page.items.length > 0)
    return { page: page.page + 1, size: page.size };
  return undefined;
}

function v2Page(body: unknown): { page: number; size: number; total: number; items: unknown[] } | undefined {
  const data = (body as { data?: unknown }).data;
  if (!data || typeof data !== 'object') return undefined;
  const d = data as Record<string, unknown>;
  if (
    typeof d.page === 'number' &&
    typeof d.size === 'number' &&
    typeof d.total === 'number' &&
    Array.isArray(d.items)
  ) {
    return d as { page: number; size: number; total: number; items: unknown[] };
  }
  return undefined;
}

/** The records of one page, for --slurp: a list body, a /v2 page's items, or a body's one array field. */
export function pageItems(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const page = body && typeof body === 'object' ? v2Page(body) : undefined;
  if (page) return page.items;
  if (body && typeof body === 'object') {
    const arrays = Object.values(body as Record<string, unknown>).filter(Array.isArray);
    if (arrays.length === 1) return arrays[0] as unknown[];
  }
  return [body];
}
