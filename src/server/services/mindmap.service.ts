import { MINDMAP_LAYOUTS, type MindmapLayout, type MindmapResult } from '../../contract/mindmap.js';
import type { AppContext } from '../context.js';
import type { AuthContext } from '../auth/authenticate.js';
import { HttpError, RequestValidationError } from '../errors.js';
import { newId } from '../store/ids.js';
import * as repo from '../store/resources.repo.js';
import { indexResource } from '../engines/retrieval/index.js';
import { runCpuJob } from '../engines/workers/index.js';
import { countNodes, parseOutline, toMarkdown, type MindNode } from '../engines/mindmap/tree.js';

/** A map's PNG up to this many nodes renders in well under a second: the CPU pool's light lane. */
const LIGHT_PNG_NODES = 120;
import { topicOf } from '../engines/outline-writer.js';
import { keywords } from '../engines/retrieval/fts-query.js';
import { pageLink, requirePageLink } from '../auth/signed-links.js';
import { mindmapHtml } from '../pages/mindmap-page.js';
import { access, createLiveDoc, touch } from './livedocs.service.js';
import { retrieve } from './retrieval.service.js';
import { resourceFileKey, saveResourceFile } from './resource-files.js';
import { snippetOf } from './resource-rows.js';

/** What a mindmap resource keeps besides its Markdown: the tree itself, so any layout can be drawn later. */
export interface StoredMindmap {
  version: 1;
  query: string;
  layout: MindmapLayout;
  tree: MindNode;
}

const PASSAGES = 12;
const PASSAGE_CHARS = 1500;

const SYSTEM = `You draw mind maps. From the numbered sources (and the request itself when they say nothing about it),
write only a Markdown outline: one "# " line with the central topic, "## " lines for 3 to 7 main branches,
and "- " bullets under them, indented two spaces per level, for the points. Every label is a short phrase
(at most 12 words): no full paragraphs, no citation markers, no text before or after the outline.`;

/**
 * The model's failure in the mindmap's codes (spec 7.2): a timed-out upstream is LLM_REQUEST_TIMEOUT
 * (504); any other failure of the model service (unreachable, overloaded, refusing, not configured)
 * LLM_SERVICE_UNAVAILABLE (503); anything else MINDMAP_CREATE_FAILED (502).
 */
export function modelFailure(err: unknown): HttpError {
  if (err instanceof HttpError && (err.status === 504 || err.code === 'upstream_timeout')) {
    return new HttpError('LLM_REQUEST_TIMEOUT', `the model did not answer in time: ${err.message}`);
  }
  if (err instanceof HttpError && (err.code.startsWith('upstream_') || err.status === 503 || err.status === 429)) {
    return new HttpError('LLM_SERVICE_UNAVAILABLE', `the model service is unavailable: ${err.message}`);
  }
  return new HttpError(
    'MINDMAP_CREATE_FAILED',
    `the mindmap could not be built: ${(err as Error).message ?? String(err)}`,
  );
}

/** Ranked passages of the LiveDoc (routing + retrieval), without earlier mindmaps, which would only echo themselves. */
async function passagesFor(ctx: AppContext, userId: string, livedocId: string, query: string) {
  const hits = await retrieve(ctx, userId, livedocId, { query, top_k: PASSAGES });
  // Each passage names its source, its section a heading over its text: every man page has a
  // DESCRIPTION, and tee's is not tail's.
  return hits.map((h, i) => {
    const section = h.metadata.section.trim();
    const content = h.content.slice(0, PASSAGE_CHARS);
    return {
      id: String(i + 1),
      title: h.title || section,
      content: section && h.title && !/^#{1,6}\s/.test(content) ? `## ${section}\n\n${content}` : content,
      link: h.metadata.link,
    };
  });
}

async function writeOutline(
  ctx: AppContext,
  auth: AuthContext,
  query: string,
  context: Awaited<ReturnType<typeof passagesFor>>,
): Promise<string> {
  const sources =
    context.map((p) => `[${p.id}] ${p.title}\n${p.content}`).join('\n\n') || '(this LiveDoc has no sources yet)';
  try {
    const result = await ctx.gateway.generate({
      system: SYSTEM,
      messages: [{ role: 'user', content: `Sources:\n\n${sources}\n\nRequest: ${query}` }],
      context,
      question: query,
      artifact: { kind: 'mindmap_outline' },
      maxTokens: 2000,
      scope: { apiKeyId: auth.apiKey?.id ?? null, userId: auth.user.id, operation: 'mindmap' },
    });
    return result.text;
  } catch (err) {
    throw modelFailure(err);
  }
}

