import { z } from 'zod';
import { strictFields, textInt } from './fields.js';
import { defineRoute } from './route.js';
import { ImageErrorBody, V2ErrorBody } from './errors.js';
import { v2Envelope, v2Page } from './envelopes.js';

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
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).optional(),
  icon: z.string().max(200).optional(),
});
export const UpdateLiveDocRequest = strictFields({
  name: z.string().trim().min(1).max(200).optional(),
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
  title: z.string().trim().min(1).max(500).optional(),
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
  query: z.string().trim().min(1).max(2000),
  resource_ids: z.array(z.string().min(1).max(100)).min(1).max(50).optional(),
  /** Local addition: how many excerpts to return (default 10). */
  top_k: z.number().int().min(1).max(50).optional(),
});
export const RouteRequest = strictFields({
  query: z.string().trim().min(1).max(2000),
  max_resources: z.number().int().min(1).max(50).optional(),
});
export const PptRetrieveRequest = z.object({
  resource_id: z.string().min(1).max(100),
  page_number: z.number().int().min(1).max(10_000),
  /** Local addition: rank the page's chunks against this text (default: the slide's own title). */
  query: z.string().trim().min(1).max(2000).optional(),
});
export const DownloadQuery = z.object({ expires_in: textInt({ min: 1, max: 7 * 86_400, default: 3600 }) });

const errors = { 400: V2ErrorBody, 401: V2ErrorBody, 403: V2ErrorBody, 404: V2ErrorBody } as const;
const base = { auth: 'bearer-key', family: 'v2', tag: 'livedocs' } as const;
const resourceOut = { 200: v2Envelope(Resource), ...errors };

export const createLiveDoc = defineRoute({
  ...base,
  id: 'livedocs.create',
  method: 'POST',
  path: '/v2/livedocs',
  summary: 'Create a LiveDoc',
  body: CreateLiveDocRequest,
  responses: { 200: v2Envelope(LiveDoc), ...errors },
});
export const listLiveDocs = defineRoute({
  ...base,
  id: 'livedocs.list',
  method: 'GET',
  path: '/v2/livedocs',
  summary: 'List your LiveDocs and those shared with you',
  query: ListLiveDocsQuery,
  responses: { 200: v2Envelope(v2Page(LiveDocListItem)), ...errors },
});
export const getLiveDoc = defineRoute({
  ...base,
  id: 'livedocs.get',
  method: 'GET',
  path: '/v2/livedocs/{short_id}',
  summary: 'One LiveDoc (local addition)',
  params: ShortIdParams,
  responses: { 200: v2Envelope(LiveDocListItem), ...errors },
});
export const updateLiveDoc = defineRoute({
  ...base,
  id: 'livedocs.update',
  method: 'PUT',
  path: '/v2/livedocs/{short_id}',
  summary: 'Rename or describe a LiveDoc',
  params: ShortIdParams,
  body: UpdateLiveDocRequest,
  responses: { 200: v2Envelope(LiveDoc), ...errors },
});
export const deleteLiveDoc = defineRoute({
  ...base,
  id: 'livedocs.delete',
  method: 'DELETE',
  path: '/v2/livedocs/{short_id}',
  summary: 'Delete a LiveDoc with its resources',
  params: ShortIdParams,
  responses: { 200: v2Envelope(z.null()), ...errors },
});

