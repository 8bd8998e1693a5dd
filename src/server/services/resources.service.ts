import path from 'node:path';
import type { Resource } from '../../contract/livedocs.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { newId } from '../store/ids.js';
import * as repo from '../store/resources.repo.js';
import { indexResource } from '../engines/retrieval/index.js';
import type { TextChunk } from '../engines/retrieval/chunker.js';
import { convertFile } from '../engines/extract/convert.js';
import { checkTextLength, DocumentRefused } from '../engines/extract/limits.js';
import { runCpuJob } from '../engines/workers/index.js';
import { fetchPage, FetchFailed } from '../engines/extract/fetch-page.js';
import { access, touch } from './livedocs.service.js';
import { removeResourceFiles, resourceFileKey, saveResourceFile, signedDownloadUrl } from './resource-files.js';
import { createHash } from 'node:crypto';

export const resourceNotFound = (id: string) =>
  new HttpError('RESOURCE_NOT_FOUND', `Resource ${id} not found in this LiveDoc`);

export function toResource(r: repo.ResourceRow): Resource {
  return {
    id: r.id,
    title: r.title,
    link: r.link,
    snippet: r.snippet,
    thumbnail: r.thumbnail,
    resource_type: r.resource_type,
    resource_key: r.resource_key,
    status: r.status,
    source: r.source,
    created_at: r.created_at,
    modified_at: r.modified_at,
  };
}

/** The first `bytes` bytes of a text, never cutting a character in half (spec 8: snippet from 2000 bytes). */
export function snippetOf(text: string, bytes = 2000): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= bytes) return text.trim();
  let end = bytes;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8').trim();
}

async function mustFind(ctx: AppContext, livedocId: string, id: string): Promise<repo.ResourceRow> {
  const r = await repo.findResource(ctx.db, livedocId, id);
  if (!r) throw resourceNotFound(id);
  return r;
}

/** A document over DOCUMENT_LIMITS in the surface's error shape: 413 for a limit, 400 for a wrong format. */
export function refusalError(err: DocumentRefused, fileName?: string): HttpError {
  return new HttpError(err.code, fileName ? `${fileName}: ${err.message}` : err.message);
}

function checkedText(text: string, what: string): void {
  try {
    checkTextLength(text, what);
  } catch (err) {
    throw err instanceof DocumentRefused ? refusalError(err) : err;
  }
}

/** A text's retrieval chunks, cut in a CPU worker: a long document takes a while to cut. */
const chunksOf = (row: repo.ResourceRow) =>
  row.text ? runCpuJob('chunk-text', { text: row.text, defaultTitle: row.title }) : Promise.resolve([]);

async function createIndexed(ctx: AppContext, row: repo.ResourceRow, chunks?: TextChunk[]): Promise<Resource> {
  const pieces = chunks ?? (await chunksOf(row));
  await repo.insertResource(ctx.db, row);
  try {
    await indexResource(ctx.db, row, pieces);
  } catch (err) {
    await repo.deleteResource(ctx.db, row.id);
    throw err;
  }
  await touch(ctx, row.livedoc_id);
  return toResource(row);
}

function baseRow(
  ctx: AppContext,
  livedocId: string,
  fields: Partial<repo.ResourceRow> &
    Pick<repo.ResourceRow, 'title' | 'resource_type' | 'source' | 'content_type' | 'resource_key'>,
): repo.ResourceRow {
  const at = ctx.now().toISOString();
  return {
    id: fields.id ?? newId('res'),
    livedoc_id: livedocId,
    link: '',
    snippet: '',
    thumbnail: '',
    status: 'completed',
    text: null,
    file_path: null,
    file_name: null,
    mime_type: null,
    created_at: at,
    modified_at: at,
    ...fields,
  };
}

export async function listResources(
  ctx: AppContext,
  userId: string,
  livedocId: string,
  q: { resource_types?: string[]; page: number; size: number },
) {
  await access(ctx, userId, livedocId, 'read');
  const { total, rows } = await repo.pageResources(ctx.db, livedocId, {
    types: q.resource_types,
    offset: (q.page - 1) * q.size,
    limit: q.size,
  });
  return { total, page: q.page, size: q.size, items: rows.map(toResource) };
}

export async function getResource(ctx: AppContext, userId: string, livedocId: string, id: string): Promise<Resource> {
  await access(ctx, userId, livedocId, 'read');
  return toResource(await mustFind(ctx, livedocId, id));
}

