import { z } from 'zod';
import { defineRoute } from './route.js';
import { ImageErrorBody, V2ErrorBody, ValidationErrorBody } from './errors.js';
import { v2Envelope } from './envelopes.js';
import { strictFields, textInt, NOT_BLANK } from './fields.js';

/** Spec 4.5: the six layouts; MIND_MAP when none is given. */
export const MINDMAP_LAYOUTS = [
  'MIND_MAP',
  'LOGICAL_STRUCTURE',
  'ORGANIZATION_STRUCTURE',
  'CATALOG_ORGANIZATION',
  'TIMELINE',
  'FISHBONE',
] as const;
export type MindmapLayout = (typeof MINDMAP_LAYOUTS)[number];
export const MindmapLayoutSchema = z.enum(MINDMAP_LAYOUTS);

/** Spec 8: a mindmap query is at most 2000 characters (counted as characters, not UTF-16 units). */
export const MAX_MINDMAP_QUERY = 2000;

/** Unknown fields are refused: a misspelt livedoc_short_id would otherwise make a new LiveDoc. */
export const MindmapRequest = strictFields({
  query: z
    .string()
    .min(1)
    .refine((q) => q.trim() !== '', { message: 'query must not be blank' })
    .refine((q) => [...q].length <= MAX_MINDMAP_QUERY, {
      message: `query is longer than ${MAX_MINDMAP_QUERY} characters`,
    })
    .meta({ ...NOT_BLANK, maxLength: MAX_MINDMAP_QUERY })
    .describe(
      `what to map, 1-${MAX_MINDMAP_QUERY} characters; it names a topic (a word, not a single character) unless a LiveDoc passage is about it`,
    ),
  layout: MindmapLayoutSchema.default('MIND_MAP'),
  livedoc_short_id: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('the LiveDoc to draw from and store the map in; a new LiveDoc when omitted'),
});

/** Mindmap result (spec 2.8); decided: inside the v2 envelope, like every other /v2 answer. */
export const MindmapResult = z.object({
  resource_id: z.string(),
  status: z.string().describe('COMPLETED'),
  livedoc_short_id: z.string(),
  mindmap_url: z.string().describe('an expiring signed link to the map page (the other layouts one click away)'),
  svg: z.string(),
  message: z.string(),
});
export type MindmapResult = z.infer<typeof MindmapResult>;

const errors = {
  400: V2ErrorBody,
  401: V2ErrorBody,
  403: V2ErrorBody,
  404: V2ErrorBody,
  // The LiveDoc gives no branch for the query (VALIDATION_ERROR): the caller's to change.
  422: V2ErrorBody,
  502: V2ErrorBody,
  503: V2ErrorBody,
  504: V2ErrorBody,
} as const;

export const createMindmap = defineRoute({
  id: 'mindmap.create',
  method: 'POST',
  path: '/v2/mindmap',
  auth: 'bearer-key',
  family: 'v2',
  tag: 'mindmap',
  summary: 'Draw a mindmap of a LiveDoc (synchronous): built through the model gateway, stored as a mindmap resource',
  body: MindmapRequest,
  responses: { 200: v2Envelope(MindmapResult), ...errors },
});

/** The page behind mindmap_url: opened in a browser, so it is reached by a signed link, not credentials. */
export const MindmapPageQuery = z.object({
  expires: textInt(),
  sig: z.string().min(1).max(200),
  layout: MindmapLayoutSchema.optional().describe('draw in this layout (default: the one it was created with)'),
  format: z.enum(['html', 'svg', 'png']).default('html'),
});

export const mindmapPage = defineRoute({
  id: 'mindmap.page',
  method: 'GET',
  path: '/mindmaps/{resource_id}',
  auth: 'none',
  family: 'image',
  tag: 'mindmap',
  summary: 'A mindmap page (HTML), or its drawing as SVG or PNG, through an expiring signed link',
  params: z.object({ resource_id: z.string().min(1).max(100) }),
  query: MindmapPageQuery,
  responses: {
    200: {
      contentType: ['text/html', 'image/svg+xml', 'image/png'],
      description: 'the page, or the drawing with format=svg or format=png',
    },
    403: ImageErrorBody,
    404: ImageErrorBody,
    422: ValidationErrorBody,
  },
});

export const mindmapRoutes = [createMindmap, mindmapPage];
