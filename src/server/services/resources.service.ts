import type { Resource } from '../../contract/livedocs.js';
import { indexText } from '../text/segment.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { newId } from '../store/ids.js';
import * as repo from '../store/resources.repo.js';
import { indexResource } from '../engines/retrieval/index.js';
import { access, touch } from './livedocs.service.js';
import { removeResourceFiles, resourceFileKey, signedDownloadUrl } from './resource-files.js';
import { baseRow, checkedText, chunksOf, createIndexed, mustFind, snippetOf, toResource } from './resource-rows.js';

/** A LiveDoc's resources: listing, reading, editing and deleting them, their text and their source files. */

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
    .set({ resource_title: r.title, search_resource_title: indexText(r.title) })
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
