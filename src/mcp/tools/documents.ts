import { z } from 'zod';
import { isTerminalDocTaskStatus } from '../../contract/doc-tasks.js';
import { MINDMAP_LAYOUTS } from '../../contract/mindmap.js';
import { readBody } from '../../client/http.js';
import type { McpApi } from '../api.js';
import { PlatformOutcomeError } from '../errors.js';
import { defineTool, livedocUri, type ToolContext } from '../tool.js';
import { waitFor } from '../wait.js';

/**
 * A slide or landing-page task followed to its end: a progress notification when it starts and at
 * every look, the platform task cancelled when the call is, and any end but COMPLETED an error.
 */
async function followDocTask(api: McpApi, taskId: string, what: string, ctx: ToolContext) {
  const started = Date.now();
  let looks = 0;
  await ctx.progress(looks, `${what} task ${taskId} started`);
  await waitFor({
    what: `${what} task ${taskId}`,
    signal: ctx.signal,
    check: (signal) => api.docTasks.status(taskId, { signal }),
    done: (s) => isTerminalDocTaskStatus(s.status),
    report: (s) =>
      ctx.progress(++looks, `${what} task ${taskId}: ${s.status} after ${Math.round((Date.now() - started) / 1000)} s`),
    cancel: () => api.docTasks.cancel(taskId),
  });
  const record = await api.docTasks.historical(taskId);
  if (!isTerminalDocTaskStatus(record.task_status))
    throw new PlatformOutcomeError(
      'TASK_STILL_RUNNING',
      `${what} task ${taskId} is still ${record.task_status} after 10 minutes; it goes on on the platform`,
    );
  if (record.task_status !== 'COMPLETED')
    throw new PlatformOutcomeError(
      `TASK_${record.task_status}`,
      `${what} task ${taskId} ended ${record.task_status}${record.error_message ? `: ${record.error_message}` : ''}`,
    );
  return record;
}

const LiveDocId = z.string().min(1).max(100);

export const slidesCreate = defineTool({
  name: 'slides_create',
  title: 'Make a slide deck',
  description:
    'Write a slide deck (.pptx, with a web viewer) on a topic from the sources of a LiveDoc (or a new LiveDoc when none is given) and wait for it. Progress is reported while it is written; cancelling the call cancels the task. Returns the viewer link.',
  input: z.object({
    query: z.string().trim().min(1).max(2000).describe('what the deck is about'),
    livedoc_id: LiveDocId.optional().describe('the LiveDoc whose sources the deck uses'),
    theme_id: z.string().min(1).max(100).optional().describe('a theme id of the platform'),
    slide_count: z.number().int().min(1).max(30).optional().describe('content slides at most'),
  }),
  output: z.object({
    task_id: z.string(),
    status: z.string(),
    deck_url: z.string().describe('the deck in the web viewer (its .pptx one click away)'),
    livedoc_id: z.string(),
    livedoc_url: z.string().nullable(),
  }),
  async run(args, ctx) {
    const config = {
      ...(args.theme_id ? { ai_theme_id: args.theme_id } : {}),
      ...(args.slide_count ? { slide_count: args.slide_count } : {}),
    };
    const created = await ctx.api.slides.create({
      query: args.query,
      ...(args.livedoc_id ? { livedoc_short_id: args.livedoc_id } : {}),
      ...(Object.keys(config).length ? { ppt_config: config } : {}),
    });
    const r = await followDocTask(ctx.api, created.task_id, 'deck', ctx);
    return {
      structured: {
        task_id: r.task_id,
        status: r.task_status,
        deck_url: r.ppt_url,
        livedoc_id: r.live_doc_short_id ?? created.livedoc_short_id,
        livedoc_url: r.live_doc_url ?? null,
      },
    };
  },
});

export const landingPageCreate = defineTool({
  name: 'landing_page_create',
  title: 'Make a landing page',
  description:
    'Write a one-page website (self-contained HTML) from the sources of a LiveDoc and wait for it; costs 10 credits (given back if it fails). Progress is reported while it is written; cancelling the call cancels the task. Returns the page link.',
  input: z.object({
    query: z.string().trim().min(1).max(2000).describe('what the page is for'),
    livedoc_id: LiveDocId.describe('the LiveDoc whose sources the page uses'),
  }),
  output: z.object({
    task_id: z.string(),
    status: z.string(),
    page_url: z.string().describe('the page (an expiring signed link)'),
    livedoc_id: z.string().nullable(),
    credits_cost: z.number().nullable(),
    credits_remaining: z.number().nullable(),
  }),
  async run(args, ctx) {
    const created = await ctx.api.landingPages.create({ query: args.query, livedoc_short_id: args.livedoc_id });
    const r = await followDocTask(ctx.api, created.task_id, 'landing page', ctx);
    return {
      structured: {
        task_id: r.task_id,
        status: r.task_status,
        page_url: r.ai_page_html ?? r.ppt_url,
        livedoc_id: r.live_doc_short_id ?? null,
        credits_cost: created.credits.cost,
        credits_remaining: created.credits.remaining,
      },
    };
  },
});

export const mindmapCreate = defineTool({
  name: 'mindmap_create',
  title: 'Draw a mindmap',
  description:
    "Draw a mindmap of a topic from a LiveDoc's sources (a new LiveDoc when none is given), in one of six layouts. Returns the picture (PNG) and a link to the interactive map.",
  input: z.object({
    query: z.string().trim().min(1).max(2000).describe('what to map'),
    livedoc_id: LiveDocId.optional(),
    layout: z.enum(MINDMAP_LAYOUTS).default('MIND_MAP'),
  }),
  output: z.object({
    resource_id: z.string(),
    livedoc_id: z.string(),
    mindmap_url: z.string().describe('the interactive map (an expiring signed link)'),
    uri: z.string().describe('the MCP resource of the LiveDoc it is stored in'),
  }),
  async run(args, { api, signal }) {
    const m = await api.mindmap.create({
      query: args.query,
      layout: args.layout,
      ...(args.livedoc_id ? { livedoc_short_id: args.livedoc_id } : {}),
    });
    // The PNG comes from the map's own page, drawn by the server with the fonts it measured with.
    const link = new URL(m.mindmap_url);
    link.searchParams.set('format', 'png');
    const res = await api.transport.openLink(link.toString(), signal);
    const png = await readBody(res.body);
    const images = res.statusCode === 200 ? [{ data: png.toString('base64'), mimeType: 'image/png' }] : [];
    return {
      structured: {
        resource_id: m.resource_id,
        livedoc_id: m.livedoc_short_id,
        mindmap_url: m.mindmap_url,
        uri: livedocUri(m.livedoc_short_id),
      },
      text: `Mindmap of "${args.query}" (${args.layout}): ${m.mindmap_url}`,
      images,
    };
  },
});
