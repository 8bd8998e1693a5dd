import { z } from 'zod';
import { defineTool, livedocUri, resourceUri } from '../tool.js';
import { askLiveDoc } from './ask.js';

const LiveDocId = z
  .string()
  .min(1)
  .max(100)
  .describe('the LiveDoc id (short_id, from livedocs_list or livedocs_create)');

const LiveDocOut = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  created_at: z.string(),
  modified_at: z.string(),
  is_shared: z.boolean(),
  uri: z.string().describe('the MCP resource of this LiveDoc'),
});

export const livedocsList = defineTool({
  name: 'livedocs_list',
  title: 'List LiveDocs',
  description:
    'List your LiveDocs (collections of web pages, documents and notes that searches and grounded answers draw from), newest first, a page at a time; keyword filters by name.',
  input: z.object({
    keyword: z.string().max(200).optional().describe('only LiveDocs whose name contains this'),
    page: z.number().int().min(1).default(1),
    size: z.number().int().min(1).max(100).default(20),
  }),
  output: z.object({
    total: z.number().int(),
    page: z.number().int(),
    size: z.number().int(),
    items: z.array(LiveDocOut.extend({ summary: z.string().nullable() })),
  }),
  annotations: { readOnlyHint: true },
  async run(args, { api }) {
    const data = await api.livedocs.list({ keyword: args.keyword, page: args.page, size: args.size });
    return {
      structured: {
        total: data.total,
        page: data.page,
        size: data.size,
        items: data.items.map((d) => ({
          id: d.short_id,
          name: d.name,
          description: d.description,
          created_at: d.created_at,
          modified_at: d.modified_at,
          is_shared: d.is_shared,
          uri: livedocUri(d.short_id),
          summary: d.readme?.summary ?? null,
        })),
      },
    };
  },
});

export const livedocsCreate = defineTool({
  name: 'livedocs_create',
  title: 'Create a LiveDoc',
  description:
    'Create an empty LiveDoc to collect sources in; then add pages with livedocs_add_url and notes with livedocs_add_text, and query it with livedocs_search or livedocs_ask.',
  input: z.object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).optional(),
  }),
  output: LiveDocOut,
  async run(args, { api }) {
    const d = await api.livedocs.create({ name: args.name, description: args.description });
    return {
      structured: {
        id: d.short_id,
        name: d.name,
        description: d.description,
        created_at: d.created_at,
        modified_at: d.modified_at,
        is_shared: d.is_shared,
        uri: livedocUri(d.short_id),
      },
    };
  },
});

export const livedocsAddUrl = defineTool({
  name: 'livedocs_add_url',
  title: 'Add web pages to a LiveDoc',
  description:
    'Fetch 1-10 web pages into a LiveDoc as resources, so livedocs_search and livedocs_ask can use them. Each URL reports success, existed (already in the LiveDoc) or failed with a reason.',
  input: z.object({
    livedoc_id: LiveDocId,
    urls: z.array(z.string().trim().min(5).max(2000)).min(1).max(10).describe('absolute http(s) URLs'),
  }),
  output: z.object({
    results: z.array(
      z.object({
        url: z.string(),
        status: z.enum(['success', 'failed', 'existed']),
        fail_reason: z.string().nullable(),
        resource_id: z.string(),
        uri: z.string().nullable(),
      }),
    ),
  }),
  annotations: { openWorldHint: true },
  async run(args, { api }) {
    const results = await api.livedocs.resources.addUrls(args.livedoc_id, args.urls);
    return {
      structured: {
        results: results.map((r) => ({
          ...r,
          uri: r.resource_id ? resourceUri(args.livedoc_id, r.resource_id) : null,
        })),
      },
    };
  },
});

export const livedocsAddText = defineTool({
  name: 'livedocs_add_text',
  title: 'Add a note to a LiveDoc',
  description:
    'Store a text or Markdown document in a LiveDoc as a resource (notes, a transcript, a summary you wrote), so later searches and answers can cite it.',
  input: z.object({
    livedoc_id: LiveDocId,
    title: z.string().trim().min(1).max(500).optional().describe('default "New Document"'),
    content: z.string().min(1).describe('the text, Markdown welcome'),
  }),
  output: z.object({
    resource_id: z.string(),
    title: z.string(),
    resource_type: z.string(),
    uri: z.string(),
  }),
  async run(args, { api }) {
    const r = await api.livedocs.resources.addDoc(args.livedoc_id, { title: args.title, content: args.content });
    return {
      structured: {
        resource_id: r.id,
        title: r.title,
        resource_type: r.resource_type,
        uri: resourceUri(args.livedoc_id, r.id),
      },
    };
  },
});

export const livedocsSearch = defineTool({
  name: 'livedocs_search',
  title: 'Search a LiveDoc',
  description:
    "Find the passages of a LiveDoc's resources that best match a query, best first, each with its source (resource title, link and URI). Use it to gather evidence; use livedocs_ask for a written answer.",
  input: z.object({
    livedoc_id: LiveDocId,
    query: z.string().trim().min(1).max(2000),
    top_k: z.number().int().min(1).max(50).default(5).describe('passages to return'),
    include_generated: z
      .boolean()
      .default(false)
      .describe('also search the decks, pages and mindmaps facet generated (left out by default, as in answers)'),
  }),
  output: z.object({
    passages: z.array(
      z.object({
        text: z.string(),
        score: z.number(),
        source: z.object({
          resource_id: z.string(),
          title: z.string(),
          link: z.string(),
          section: z.string(),
          page_number: z.number().int().optional(),
          uri: z.string(),
        }),
      }),
    ),
  }),
  annotations: { readOnlyHint: true },
  async run(args, { api }) {
    const hits = await api.livedocs.resources.retrieve(args.livedoc_id, {
      query: args.query,
      top_k: args.top_k,
      ...(args.include_generated ? { include_generated: true } : {}),
    });
    return {
      structured: {
        passages: hits.map((h) => {
          const m = h.metadata as { link?: unknown; section?: unknown; page_number?: unknown };
          return {
            text: h.content,
            score: h.score,
            source: {
              resource_id: h.id,
              title: h.title,
              link: typeof m.link === 'string' ? m.link : '',
              section: typeof m.section === 'string' ? m.section : '',
              ...(typeof m.page_number === 'number' ? { page_number: m.page_number } : {}),
              uri: resourceUri(args.livedoc_id, h.id),
            },
          };
        }),
      },
    };
  },
});

export const livedocsAsk = defineTool({
  name: 'livedocs_ask',
  title: 'Ask a LiveDoc',
  description:
    "Ask a question and get an answer written from a LiveDoc's sources, with numbered citations [n] and the list of cited sources (title and link). The answer says only what the sources support.",
  input: z.object({
    livedoc_id: LiveDocId,
    question: z.string().trim().min(1).max(2000),
  }),
  output: z.object({
    answer: z.string().describe('the answer, citing sources as [n]'),
    citations: z.array(z.object({ n: z.number().int(), title: z.string(), link: z.string() })),
    livedoc_id: z.string(),
    thread_id: z.string().describe('the conversation this answer was recorded in'),
  }),
  annotations: { readOnlyHint: true },
  async run(args, { api, signal }) {
    const out = await askLiveDoc(api, args.livedoc_id, args.question, signal);
    return { structured: out, text: out.answer + citationsText(out.citations) };
  },
});

const citationsText = (c: Array<{ n: number; title: string; link: string }>) =>
  c.length ? '\n\nSources:\n' + c.map((x) => `[${x.n}] ${x.title}${x.link ? ` — ${x.link}` : ''}`).join('\n') : '';
