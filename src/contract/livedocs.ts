import { z } from 'zod';
import { strictFields, textInt, trimmedText } from './fields.js';

/** The LiveDoc shapes (spec 2.3, 2.4): what the routes in livedocs-routes.ts answer and accept. */

/** LiveDoc (spec 2.3). */
export const LiveDoc = z.object({
  short_id: z.string(),
  name: z.string(),
  description: z.string(),
  icon: z.string(),
  created_at: z.string(),
  modified_at: z.string(),
  is_shared: z.boolean(),
});
export type LiveDoc = z.infer<typeof LiveDoc>;

export const Readme = z.object({ summary: z.string().nullable(), content: z.string().nullable() });
export const LiveDocListItem = LiveDoc.extend({ readme: Readme.nullable() });

/** LiveDoc resource (spec 2.4). */
export const Resource = z.object({
  id: z.string(),
  title: z.string(),
  link: z.string(),
  snippet: z.string(),
  thumbnail: z.string(),
  resource_type: z.string(),
  resource_key: z.string(),
  status: z.string(),
  source: z.string(),
  created_at: z.string(),
  modified_at: z.string(),
});
export type Resource = z.infer<typeof Resource>;

export const UrlAddResult = z.object({
  url: z.string(),
  status: z.enum(['success', 'failed', 'existed']),
  fail_reason: z.string().nullable(),
  resource_id: z.string(),
});

export const RetrieveResult = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  score: z.number(),
  metadata: z.record(z.string(), z.unknown()),
});
export type RetrieveResult = z.infer<typeof RetrieveResult>;

export const ResourceContent = z.object({ title: z.string(), type: z.string(), content: z.string() });

const Page = textInt({ min: 1, max: 100_000, default: 1 });
const Size = textInt({ min: 1, max: 100, default: 20 });
/** A query string array arrives as one value or many (?resource_types=a&resource_types=b, or a,b). */
const StringArray = z.preprocess(
  (v) =>
    v === undefined
      ? undefined
      : (Array.isArray(v) ? v : [v])
          .flatMap((s) => String(s).split(','))
          .map((s) => s.trim())
          .filter(Boolean),
  z.array(z.string().min(1).max(50)).max(20).optional(),
);

export const ShortIdParams = z.object({ short_id: z.string().min(1).max(100) });
export const ResourceParams = ShortIdParams.extend({ resource_id: z.string().min(1).max(100) });

// Bodies whose fields the spec lists refuse unknown ones: a misspelt optional field is not dropped in silence.
export const CreateLiveDocRequest = strictFields({
  name: trimmedText(200),
  description: z.string().max(2000).optional(),
  icon: z.string().max(200).optional(),
});
export const UpdateLiveDocRequest = strictFields({
  name: trimmedText(200).optional(),
  description: z.string().max(2000).optional(),
});
export const ListLiveDocsQuery = z.object({ keyword: z.string().max(200).optional(), page: Page, size: Size });
export const ListResourcesQuery = z.object({ resource_types: StringArray, page: Page, size: Size });

export const UpdateResourceRequest = strictFields({
  title: z.string().max(500).optional(),
  snippet: z.string().max(2000).optional(),
  thumbnail: z.union([z.url({ protocol: /^https?$/ }).max(2000), z.literal('')]).optional(),
});
export const SetContentRequest = strictFields({ content: z.string() });
export const CreateDocRequest = strictFields({
  title: trimmedText(500).optional(),
  content: z.string(),
});

const UrlString = z.string().trim().min(5).max(2000);
export const AddUrlsRequest = strictFields({
  urls: z
    .array(z.union([UrlString, strictFields({ url: UrlString, title: z.string().max(1000).optional() })]))
    .min(1)
    .max(10),
});

export const RetrieveRequest = strictFields({
  query: trimmedText(2000),
  resource_ids: z.array(z.string().min(1).max(100)).min(1).max(50).optional(),
  /** Local addition: how many excerpts to return (default 10). */
  top_k: z.number().int().min(1).max(50).optional(),
  /** Local addition: also search the decks, pages and mindmaps facet generated (left out by default, as in answers). */
  include_generated: z.boolean().optional(),
});
export const RouteRequest = strictFields({
  query: trimmedText(2000),
  max_resources: z.number().int().min(1).max(50).optional(),
  /** Local addition: also route to the decks, pages and mindmaps facet generated (left out by default). */
  include_generated: z.boolean().optional(),
});
export const PptRetrieveRequest = z.object({
  resource_id: z.string().min(1).max(100),
  page_number: z.number().int().min(1).max(10_000),
  /** Local addition: rank the page's chunks against this text (default: the slide's own title). */
  query: trimmedText(2000).optional(),
});
export const DownloadQuery = z.object({ expires_in: textInt({ min: 1, max: 7 * 86_400, default: 3600 }) });
/** The query of a signed download link: its expiry and signature. */
export const SignedFileQuery = z.object({ expires: textInt(), sig: z.string().min(1).max(200) });