export async function createDoc(
  ctx: AppContext,
  userId: string,
  livedocId: string,
  input: { title?: string; content: string },
): Promise<Resource> {
  await access(ctx, userId, livedocId, 'write');
  checkedText(input.content, 'content');
  // An empty document is allowed: it is filled later with set-content.
  const id = newId('res');
  const title = input.title ?? 'New Document';
  return createIndexed(
    ctx,
    baseRow(ctx, livedocId, {
      id,
      title,
      resource_type: 'ai_doc',
      source: 'doc',
      content_type: 'text',
      resource_key: `doc:${id}`,
      text: input.content,
      snippet: snippetOf(input.content),
    }),
  );
}

export async function setContent(
  ctx: AppContext,
  userId: string,
  livedocId: string,
  id: string,
  content: string,
): Promise<Resource> {
  await access(ctx, userId, livedocId, 'write');
  const r = await mustFind(ctx, livedocId, id);
  if (r.resource_type !== 'ai_doc')
    throw new HttpError(
      'UNSUPPORTED_RESOURCE_TYPE',
      `only ai_doc resources have editable content; this one is ${r.resource_type}`,
    );
  checkedText(content, 'content');
  const next = { ...r, text: content, snippet: snippetOf(content), modified_at: ctx.now().toISOString() };
  const chunks = await chunksOf(next);
  await repo.updateResource(ctx.db, id, { text: next.text, snippet: next.snippet, modified_at: next.modified_at });
  await indexResource(ctx.db, next, chunks);
  await touch(ctx, livedocId);
  return toResource(next);
}

export async function updateResource(
  ctx: AppContext,
  userId: string,
  livedocId: string,
  id: string,
  patch: { title?: string; snippet?: string; thumbnail?: string },
): Promise<Resource> {
  await access(ctx, userId, livedocId, 'write');
  const r = await mustFind(ctx, livedocId, id);
  const next = {
    ...r,
    ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
    modified_at: ctx.now().toISOString(),
  };
  await repo.updateResource(ctx.db, id, {
    title: next.title,
    snippet: next.snippet,
    thumbnail: next.thumbnail,
    modified_at: next.modified_at,
  });
  // The title is indexed with every chunk, so a new title is searchable at once.
  if (patch.title !== undefined && patch.title !== r.title) await reindexTitle(ctx, next);
  return toResource(next);
}

async function reindexTitle(ctx: AppContext, r: repo.ResourceRow): Promise<void> {
  // The update trigger re-indexes each chunk with the new title.
  await ctx.db
    .updateTable('resource_chunks')
    .set({ resource_title: r.title })
    .where('resource_id', '=', r.id)
    .execute();
}

export async function deleteResource(ctx: AppContext, userId: string, livedocId: string, id: string): Promise<null> {
  await access(ctx, userId, livedocId, 'write');
  await mustFind(ctx, livedocId, id);
  await repo.deleteResource(ctx.db, id);
  await removeResourceFiles(ctx.files, livedocId, id);
  await touch(ctx, livedocId);
  return null;
}

export interface UploadedFile {
  fileName: string;
  mimeType: string;
  data: Buffer;
  title?: string;
}

/** Upload keeping the format: the source file is stored (downloadable) and its text indexed when it has any. */
export async function uploadFile(
  ctx: AppContext,
  userId: string,
  livedocId: string,
  file: UploadedFile,
  read?: ConvertedUpload,
): Promise<Resource> {
  await access(ctx, userId, livedocId, 'write');
  const converted = read ?? (await convertOrFail(file, userId));
  const id = newId('res');
  const filePath = await saveResourceFile(
    ctx.files,
    livedocId,
    id,
    file.fileName,
    file.data,
    file.mimeType || undefined,
  );
  const title = file.title || converted.title || path.parse(file.fileName).name || 'Untitled';
  const hash = createHash('sha256').update(file.data).digest('hex').slice(0, 32);
  return createIndexed(
    ctx,
    baseRow(ctx, livedocId, {
      id,
      title,
      resource_type: 'file',
      source: 'upload',
      content_type: converted.contentType,
      resource_key: `file:${hash}`,
      text: converted.text,
      snippet: converted.text ? snippetOf(converted.text) : '',
      file_path: filePath,
      file_name: path.basename(file.fileName),
      mime_type: file.mimeType || 'application/octet-stream',
    }),
    converted.chunks,
  );
}

