import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineTool } from '../tool.js';
import { waitFor } from '../wait.js';

const HttpUrl = z.url({ protocol: /^https?$/ }).describe('an absolute http or https URL');

export const webExtract = defineTool({
  name: 'web_extract',
  title: 'Read a web page',
  description:
    "Fetch one web page and return its content as Markdown (default), plain text or HTML, with its title. By default only the page's main content is kept (navigation, ads and footers dropped); set main_content_only to false for the whole page. Use it to read an article or documentation page an answer depends on.",
  input: z.object({
    url: HttpUrl,
    format: z.enum(['markdown', 'text', 'html']).default('markdown').describe('the form of the returned content'),
    main_content_only: z.boolean().default(true).describe("keep only the page's main content (Readability)"),
    mode: z
      .enum(['fast', 'fine'])
      .default('fast')
      .describe('fast: a plain fetch; fine: a real browser, for pages that need JavaScript'),
  }),
  output: z.object({
    url: z.string(),
    final_url: z.string().describe('where the page was after redirects'),
    title: z.string(),
    description: z.string(),
    format: z.enum(['markdown', 'text', 'html']),
    content: z.string(),
    warnings: z.array(z.string()),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run(args, { api }) {
    const data = await api.web.extract({
      url: args.url,
      output_format: args.format,
      with_readability: args.main_content_only,
      crawl_mode: args.mode,
    });
    const content = typeof data.content === 'string' ? data.content : JSON.stringify(data.content);
    return {
      structured: {
        url: data.url,
        final_url: data.final_url,
        title: data.title,
        description: data.description,
        format: data.output_format,
        content,
        warnings: data.warnings,
      },
      text: `${data.title ? `${data.title}\n${data.final_url}\n\n` : ''}${content}`,
    };
  },
});

const PageResult = z.object({
  url: z.string(),
  status: z.enum(['success', 'failed']),
  title: z.string().optional(),
  markdown: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

export const webScrapeBatch = defineTool({
  name: 'web_scrape_batch',
  title: 'Scrape many web pages',
  description:
    'Scrape up to 100 HTTPS pages in one job and return each as Markdown. The job runs on the platform; progress is reported page by page, and cancelling the call cancels the job (pages not yet fetched are skipped). Use web_extract for a single page.',
  input: z.object({
    urls: z
      .array(z.url({ protocol: /^https$/ }))
      .min(1)
      .max(100)
      .describe('absolute https URLs, each once (PDFs are not supported)'),
    only_main_content: z.boolean().default(true).describe("keep only each page's main content"),
    max_concurrency: z.number().int().min(1).max(20).optional().describe('pages fetched at once (default 10)'),
  }),
  output: z.object({
    job_id: z.string(),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
    total: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    pages: z.array(PageResult),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async run(args, { api, signal, progress }) {
    // Every call is a new job: a fresh idempotency key (a retried HTTP request still finds its job).
    const { job } = await api.scrape.create(
      {
        urls: args.urls,
        onlyMainContent: args.only_main_content,
        ...(args.max_concurrency ? { maxConcurrency: args.max_concurrency } : {}),
      },
      `mcp-${randomUUID()}`,
      signal,
    );
    const end = await waitFor({
      what: `batch scrape ${job.id}`,
      signal,
      check: (s) => api.scrape.get(job.id, { signal: s }),
      done: (j) => j.status === 'completed' || j.status === 'failed' || j.status === 'cancelled',
      report: (j) =>
        progress(
          j.progress.done + j.progress.failed,
          `batch scrape ${j.id}: ${j.progress.done + j.progress.failed} of ${j.progress.total} pages (${j.status})`,
          j.progress.total,
        ),
      cancel: () => api.scrape.cancel(job.id),
    });
    const out = end.output;
    return {
      structured: {
        job_id: end.id,
        status: end.status,
        total: out?.total ?? end.progress.total,
        succeeded: out?.succeeded ?? end.progress.done,
        failed: out?.failed ?? end.progress.failed,
        pages: (out?.data ?? []).map((p) => ({
          url: p.url,
          status: p.status,
          ...(p.title !== undefined ? { title: p.title } : {}),
          ...(p.markdown !== undefined ? { markdown: p.markdown } : {}),
          ...(p.error ? { error: p.error } : {}),
        })),
      },
    };
  },
});
