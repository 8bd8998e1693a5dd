import type { Resource } from '../../contract/livedocs.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { newId } from '../store/ids.js';
import * as repo from '../store/resources.repo.js';
import { indexResource } from '../engines/retrieval/index.js';
import type { TextChunk } from '../engines/retrieval/chunker.js';
import { DocumentRefused } from '../engines/extract/limits.js';
import { checkDocumentText } from '../engines/extract/markdown-shape.js';
import { runCpuJob } from '../engines/workers/index.js';
import { touch } from './livedocs.service.js';

/** What every way of adding a resource shares: its row, its snippet, its checks and storing it with its index. */

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

export async function mustFind(ctx: AppContext, livedocId: string, id: string): Promise<repo.ResourceRow> {
  const r = await repo.findResource(ctx.db, livedocId, id);
  if (!r) throw resourceNotFound(id);
  return r;
}

/** A document over DOCUMENT_LIMITS in the surface's error shape: 413 for a limit, 400 for a wrong format. */
export function refusalError(err: DocumentRefused, fileName?: string): HttpError {
  return new HttpError(err.code, fileName ? `${fileName}: ${err.message}` : err.message);
}

export function checkedText(text: string, what: string): void {
  try {
    checkDocumentText(text, what);
  } catch (err) {
    throw err instanceof DocumentRefused ? refusalError(err) : err;
  }
}

/** A text's retrieval chunks, cut in a CPU worker: a long document takes a while to cut. */
export const chunksOf = (row: repo.ResourceRow) =>
  row.text ? runCpuJob('chunk-text', { text: row.text, defaultTitle: row.title }) : Promise.resolve([]);

export async function createIndexed(ctx: AppContext, row: repo.ResourceRow, chunks?: TextChunk[]): Promise<Resource> {
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

export function baseRow(
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

/**
 * Resources the platform wrote from a LiveDoc (a slide deck, a mindmap). They are never sources for
 * writing another document: a mindmap drawn from a deck drawn from the LiveDoc only echoes it.
 * A deck the user uploaded is a source like any other document.
 */
export const GENERATED_SOURCES: readonly string[] = ['ppt', 'mindmap'];

export const isGenerated = (r: { source: string }) => GENERATED_SOURCES.includes(r.source);
