import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource as McpResource,
} from '@modelcontextprotocol/sdk/types.js';
import type { LiveDoc, Resource } from '../contract/livedocs.js';
import type { McpApi } from './api.js';
import { livedocUri, resourceUri } from './tool.js';
import type { ApiFor } from './api.js';

const PREFIX = 'facet://livedocs/';
/** LiveDocs read per listing request, resources per LiveDoc request, and entries per page of the MCP list. */
const DOCS_PAGE = 20;
const RESOURCES_PAGE = 20;
const MAX_ENTRIES = 100;
/** The "resource not found" code the MCP specification names. */
const RESOURCE_NOT_FOUND = -32002;

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: `${PREFIX}{livedoc_id}`,
    name: 'livedoc',
    title: 'A LiveDoc',
    description: 'A LiveDoc: its name, description and the list of its resources (JSON)',
    mimeType: 'application/json',
  },
  {
    uriTemplate: `${PREFIX}{livedoc_id}/resources/{resource_id}`,
    name: 'livedoc-resource',
    title: 'A resource of a LiveDoc',
    description: "One resource of a LiveDoc: its extracted text (a web page's, a file's, a note's)",
    mimeType: 'text/plain',
  },
];

/** Where a listing goes on: the LiveDoc page, the LiveDoc within it, the next page of its resources (0: the LiveDoc itself). */
interface Cursor {
  p: number;
  i: number;
  r: number;
}
const encode = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
function decode(cursor: string | undefined): Cursor {
  if (!cursor) return { p: 1, i: 0, r: 0 };
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Cursor;
    if ([c.p, c.i, c.r].every((n) => Number.isInteger(n) && n >= 0) && c.p >= 1) return c;
  } catch {
    // falls through to the refusal
  }
  throw new McpError(ErrorCode.InvalidParams, 'the cursor is not one this server gave');
}

const docEntry = (d: LiveDoc): McpResource => ({
  uri: livedocUri(d.short_id),
  name: d.name,
  title: d.name,
  description: d.description || `LiveDoc ${d.short_id}`,
  mimeType: 'application/json',
});
const resourceEntry = (docId: string, r: Resource): McpResource => ({
  uri: resourceUri(docId, r.id),
  name: r.title || r.id,
  title: r.title,
  description: `${r.resource_type} in LiveDoc ${docId}${r.link ? `: ${r.link}` : ''}`,
  mimeType: r.resource_type === 'ai_doc' ? 'text/markdown' : 'text/plain',
});

/**
 * Every LiveDoc, each followed by its resources, pages of at most MAX_ENTRIES entries; the
 * cursor says where the next page starts (which LiveDoc, and how far into its resources).
 */
async function listPage(
  api: McpApi,
  cursor: string | undefined,
): Promise<{ resources: McpResource[]; nextCursor?: string }> {
  const c = decode(cursor);
  const out: McpResource[] = [];
  const pages = new Map<number, Awaited<ReturnType<McpApi['livedocs']['list']>>>();
  const docsPage = async (p: number) =>
    pages.get(p) ?? pages.set(p, await api.livedocs.list({ page: p, size: DOCS_PAGE })).get(p)!;
  // A page ends before an entry (a LiveDoc, or a page of its resources) would take it past MAX_ENTRIES.
  while (out.length + (c.r === 0 ? 1 : 0) + RESOURCES_PAGE <= MAX_ENTRIES) {
    const docs = await docsPage(c.p);
    const doc = docs.items[c.i];
    if (!doc) return { resources: out };
    if (c.r === 0) {
      out.push(docEntry(doc));
      c.r = 1;
    }
    const res = await api.livedocs.resources.list(doc.short_id, { page: c.r, size: RESOURCES_PAGE });
    out.push(...res.items.map((r) => resourceEntry(doc.short_id, r)));
    if (c.r * RESOURCES_PAGE < res.total) {
      c.r++;
      continue;
    }
    c.r = 0;
    c.i++;
    if (c.i >= docs.items.length) {
      if (c.p * DOCS_PAGE >= docs.total) return { resources: out };
      c.p++;
      c.i = 0;
    }
  }
  return { resources: out, nextCursor: encode(c) };
}

function parseUri(uri: string): { docId: string; resourceId?: string } {
  const parts = uri.startsWith(PREFIX) ? uri.slice(PREFIX.length).split('/').map(decodeURIComponent) : [];
  if (parts.length === 1 && parts[0]) return { docId: parts[0] };
  if (parts.length === 3 && parts[0] && parts[1] === 'resources' && parts[2])
    return { docId: parts[0], resourceId: parts[2] };
  throw new McpError(
    RESOURCE_NOT_FOUND,
    `Resource not found: ${uri} (expected ${RESOURCE_TEMPLATES.map((t) => t.uriTemplate).join(' or ')})`,
  );
}

async function read(api: McpApi, uri: string): Promise<ReadResourceResult> {
  const { docId, resourceId } = parseUri(uri);
  if (!resourceId) {
    const [doc, res] = await Promise.all([
      api.livedocs.get(docId),
      api.livedocs.resources.list(docId, { page: 1, size: 100 }),
    ]);
    const body = {
      id: doc.short_id,
      name: doc.name,
      description: doc.description,
      created_at: doc.created_at,
      modified_at: doc.modified_at,
      readme: doc.readme,
      resources_total: res.total,
      resources: res.items.map((r) => ({
        id: r.id,
        title: r.title,
        resource_type: r.resource_type,
        link: r.link,
        uri: resourceUri(docId, r.id),
      })),
    };
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
  }
  const meta = await api.livedocs.resources.get(docId, resourceId);
  try {
    const content = await api.livedocs.resources.content(docId, resourceId);
    const mimeType = meta.resource_type === 'ai_doc' ? 'text/markdown' : 'text/plain';
    return { contents: [{ uri, mimeType, text: content.content }] };
  } catch (err) {
    // A resource without text (an image): its record instead.
    if ((err as { status?: number }).status !== 400) throw err;
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(meta, null, 2) }] };
  }
}

/** A platform error in resource terms: 404 is "resource not found", anything else says its code. */
function asMcpError(err: unknown, uri?: string): unknown {
  if (err instanceof McpError) return err;
  const e = err as { name?: string; status?: number; code?: string; message?: string };
  if (e?.name === 'ApiError' && e.status === 404)
    return new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri ?? ''} (${e.code}: ${e.message})`);
  if (e?.name === 'ApiError')
    return new McpError(ErrorCode.InternalError, `${e.code} (HTTP ${e.status}): ${e.message}`);
  return new McpError(ErrorCode.InternalError, e?.message ?? String(err));
}

/**
 * LiveDocs and their resources as MCP resources, listed with cursor paging (the SDK's McpServer
 * lists template resources without paging, so these handlers sit on its underlying Server).
 */
export function registerResources(server: McpServer, apiFor: ApiFor): void {
  const s = server.server;
  s.registerCapabilities({ resources: {} });
  s.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  s.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    try {
      return await listPage(await apiFor(extra), request.params?.cursor);
    } catch (err) {
      throw asMcpError(err);
    }
  });
  s.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    try {
      return await read(await apiFor(extra), request.params.uri);
    } catch (err) {
      throw asMcpError(err, request.params.uri);
    }
  });
}
