import type { LiveDoc } from '../../contract/livedocs.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { JsonText } from '../json-text.js';
import { newId } from '../store/ids.js';
import { ViewCache } from '../store/view-cache.js';
import * as repo from '../store/livedocs.repo.js';
import { newestPerLiveDoc } from '../store/resources.repo.js';
import { removeLiveDocFiles } from './resource-files.js';

type Ctx = Pick<AppContext, 'db' | 'now'> & Partial<Pick<AppContext, 'config' | 'files'>>;

export interface Access {
  doc: repo.LiveDocRow;
  owner: boolean;
}

export const liveDocNotFound = (id: string) => new HttpError('LIVEDOC_NOT_FOUND', `LiveDoc ${id} not found`);

/**
 * The one gate to a LiveDoc: its owner may do anything; a user it is shared with may read and
 * search it; anyone else gets LIVEDOC_NOT_FOUND, so ids of other users' LiveDocs reveal nothing.
 */
export async function access(ctx: Ctx, userId: string, id: string, need: 'read' | 'write'): Promise<Access> {
  const doc = await repo.findLiveDoc(ctx.db, id);
  if (!doc) throw liveDocNotFound(id);
  if (doc.owner_id === userId) return { doc, owner: true };
  if (!(await repo.isSharedWith(ctx.db, id, userId))) throw liveDocNotFound(id);
  if (need === 'write')
    throw new HttpError('FORBIDDEN', `LiveDoc ${id} is shared with you read-only; only its owner can change it`);
  return { doc, owner: false };
}

export function toLiveDoc(doc: repo.LiveDocRow, userId: string): LiveDoc {
  return {
    short_id: doc.id,
    name: doc.name,
    description: doc.description,
    icon: doc.icon,
    created_at: doc.created_at,
    modified_at: doc.modified_at,
    is_shared: doc.owner_id !== userId,
  };
}

export async function createLiveDoc(
  ctx: Ctx,
  userId: string,
  input: { name: string; description?: string; icon?: string },
): Promise<LiveDoc> {
  const at = ctx.now().toISOString();
  const row: repo.LiveDocRow = {
    id: newId('ld'),
    owner_id: userId,
    name: input.name,
    description: input.description ?? '',
    icon: input.icon ?? '',
    created_at: at,
    modified_at: at,
  };
  await repo.insertLiveDoc(ctx.db, row);
  return toLiveDoc(row, userId);
}

/**
 * The LiveDoc a request works in (conversations, slides, landing pages, mindmaps): the one it
 * names, which the user must be able to use (`need`), or a new one named after the query when it
 * names none. LIVEDOC_NOT_FOUND for a named one that is absent or another user's;
 * LIVEDOC_CREATE_FAILED when the new one cannot be made.
 */
export async function liveDocForRequest(
  ctx: Ctx,
  userId: string,
  shortId: string | undefined,
  input: { query: string; madeFor: string; need: 'read' | 'write' },
): Promise<{ shortId: string; created: boolean }> {
  if (shortId) {
    await access(ctx, userId, shortId, input.need);
    return { shortId, created: false };
  }
  const title = input.query.trim().replace(/\s+/g, ' ').slice(0, 80) || 'Untitled';
  try {
    const doc = await createLiveDoc(ctx, userId, {
      name: title,
      description: `Created for the ${input.madeFor} "${title}"`,
    });
    return { shortId: doc.short_id, created: true };
  } catch (err) {
    throw new HttpError(
      'LIVEDOC_CREATE_FAILED',
      `could not create a LiveDoc for the ${input.madeFor}: ${(err as Error).message}`,
    );
  }
}

/** Marks a LiveDoc changed when its resources change, so lists show the freshest first. */
export async function touch(ctx: Ctx, id: string): Promise<void> {
  await repo.updateLiveDoc(ctx.db, id, { modified_at: ctx.now().toISOString() });
}

/**
 * The readme of a list item, written from the LiveDoc's contents: null while it has no resources;
 * otherwise a one-line summary and a Markdown overview of its newest resources.
 */
function readmeOf(
  doc: repo.LiveDocRow,
  resources: Array<{ title: string; snippet: string; link: string }> | undefined,
) {
  if (!resources || resources.length === 0) return null;
  const summary =
    doc.description.split(/(?<=[.!?])\s/)[0]?.trim() ||
    `${doc.name}: ${resources
      .map((r) => r.title)
      .slice(0, 3)
      .join(', ')}`;
  const lines = resources.map(
    (r) =>
      `- **${r.title || 'Untitled'}**${r.link ? ` (${r.link})` : ''}${r.snippet ? ` — ${r.snippet.slice(0, 160).replace(/\s+/g, ' ')}` : ''}`,
  );
  return {
    summary,
    content: `# ${doc.name}\n\n${doc.description ? doc.description + '\n\n' : ''}${lines.join('\n')}\n`,
  };
}

// A page of the list, as sent: served again until a LiveDoc, a share or a resource changes.
const listPages = new ViewCache('livedocs');

/**
 * A page of the user's LiveDocs: from the answer cache at once (no promise) when nothing changed
 * since it was read; `fresh` reads it from the store even when a cached copy is current.
 */
export function listLiveDocs(
  ctx: Ctx,
  userId: string,
  q: { keyword?: string; page: number; size: number },
  options: { fresh?: boolean } = {},
): JsonText | Promise<JsonText> {
  const keyword = q.keyword?.trim() || undefined;
  const load = async () =>
    new JsonText(JSON.stringify(await readPage(ctx, userId, { keyword, page: q.page, size: q.size })));
  if (options.fresh) return load();
  return listPages.get(ctx.db, `${userId}\n${q.page}\n${q.size}\n${keyword ?? ''}`, load);
}

async function readPage(ctx: Ctx, userId: string, q: { keyword?: string; page: number; size: number }) {
  const { total, rows } = await repo.pageVisible(ctx.db, userId, {
    keyword: q.keyword,
    offset: (q.page - 1) * q.size,
    limit: q.size,
  });
  const newest = await newestPerLiveDoc(
    ctx.db,
    rows.map((r) => r.id),
    5,
  );
  return {
    total,
    page: q.page,
    size: q.size,
    items: rows.map((r) => ({ ...toLiveDoc(r, userId), readme: readmeOf(r, newest.get(r.id)) })),
  };
}

export async function getLiveDoc(ctx: Ctx, userId: string, id: string) {
  const { doc } = await access(ctx, userId, id, 'read');
  const newest = await newestPerLiveDoc(ctx.db, [doc.id], 5);
  return { ...toLiveDoc(doc, userId), readme: readmeOf(doc, newest.get(doc.id)) };
}

export async function updateLiveDoc(
  ctx: Ctx,
  userId: string,
  id: string,
  patch: { name?: string; description?: string },
): Promise<LiveDoc> {
  const { doc } = await access(ctx, userId, id, 'write');
  const next = {
    ...doc,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    modified_at: ctx.now().toISOString(),
  };
  await repo.updateLiveDoc(ctx.db, id, {
    name: next.name,
    description: next.description,
    modified_at: next.modified_at,
  });
  return toLiveDoc(next, userId);
}

/** Deletes the LiveDoc; resources, chunks (and so the index) and shares follow by cascade. */
export async function deleteLiveDoc(ctx: Ctx, userId: string, id: string): Promise<null> {
  await access(ctx, userId, id, 'write');
  await repo.deleteLiveDoc(ctx.db, id);
  if (ctx.files) await removeLiveDocFiles(ctx.files, id);
  return null;
}