/** Upload-doc: the file becomes an editable ai_doc (Markdown); the original is kept for download. */
export async function uploadDoc(
  ctx: AppContext,
  userId: string,
  livedocId: string,
  file: UploadedFile,
): Promise<Resource> {
  await access(ctx, userId, livedocId, 'write');
  const converted = await convertOrFail(file, userId);
  if (converted.text === null || !converted.text.trim()) {
    throw new HttpError(
      'UNSUPPORTED_RESOURCE_TYPE',
      `cannot convert ${file.fileName} into a document: use Markdown, text, HTML, PDF, DOCX or PPTX with text in it`,
    );
  }
  const id = newId('res');
  const filePath = await saveResourceFile(
    ctx.files,
    livedocId,
    id,
    file.fileName,
    file.data,
    file.mimeType || undefined,
  );
  const title = file.title || converted.title || path.parse(file.fileName).name || 'New Document';
  return createIndexed(
    ctx,
    baseRow(ctx, livedocId, {
      id,
      title,
      resource_type: 'ai_doc',
      source: 'upload',
      content_type: 'text',
      resource_key: `doc:${id}`,
      text: converted.text,
      snippet: snippetOf(converted.text),
      file_path: filePath,
      file_name: path.basename(file.fileName),
      mime_type: file.mimeType || 'application/octet-stream',
    }),
    converted.chunks,
  );
}

/** An upload's text and chunks, read once: a caller that must see the text first (a landing page) passes it on to uploadFile. */
export type ConvertedUpload = Awaited<ReturnType<typeof convertOrFail>>;
export const readUpload = (file: UploadedFile, owner: string) => convertOrFail(file, owner);

async function convertOrFail(file: UploadedFile, owner: string) {
  try {
    return await convertFile(file.data, { fileName: file.fileName, mimeType: file.mimeType, owner });
  } catch (err) {
    if (err instanceof DocumentRefused) throw refusalError(err, file.fileName);
    // The CPU pool's refusals (queue full, a time or memory limit) keep their status and code.
    if (err instanceof HttpError) throw err;
    throw new HttpError('INVALID_PARAMETER', `cannot read ${file.fileName}: ${(err as Error).message}`);
  }
}

function normalizeUrl(raw: string): string | null {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    return u.toString();
  } catch {
    return null;
  }
}

type UrlItem = string | { url: string; title?: string };

/** Web pages compared for "the same page again": the first this many of a LiveDoc. */
const SAME_PAGE_SCAN = 500;

/** A page's words without its link targets: the same page at another address resolves its relative links elsewhere. */
const pageKey = (text: string) =>
  text
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/\s+/g, ' ')
    .trim();

/** The web page of the LiveDoc whose text is this page's (links aside), if one is. */
async function samePage(ctx: AppContext, livedocId: string, text: string): Promise<{ id: string } | undefined> {
  const key = pageKey(text);
  return (await repo.webTexts(ctx.db, livedocId, SAME_PAGE_SCAN)).find(
    (r) => r.text !== null && pageKey(r.text) === key,
  );
}

/**
 * Fetches and extracts each page (four at a time); one failure never fails the others. A URL
 * already in the LiveDoc, or repeated within the request, is reported as existed.
 */
export async function addUrls(ctx: AppContext, userId: string, livedocId: string, items: UrlItem[]) {
  await access(ctx, userId, livedocId, 'write');
  const work = items.map((item) =>
    typeof item === 'string' ? { url: item.trim(), title: undefined } : { url: item.url.trim(), title: item.title },
  );
  type Result = {
    url: string;
    status: 'success' | 'failed' | 'existed';
    fail_reason: string | null;
    resource_id: string;
  };
  const results: Result[] = new Array(work.length);
  const firstOf = new Map<string, number>();
  const todo: number[] = [];
  work.forEach(({ url }, i) => {
    const normalized = normalizeUrl(url);
    if (!normalized)
      results[i] = { url, status: 'failed', fail_reason: 'not a valid http or https URL', resource_id: '' };
    else if (firstOf.has(normalized)) return;
    else {
      firstOf.set(normalized, i);
      todo.push(i);
    }
  });
  const addOne = async (i: number) => {
    const { url, title } = work[i];
    const normalized = normalizeUrl(url)!;
    const key = `url:${normalized}`;
    const existing = await repo.findByKey(ctx.db, livedocId, key);
    if (existing) return { url, status: 'existed', fail_reason: null, resource_id: existing.id } as Result;
    try {
      const page = await fetchPage(normalized, { policy: ctx.fetchPolicy });
      // The same page by another address (a redirect, a tracking parameter) is the one already added.
      const landed = normalizeUrl(page.finalUrl);
      const same =
        (landed && landed !== normalized ? await repo.findByKey(ctx.db, livedocId, `url:${landed}`) : undefined) ??
        (await samePage(ctx, livedocId, page.text));
      if (same) return { url, status: 'existed', fail_reason: null, resource_id: same.id } as Result;
      const row = baseRow(ctx, livedocId, {
        title: title || page.title || normalized,
        link: normalized,
        resource_type: 'web',
        source: 'url',
        content_type: 'document',
        resource_key: key,
        text: page.text,
        snippet: snippetOf(page.excerpt || page.text, 2000),
      });
      await createIndexed(ctx, row);
      return { url, status: 'success', fail_reason: null, resource_id: row.id } as Result;
    } catch (err) {
      const reason = err instanceof FetchFailed ? err.message : `extraction failed: ${(err as Error).message}`;
      return { url, status: 'failed', fail_reason: reason, resource_id: '' } as Result;
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(4, todo.length) }, async () => {
      while (next < todo.length) {
        const i = todo[next++];
        results[i] = await addOne(i);
      }
    }),
  );
  // Repeats within the request point at the first occurrence's resource.
  work.forEach(({ url }, i) => {
    if (results[i]) return;
    const first = results[firstOf.get(normalizeUrl(url)!)!];
    results[i] = { url, status: 'existed', fail_reason: null, resource_id: first.resource_id };
  });
  return results;
}