export const listResources = defineRoute({
  ...base,
  id: 'resources.list',
  method: 'GET',
  path: '/v2/livedocs/{short_id}/resources',
  summary: 'List resources',
  params: ShortIdParams,
  query: ListResourcesQuery,
  responses: { 200: v2Envelope(v2Page(Resource)), ...errors },
});
export const getResource = defineRoute({
  ...base,
  id: 'resources.get',
  method: 'GET',
  path: '/v2/livedocs/{short_id}/resources/{resource_id}',
  summary: 'One resource',
  params: ResourceParams,
  responses: resourceOut,
});
export const updateResource = defineRoute({
  ...base,
  id: 'resources.update',
  method: 'PUT',
  path: '/v2/livedocs/{short_id}/resources/{resource_id}',
  summary: 'Update title, snippet or thumbnail',
  params: ResourceParams,
  body: UpdateResourceRequest,
  responses: resourceOut,
});
export const setResourceContent = defineRoute({
  ...base,
  id: 'resources.setContent',
  method: 'PUT',
  path: '/v2/livedocs/{short_id}/resources/{resource_id}/content',
  summary: "Replace an ai_doc's Markdown",
  params: ResourceParams,
  body: SetContentRequest,
  responses: resourceOut,
});
export const createDoc = defineRoute({
  ...base,
  id: 'resources.createDoc',
  method: 'POST',
  path: '/v2/livedocs/{short_id}/resources/doc',
  summary: 'Create an ai_doc from Markdown',
  params: ShortIdParams,
  body: CreateDocRequest,
  responses: resourceOut,
});
/** Both LiveDoc uploads: one `file` part and an optional `title` (spec 4.3). */
const UploadForm = { files: { file: 1 }, fields: ['title'] } as const;
export const uploadDoc = defineRoute({
  ...base,
  id: 'resources.uploadDoc',
  method: 'POST',
  path: '/v2/livedocs/{short_id}/resources/upload-doc',
  summary: 'Convert a file (Markdown, text, HTML, PDF, DOCX, PPTX) into an ai_doc',
  params: ShortIdParams,
  bodyType: 'multipart',
  form: UploadForm,
  responses: resourceOut,
});
export const uploadFile = defineRoute({
  ...base,
  id: 'resources.upload',
  method: 'POST',
  path: '/v2/livedocs/{short_id}/resources/upload',
  summary: 'Upload a file, keeping its format',
  params: ShortIdParams,
  bodyType: 'multipart',
  form: UploadForm,
  responses: resourceOut,
});
export const addUrls = defineRoute({
  ...base,
  id: 'resources.addUrls',
  method: 'POST',
  path: '/v2/livedocs/{short_id}/resources/urls',
  summary: 'Add 1-10 web pages',
  params: ShortIdParams,
  body: AddUrlsRequest,
  responses: { 200: v2Envelope(z.array(UrlAddResult)), ...errors },
});
export const deleteResource = defineRoute({
  ...base,
  id: 'resources.delete',
  method: 'DELETE',
  path: '/v2/livedocs/{short_id}/resources/{resource_id}',
  summary: 'Delete a resource',
  params: ResourceParams,
  responses: { 200: v2Envelope(z.null()), ...errors },
});
export const retrieve = defineRoute({
  ...base,
  id: 'resources.retrieve',
  method: 'POST',
  path: '/v2/livedocs/{short_id}/resources/retrieve',
  summary: 'Ranked excerpts for a query',
  params: ShortIdParams,
  body: RetrieveRequest,
  responses: { 200: v2Envelope(z.array(RetrieveResult)), ...errors },
});
export const routeResources = defineRoute({
  ...base,
  id: 'resources.route',
  method: 'POST',
  path: '/v2/livedocs/{short_id}/resources/route',
  summary: 'The resources that best answer a query',
  params: ShortIdParams,
  body: RouteRequest,
  responses: { 200: v2Envelope(z.array(z.string())), ...errors },
});
export const pptRetrieve = defineRoute({
  ...base,
  id: 'resources.pptRetrieve',
  method: 'POST',
  path: '/v2/livedocs/{short_id}/resources/ppt-retrieve',
  summary: 'Ranked chunks of one slide of a deck',
  params: ShortIdParams,
  body: PptRetrieveRequest,
  responses: { 200: v2Envelope(z.array(RetrieveResult)), ...errors },
});
export const downloadResource = defineRoute({
  ...base,
  id: 'resources.download',
  method: 'GET',
  path: '/v2/livedocs/{short_id}/resources/{resource_id}/download',
  summary: 'Redirect to an expiring signed download URL',
  params: ResourceParams,
  query: DownloadQuery,
  envelope: false,
  responses: { 302: null, ...errors },
});
export const resourceContent = defineRoute({
  ...base,
  id: 'resources.content',
  method: 'GET',
  path: '/v2/livedocs/{short_id}/resources/{resource_id}/content',
  summary: 'Extracted text of a resource',
  params: ResourceParams,
  responses: { 200: v2Envelope(ResourceContent), ...errors },
});

/** The local platform serves the signed download itself (see docs/decisions.md). */
export const SignedFileQuery = z.object({ expires: textInt(), sig: z.string().min(1).max(200) });
export const signedFile = defineRoute({
  id: 'files.signed',
  method: 'GET',
  path: '/files/resources/{resource_id}',
  auth: 'none',
  family: 'image',
  tag: 'livedocs',
  summary: 'A resource source file through a signed, expiring URL',
  params: z.object({ resource_id: z.string().min(1).max(100) }),
  query: SignedFileQuery,
  // 307: with an object store, on to the store's own presigned URL for the link's remaining life.
  responses: {
    200: { contentType: 'application/octet-stream', description: 'the file' },
    307: null,
    403: ImageErrorBody,
    404: ImageErrorBody,
  },
});

export const livedocRoutes = [
  createLiveDoc,
  listLiveDocs,
  getLiveDoc,
  updateLiveDoc,
  deleteLiveDoc,
  listResources,
  createDoc,
  uploadDoc,
  uploadFile,
  addUrls,
  retrieve,
  routeResources,
  pptRetrieve,
  getResource,
  updateResource,
  setResourceContent,
  deleteResource,
  downloadResource,
  resourceContent,
  signedFile,
];
