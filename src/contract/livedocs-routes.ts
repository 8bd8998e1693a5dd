import { z } from 'zod';
import { defineRoute } from './route.js';
import { ImageErrorBody, V2ErrorBody } from './errors.js';
import { v2Envelope, v2Page } from './envelopes.js';
import {
  AddUrlsRequest,
  CreateDocRequest,
  CreateLiveDocRequest,
  DownloadQuery,
  ListLiveDocsQuery,
  ListResourcesQuery,
  LiveDoc,
  LiveDocListItem,
  PptRetrieveRequest,
  Resource,
  ResourceContent,
  ResourceParams,
  RetrieveRequest,
  RetrieveResult,
  RouteRequest,
  SetContentRequest,
  ShortIdParams,
  SignedFileQuery,
  UpdateLiveDocRequest,
  UpdateResourceRequest,
  UrlAddResult,
} from './livedocs.js';

/** The LiveDoc routes: LiveDocs themselves, their resources, and the signed download of a resource's file. */

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