/** POST /v2/mindmap: retrieve, outline through the gateway, draw off the event loop, store, link. */
export async function createMindmap(
  ctx: AppContext,
  auth: AuthContext,
  input: { query: string; layout: MindmapLayout; livedoc_short_id?: string },
): Promise<MindmapResult> {
  const userId = auth.user.id;
  const given = input.livedoc_short_id;
  if (given) await access(ctx, userId, given, 'write');
  const context = given ? await passagesFor(ctx, userId, given, input.query) : [];
  const markdown = await writeOutline(ctx, auth, input.query, context);
  const tree = parseOutline(markdown, topicOf(input.query));
  if (tree.children.length === 0) {
    // With no word to branch on and no passage to draw from, an empty outline is the query's doing, not the model's.
    if (context.length === 0 && keywords(input.query).length === 0) {
      const msg = `the query has no word to map (single characters and words such as "the" do not count) and no LiveDoc passage is about it: name a topic`;
      throw new RequestValidationError([{ loc: ['body', 'query'], msg, type: 'value_error' }], false);
    }
    // Passages there are, but none gives a branch (no heading, no point short enough to be a label):
    // the LiveDoc does not cover the query as a map, which the caller can change; the server cannot.
    throw new HttpError(
      'VALIDATION_ERROR',
      `nothing to draw about "${topicOf(input.query)}": ${given ? `LiveDoc ${given}` : 'the request'} gives no branch for it (${context.length} passage(s) found, none with a heading or a point short enough for a label); ask about what the LiveDoc holds, or add documents about it`,
    );
  }
  let drawn;
  try {
    // Layout and SVG only, milliseconds: the light lane, beside any heavy job.
    drawn = await runCpuJob(
      'render-mindmap',
      { tree, layout: input.layout },
      { owner: auth.apiKey?.id ?? userId, urgent: true },
    );
  } catch (err) {
    // The CPU pool's own refusals (queue full, a time or memory limit) keep their status and code.
    if (err instanceof HttpError) throw err;
    throw new HttpError('MINDMAP_CREATE_FAILED', `the mindmap could not be drawn: ${(err as Error).message}`);
  }
  // A new LiveDoc is made only once the map exists, so a failed call leaves nothing behind.
  let livedocId = given;
  if (!livedocId) {
    try {
      livedocId = (
        await createLiveDoc(ctx, userId, {
          name: tree.text.slice(0, 200),
          description: `Mindmap: ${topicOf(input.query)}`,
        })
      ).short_id;
    } catch (err) {
      throw new HttpError(
        'LIVEDOC_CREATE_FAILED',
        `a LiveDoc for the mindmap could not be created: ${(err as Error).message}`,
      );
    }
  }
  const id = await storeMindmap(ctx, livedocId, { version: 1, query: input.query, layout: input.layout, tree });
  const nodes = countNodes(tree);
  return {
    resource_id: id,
    status: 'COMPLETED',
    livedoc_short_id: livedocId,
    mindmap_url: pageLink(ctx, 'mindmap', id, `/mindmaps/${encodeURIComponent(id)}`),
    svg: drawn.svg,
    message: `Mindmap of ${nodes} nodes drawn in ${input.layout} from ${context.length} passage(s) of the LiveDoc`,
  };
}

