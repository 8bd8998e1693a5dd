import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Resource } from '../../contract/livedocs.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { newId } from '../store/ids.js';
import type { TextChunk } from '../engines/retrieval/chunker.js';
import { convertFile } from '../engines/extract/convert.js';
import { DocumentRefused } from '../engines/extract/limits.js';
import { access } from './livedocs.service.js';
import { saveResourceFile } from './resource-files.js';
import { baseRow, createIndexed, refusalError, snippetOf } from './resource-rows.js';

/** Resources that arrive as files: an upload kept as a file, an upload turned into a document, a file the platform generated. */

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
  const { id, filePath, title } = await keepUploadedFile(ctx, livedocId, file, converted.title, 'Untitled');
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
  const { id, filePath, title } = await keepUploadedFile(ctx, livedocId, file, converted.title, 'New Document');
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

/** The uploaded file kept under a new resource id, and the title it gets: given, read, or its name. */
async function keepUploadedFile(
  ctx: AppContext,
  livedocId: string,
  file: UploadedFile,
  readTitle: string | null | undefined,
  fallback: string,
): Promise<{ id: string; filePath: string; title: string }> {
  const id = newId('res');
  const filePath = await saveResourceFile(
    ctx.files,
    livedocId,
    id,
    file.fileName,
    file.data,
    file.mimeType || undefined,
  );
  return { id, filePath, title: file.title || readTitle || path.parse(file.fileName).name || fallback };
}
