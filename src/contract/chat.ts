import { z } from 'zod';
import { defineRoute } from './route.js';
import { V2ErrorBody } from './errors.js';
import { v2Envelope } from './envelopes.js';

/**
 * What the document says of a query (spec 8): 1-2000 characters, not only white space. The service
 * checks it (chat.service checkQuery), so each failure keeps its own code.
 */
export const QUERY_TEXT = {
  type: 'string',
  minLength: 1,
  maxLength: 2000,
  pattern: '\\S',
  description: 'string, 1-2000 characters, not only white space, required',
};

/**
 * query: a string of 1-2000 characters (spec 8). The service checks it, not the schema, so each
 * failure gets its own code (MISSING_PARAMETER, INVALID_PARAMETER, QUERY_TOO_LONG) and the response
 * still carries the rate-limit headers.
 */
export const ChatRequest = z
  .object({
    query: z.unknown().optional().meta(QUERY_TEXT),
    /** Local addition: decks, landing pages and mindmaps facet generated may ground the answer too (default false: facet does not quote itself). */
    include_generated: z
      .boolean()
      .optional()
      .describe('also ground on resources facet generated (decks, pages, mindmaps); default false'),
  })
  .meta({ required: ['query'] });

/** Chat result (spec 2.7). */
export const ChatResult = z.object({
  id: z.string(),
  message_id: z.string(),
  answer: z.string(),
  query_analysis: z.object({ queries: z.array(z.string()) }),
  resources: z.array(z.object({ link: z.string(), title: z.string(), snippet: z.string() })),
});
export type ChatResult = z.infer<typeof ChatResult>;

const errors = {
  400: V2ErrorBody,
  401: V2ErrorBody,
  403: V2ErrorBody,
  429: V2ErrorBody,
  502: V2ErrorBody,
  503: V2ErrorBody,
} as const;

export const chat = defineRoute({
  id: 'chat.create',
  method: 'POST',
  path: '/v2/chat',
  auth: 'bearer-key',
  family: 'v2',
  tag: 'chat',
  summary: 'A search-grounded answer with cited sources; rate limited per key and per user',
  body: ChatRequest,
  responses: { 200: v2Envelope(ChatResult), ...errors },
});

export const chatRoutes = [chat];