async function storeMindmap(ctx: AppContext, livedocId: string, stored: StoredMindmap): Promise<string> {
  const id = newId('res');
  const markdown = toMarkdown(stored.tree);
  const file = await saveResourceFile(
    ctx.files,
    livedocId,
    id,
    'mindmap.json',
    Buffer.from(JSON.stringify(stored)),
    'application/json',
  );
  const at = ctx.now().toISOString();
  const row: repo.ResourceRow = {
    id,
    livedoc_id: livedocId,
    title: stored.tree.text.slice(0, 500),
    link: '',
    snippet: snippetOf(markdown),
    thumbnail: '',
    resource_type: 'mindmap',
    resource_key: `mindmap:${id}`,
    status: 'completed',
    source: 'mindmap',
    content_type: 'mindmap',
    // The Markdown is the resource's text: readable through the content endpoint and searchable.
    text: markdown,
    file_path: file,
    file_name: 'mindmap.json',
    mime_type: 'application/json',
    created_at: at,
    modified_at: at,
  };
  await repo.insertResource(ctx.db, row);
  try {
    await indexResource(ctx.db, row);
  } catch (err) {
    await repo.deleteResource(ctx.db, id);
    throw new HttpError('MINDMAP_CREATE_FAILED', `the mindmap could not be stored: ${(err as Error).message}`);
  }
  await touch(ctx, livedocId);
  return id;
}

/** A stored mindmap by resource id, or null when there is none (or the resource is not a mindmap). */
export async function loadMindmap(ctx: AppContext, resourceId: string): Promise<StoredMindmap | null> {
  const r = await repo.findResourceById(ctx.db, resourceId);
  if (!r || r.resource_type !== 'mindmap' || !r.file_path) return null;
  const data = await ctx.files.get(resourceFileKey(r.file_path));
  try {
    return data ? (JSON.parse(data.toString('utf8')) as StoredMindmap) : null;
  } catch {
    return null;
  }
}

const LAYOUT_NAMES: Record<MindmapLayout, string> = {
  MIND_MAP: 'Mind map',
  LOGICAL_STRUCTURE: 'Logical',
  ORGANIZATION_STRUCTURE: 'Org chart',
  CATALOG_ORGANIZATION: 'Catalog',
  TIMELINE: 'Timeline',
  FISHBONE: 'Fishbone',
};

export type MindmapPageOutput =
  { type: 'text/html' | 'image/svg+xml'; body: string } | { type: 'image/png'; body: Buffer };

/**
 * The page behind mindmap_url: the signature first (403, whatever the id), then the map (404 when
 * the id names no mindmap). The HTML shows the drawing with the six layouts and the downloads as
 * links that carry the same signature; format=svg or png answers the drawing itself.
 */
export async function mindmapPage(
  ctx: AppContext,
  id: string,
  q: { expires: number; sig: string; layout?: MindmapLayout; format: 'html' | 'svg' | 'png' },
): Promise<MindmapPageOutput> {
  requirePageLink(ctx, 'mindmap', id, q);
  const stored = await loadMindmap(ctx, id);
  if (!stored) throw new HttpError('NOT_FOUND', 'no such mindmap');
  const layout = q.layout ?? stored.layout;
  // A page link has no caller identity: each map waits in its own line.
  // The SVG, or the PNG of a map of ordinary size, is light work; a big map's PNG is not.
  const light = q.format !== 'png' || countNodes(stored.tree) <= LIGHT_PNG_NODES;
  const drawn = await runCpuJob(
    'render-mindmap',
    { tree: stored.tree, layout, png: q.format === 'png' },
    { owner: `mindmap:${id}`, urgent: light },
  );
  if (q.format === 'png') {
    // A map too large for a readable PNG in this layout: the format asked for is what is refused.
    if (!drawn.png)
      throw new RequestValidationError(
        [{ loc: ['query', 'format'], msg: drawn.pngRefused ?? 'no PNG was drawn', type: 'value_error' }],
        false,
      );
    return { type: 'image/png', body: Buffer.from(drawn.png.buffer, drawn.png.byteOffset, drawn.png.byteLength) };
  }
  if (q.format === 'svg') return { type: 'image/svg+xml', body: drawn.svg };
  const link = (extra: Record<string, string>) =>
    `/mindmaps/${encodeURIComponent(id)}?${new URLSearchParams({ ...extra, expires: String(q.expires), sig: q.sig })}`;
  return {
    type: 'text/html',
    body: mindmapHtml({
      title: stored.tree.text,
      svg: drawn.svg,
      layouts: MINDMAP_LAYOUTS.map((l) => ({
        label: LAYOUT_NAMES[l],
        href: link({ layout: l }),
        current: l === layout,
      })),
      downloads: [
        { label: 'SVG', href: link({ layout, format: 'svg' }) },
        { label: 'PNG', href: link({ layout, format: 'png' }) },
      ],
    }),
  };
}