export async function resourceContent(ctx: AppContext, userId: string, livedocId: string, id: string) {
  await access(ctx, userId, livedocId, 'read');
  const r = await mustFind(ctx, livedocId, id);
  if (r.text === null)
    throw new HttpError('UNSUPPORTED_RESOURCE_TYPE', `a resource of type ${r.content_type} has no text content`);
  return { title: r.title, type: r.resource_type === 'file' ? r.content_type : r.resource_type, content: r.text };
}

export async function downloadUrl(
  ctx: AppContext,
  userId: string,
  livedocId: string,
  id: string,
  expiresIn: number,
): Promise<string> {
  await access(ctx, userId, livedocId, 'read');
  const r = await mustFind(ctx, livedocId, id);
  if (!r.file_path)
    throw new HttpError(
      'UNSUPPORTED_RESOURCE_TYPE',
      `resource ${id} has no source file to download (type ${r.resource_type})`,
    );
  // An object store signs its own short-lived URL: the download goes there, not through this server.
  const direct = await ctx.files.presignGet(resourceFileKey(r.file_path), {
    expiresIn,
    fileName: r.file_name ?? 'file',
    contentType: r.mime_type ?? undefined,
  });
  if (direct) return direct;
  const expires = Math.floor(ctx.now().getTime() / 1000) + expiresIn;
  return signedDownloadUrl(ctx.baseUrl, ctx.tokenSecret, r.id, expires);
}

/** Where a resource's source file is stored (its key), with its name and type; null when it has none. */
export async function sourceFile(
  ctx: AppContext,
  id: string,
): Promise<{ key: string; name: string; mime: string } | null> {
  const r = await repo.findResourceById(ctx.db, id);
  if (!r?.file_path) return null;
  return {
    key: resourceFileKey(r.file_path),
    name: r.file_name ?? 'file',
    mime: r.mime_type ?? 'application/octet-stream',
  };
}

export async function readSourceFile(ctx: AppContext, id: string) {
  const f = await sourceFile(ctx, id);
  const data = f ? await ctx.files.get(f.key) : null;
  return f && data ? { name: f.name, mime: f.mime, data } : null;
}

/**
 * A resource the platform generated (a slide deck): its source file stored for download and its
 * text indexed as the given chunks (one per slide, with its page number, so ppt-retrieve works).
 */
export async function addGeneratedResource(
  ctx: AppContext,
  livedocId: string,
  input: {
    id: string;
    title: string;
    resourceType: string;
    contentType: string;
    source: string;
    resourceKey: string;
    text: string;
    file: { name: string; mime: string; data: Buffer };
  },
  chunks: TextChunk[],
): Promise<Resource> {
  const filePath = await saveResourceFile(
    ctx.files,
    livedocId,
    input.id,
    input.file.name,
    input.file.data,
    input.file.mime,
  );
  return createIndexed(
    ctx,
    baseRow(ctx, livedocId, {
      id: input.id,
      title: input.title,
      resource_type: input.resourceType,
      source: input.source,
      content_type: input.contentType,
      resource_key: input.resourceKey,
      text: input.text,
      snippet: snippetOf(input.text),
      file_path: filePath,
      file_name: input.file.name,
      mime_type: input.file.mime,
    }),
    chunks,
  );
}

/**
 * Resources the platform wrote from a LiveDoc (a slide deck, a mindmap). They are never sources for
 * writing another document: a mindmap drawn from a deck drawn from the LiveDoc only echoes it.
 * A deck the user uploaded is a source like any other document.
 */
export const GENERATED_SOURCES: readonly string[] = ['ppt', 'mindmap'];

export const isGenerated = (r: { source: string }) => GENERATED_SOURCES.includes(r.source);
