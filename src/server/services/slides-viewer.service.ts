import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { requirePageLink, sameLinkQuery } from '../auth/signed-links.js';
import * as decks from '../store/slides.repo.js';
import { findResourceById } from '../store/resources.repo.js';
import { currentStatus, findTaskByBiz, type DocTaskRow } from './doc-tasks.service.js';
import { readSourceFile, sourceFile } from './resources.service.js';
import { readPreview } from './slides.runner.js';
import { taskPageRenderer } from '../pages/task-page-delegates.js';

/** Life of the object-store URL a deck download is sent to: long enough to start it, short enough not to be shared. */
const DECK_URL_SECONDS = 300;

type Link = { expires?: string; sig?: string };

export interface SlideViewerData {
  title: string;
  bizId: string;
  slides: Array<{ n: number; title: string; text: string; preview?: string }>;
  download: string;
  createdAt: string;
  /** drawing: previews come after the deck (a job of their own); unavailable: none could be drawn. */
  previewsState: decks.DeckRow['previews_state'];
}

/** The signed link is the grant (it was handed to the deck's owner in an API answer); the task must have completed. */
async function completedDeck(
  ctx: AppContext,
  bizId: string,
  link: Link,
): Promise<{ task: DocTaskRow; deck?: decks.DeckRow }> {
  requirePageLink(ctx, 'slides', bizId, link);
  const task = await findTaskByBiz(ctx, bizId);
  if (!task) throw new HttpError('NOT_FOUND', `no deck ${bizId}`);
  if (task.kind !== 'ppt') return { task };
  const status = await currentStatus(ctx, task);
  if (status === 'EXPIRED')
    throw new HttpError('NOT_FOUND', 'this deck was removed at the end of its retention window');
  if (status !== 'COMPLETED')
    throw new HttpError('CONFLICT', `the deck is not ready: its task is ${status}`, { status: 409 });
  const deck = await decks.findDeck(ctx.db, bizId);
  if (!deck) throw new HttpError('NOT_FOUND', `deck ${bizId} no longer exists`);
  return { task, deck };
}

/** The viewer page's data, or the HTML of another kind's page served at the same URL. */
export async function slideViewer(
  ctx: AppContext,
  bizId: string,
  link: Link,
): Promise<SlideViewerData | { html: string }> {
  const { task, deck } = await completedDeck(ctx, bizId, link);
  if (!deck) {
    const render = taskPageRenderer(task.kind);
    if (!render) throw new HttpError('NOT_FOUND', `no page for a ${task.kind} task here`);
    return { html: await render(task, link) };
  }
  const q = sameLinkQuery(ctx, 'slides', bizId, link);
  const base = `/slides/${encodeURIComponent(bizId)}`;
  const slides = (JSON.parse(deck.slides) as Array<{ title: string; text: string }>).map((s, i) => ({
    n: i + 1,
    title: s.title,
    text: s.text,
    ...(i < deck.previews ? { preview: `${base}/previews/${i + 1}?${q}` } : {}),
  }));
  return {
    title: deck.title,
    bizId,
    slides,
    download: `${base}/deck.pptx?${q}`,
    createdAt: deck.created_at,
    previewsState: deck.previews_state,
  };
}

export async function slidePreview(ctx: AppContext, bizId: string, n: number, link: Link): Promise<Buffer> {
  const { deck } = await completedDeck(ctx, bizId, link);
  const png = deck && n <= deck.previews ? await readPreview(ctx.files, bizId, n) : null;
  if (!png) throw new HttpError('NOT_FOUND', `slide ${n} has no preview`);
  return png;
}

/** The deck's file: a short-lived object-store URL to send the caller to, or the bytes themselves. */
export async function deckFile(
  ctx: AppContext,
  bizId: string,
  link: Link,
): Promise<{ redirect: string } | { name: string; mime: string; data: Buffer }> {
  const { deck } = await completedDeck(ctx, bizId, link);
  const stored =
    deck && (await findResourceById(ctx.db, deck.resource_id)) ? await sourceFile(ctx, deck.resource_id) : null;
  const direct =
    stored &&
    (await ctx.files.presignGet(stored.key, {
      expiresIn: DECK_URL_SECONDS,
      fileName: stored.name,
      contentType: stored.mime,
    }));
  if (direct) return { redirect: direct };
  const file = stored ? await readSourceFile(ctx, deck!.resource_id) : null;
  if (!file) throw new HttpError('NOT_FOUND', 'the deck file no longer exists');
  return file;
}
