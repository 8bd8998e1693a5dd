import { performance } from 'node:perf_hooks';
import type { AppContext } from '../context.js';
import { fileKey, type FileStore } from '../files/file-store.js';
import { HttpError } from '../errors.js';
import { JobFailure, type JobContext } from '../jobs/queue.js';
import { searchChunks } from '../engines/retrieval/index.js';
import { aboutNamedSources } from '../engines/retrieval/named-sources.js';
import { generateOutline, OutlineInvalid, type SourcePassage } from '../engines/slides/outline.js';
import { buildDeck, type SourceTable } from '../engines/slides/deck.js';
import { findNumberTables, tableKey, type NumberTable } from '../engines/slides/tables.js';
import { queryTopics, subjectOf, termsOf } from '../engines/query-analysis.js';
import { PreviewUnavailable, renderPreviews } from '../engines/slides/preview.js';
import { runCpuJob } from '../engines/workers/index.js';
import * as resourcesRepo from '../store/resources.repo.js';
import * as decks from '../store/slides.repo.js';
import { removeResourceFiles } from './resource-files.js';
import { readSourceFile } from './resources.service.js';
import { addGeneratedResource } from './resource-uploads.service.js';
import { GENERATED_SOURCES, isGenerated } from './resource-rows.js';
import { registerDocTaskKind, TaskParked, type DocTaskRow } from './doc-tasks.service.js';
import { resolveTheme } from './ppt-themes.service.js';
import type { PptTaskRequest } from './slides.service.js';

/** Model failures that say the upstream is away, not that the request is wrong: the task waits (PENDING). */
const UPSTREAM_DOWN = new Set([
  'upstream_unreachable',
  'upstream_timeout',
  'upstream_overloaded',
  'upstream_rate_limited',
  'upstream_error',
]);

const MAX_PASSAGES = 24;
const MAX_CHARTS = 2;
const PREVIEW_TIMEOUT_MS = 120_000;
/** The job that draws a completed deck's previews. */
const PREVIEWS_JOB = 'slide-previews';

/** What a completed slide task keeps as its result (and the viewer reads from slide_decks). */
export interface PptTaskResult {
  [key: string]: unknown;
  resource_id: string;
  title: string;
  slide_count: number;
  theme_id: string;
  model: string;
  timings_ms: { retrieve: number; outline: number; layout: number; write: number; store: number };
  slides_requested?: number;
  content_slides?: number;
  note?: string;
}

/** A deck's previews live under decks/<biz_id>/ in the file store. */
export function deckPrefix(bizId: string): string {
  return fileKey('decks', bizId);
}

/**
 * The passages a deck is built from: the LiveDoc's chunks that best match the query (within the
 * named resources, if any), topped up with the opening chunks of those resources when the query
 * matches little, so that a deck always rests on the LiveDoc's own text. Earlier decks and mindmaps
 * are not sources (GENERATED_SOURCES).
 */
async function gatherPassages(ctx: AppContext, livedocId: string, req: PptTaskRequest): Promise<SourcePassage[]> {
  const scope = { livedocIds: [livedocId], resourceIds: req.resource_ids, excludeSources: GENERATED_SOURCES };
  // Each topic of the query is searched on its own too, so that every topic finds its passages (a
  // Chinese heading is one search word, which the whole question's words would not match).
  const topics = queryTopics(req.query);
  const perTopic =
    topics.length > 1 ? await Promise.all(topics.map((t) => searchChunks(ctx.db, t, { ...scope, limit: 3 }))) : [];
  const hits = [...perTopic.flat(), ...(await searchChunks(ctx.db, req.query, { ...scope, limit: MAX_PASSAGES * 2 }))];
  let q = ctx.db
    .selectFrom('resource_chunks')
    .innerJoin('livedoc_resources', 'livedoc_resources.id', 'resource_chunks.resource_id')
    .select([
      'resource_chunks.id',
      'resource_chunks.resource_id',
      'resource_chunks.title',
      'resource_chunks.content',
      'resource_chunks.ordinal',
    ])
    .where('resource_chunks.livedoc_id', '=', livedocId)
    .where('livedoc_resources.source', 'not in', [...GENERATED_SOURCES])
    .where('resource_chunks.ordinal', '<', 2);
  if (req.resource_ids) q = q.where('resource_chunks.resource_id', 'in', req.resource_ids);
  const openings = await q
    .orderBy('livedoc_resources.created_at')
    .orderBy('resource_chunks.ordinal')
    .limit(MAX_PASSAGES)
    .execute();
  const resources = new Map(
    (
      await resourcesRepo.findResourcesByIds(ctx.db, [
        ...new Set([...hits.map((h) => h.resourceId), ...openings.map((o) => o.resource_id)]),
      ])
    ).map((r) => [r.id, r]),
  );
  const picked: Array<{ id: number; resourceId: string; title: string; content: string }> = [];
  const seen = new Set<number>();
  const add = (c: { id: number; resourceId: string; title: string; content: string }) => {
    const r = resources.get(c.resourceId);
    if (!r || isGenerated(r) || seen.has(c.id) || picked.length >= MAX_PASSAGES) return;
    seen.add(c.id);
    picked.push(c);
  };
  for (const h of hits) add({ id: h.chunkId, resourceId: h.resourceId, title: h.title, content: h.content });
  if (picked.length < 8)
    for (const o of openings) add({ id: o.id, resourceId: o.resource_id, title: o.title, content: o.content });
  // A deck about one thing takes no slide from another document of its LiveDoc.
  const about = aboutNamedSources(picked, subjectOf(req.query), (c) => ({
    source: c.resourceId,
    title: resources.get(c.resourceId)!.title,
    text: c.content,
  }));
  return about.map((c, i) => {
    const r = resources.get(c.resourceId)!;
    return { ref: i + 1, resourceId: r.id, resourceTitle: r.title, section: c.title || r.title, content: c.content };
  });
}

/**
 * Tables of numbers in the resources the passages come from (and the named ones), each once (the
 * same table in two resources or twice in one is one chart): at most `max`, at most MAX_CHARTS.
 */
async function gatherTables(
  ctx: AppContext,
  passages: SourcePassage[],
  req: PptTaskRequest,
  max: number,
): Promise<SourceTable[]> {
  const ids = [...new Set([...passages.map((p) => p.resourceId), ...(req.resource_ids ?? [])])];
  const out: SourceTable[] = [];
  const seen = new Set<string>();
  // A table is charted when its heading, columns or rows speak of the query (or resources were named):
  // a price table does not take a slide of a deck about refunds.
  const want = new Set(termsOf(req.query));
  const about = (t: NumberTable) =>
    Boolean(req.resource_ids) ||
    termsOf([t.heading, ...t.series.map((x) => x.name), ...t.categories].join(' ')).some((w) => want.has(w));
  const byId = new Map((await resourcesRepo.findResourcesByIds(ctx.db, ids)).map((r) => [r.id, r]));
  for (const id of ids) {
    const r = byId.get(id);
    if (!r?.text || isGenerated(r)) continue;
    for (const table of findNumberTables(r.text)) {
      const key = tableKey(table);
      if (out.length >= Math.min(max, MAX_CHARTS) || seen.has(key) || !about(table)) continue;
      seen.add(key);
      out.push({ resourceId: r.id, resourceTitle: r.title, table });
    }
  }
  return out;
}

async function runPpt(ctx: AppContext, task: DocTaskRow, job: JobContext<{ task_id: string }>): Promise<PptTaskResult> {
  const req = JSON.parse(task.request) as PptTaskRequest;
  const done = await decks.findDeck(ctx.db, task.biz_id);
  // A run that stored its deck and stopped before the task was marked done is not redone.
  if (done)
    return resultOf(done, {
      model: 'unknown',
      timings_ms: { retrieve: 0, outline: 0, layout: 0, write: 0, store: 0 },
    });
  const theme = await resolveTheme(ctx, task.user_id, req.theme_id);
  if (!theme) throw new JobFailure(`the theme ${req.theme_id} no longer exists`);

  let t = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = Math.round(now - t);
    t = now;
    return ms;
  };
  const found = await gatherPassages(ctx, task.livedoc_id, req);
  // A deck asked for with no LiveDoc is written from what its prompt says (the service checked it says something).
  const passages: SourcePassage[] =
    found.length === 0 && req.from_prompt
      ? [{ ref: 1, resourceId: '', resourceTitle: 'Prompt', section: subjectOf(req.query), content: req.query }]
      : found;
  if (passages.length === 0)
    throw new JobFailure(
      `LiveDoc ${task.livedoc_id} has no text to build slides from: add documents or pages to it first`,
    );
  // `slide_count` counts content slides, charts included: a one-slide deck has room for no chart.
  const tables = await gatherTables(ctx, passages, req, req.slide_count - 1);
  const retrieveMs = lap();
  await job.log(`${passages.length} passage(s) and ${tables.length} table(s) of numbers from the LiveDoc`);

  let outline;
  try {
    outline = await generateOutline(ctx.gateway, {
      query: req.query,
      passages,
      maxSlides: req.slide_count - tables.length,
      lang: req.lang,
      scope: { apiKeyId: task.api_key_id, userId: task.user_id, taskId: task.id, operation: 'slides.outline' },
      signal: job.signal,
      model: ctx.config.defaultModel,
    });
  } catch (err) {
    if (err instanceof OutlineInvalid) throw new JobFailure(err.message);
    if (err instanceof HttpError && UPSTREAM_DOWN.has(err.code))
      throw new TaskParked(`the model service is unavailable (${err.message}); retry the task when it is back`);
    if (err instanceof HttpError) throw new JobFailure(`the outline could not be generated: ${err.message}`);
    throw err;
  }
  const outlineMs = lap();
  await job.log(`outline by ${outline.model}: ${outline.outline.slides.length} content slide(s)`);
  // Fewer than asked: each content slide is one topic of the LiveDoc's text (or a chart of its numbers).
  const made = outline.outline.slides.length + tables.length;
  const note =
    made < req.slide_count
      ? `${made} of the ${req.slide_count} content slides asked for: the LiveDoc's text covers ${made} topic${made === 1 ? '' : 's'}; add documents or pages to it for more`
      : undefined;
  if (note) await job.log(note);

  const deck = buildDeck({ outline: outline.outline, passages, tables, lang: req.lang });
  const composed = await runCpuJob(
    'write-deck',
    { deck, theme },
    { signal: job.signal, owner: task.api_key_id ?? task.user_id },
  );
  const pptx = Buffer.from(composed.pptx.buffer, composed.pptx.byteOffset, composed.pptx.byteLength);
  lap();
  await job.log(`deck written: ${composed.slides.length} slide(s), ${pptx.length} bytes`);

  const resourceId = `res_${task.biz_id.replace(/^ppt_/, '')}`;
  const existing = await resourcesRepo.findResource(ctx.db, task.livedoc_id, resourceId);
  if (!existing) {
    const fileName = `${
      deck.title
        .replace(/[^\p{L}\p{N} _.-]+/gu, '')
        .trim()
        .slice(0, 80) || 'deck'
    }.pptx`;
    await addGeneratedResource(
      ctx,
      task.livedoc_id,
      {
        id: resourceId,
        title: deck.title,
        resourceType: 'ai_ppt',
        contentType: 'ai_ppt',
        source: 'ppt',
        resourceKey: `ppt:${task.biz_id}`,
        text: composed.slides.map((s, i) => `Slide ${i + 1}\n${s.text}`).join('\n\n'),
        file: {
          name: fileName,
          mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
          data: pptx,
        },
      },
      composed.slides.map((s, i) => ({ ordinal: i, page: i + 1, title: s.title, content: s.text })),
    );
  }
  const row: decks.DeckRow = {
    biz_id: task.biz_id,
    task_id: task.id,
    user_id: task.user_id,
    livedoc_id: task.livedoc_id,
    resource_id: resourceId,
    theme_id: theme.id,
    title: deck.title,
    slides: JSON.stringify(composed.slides),
    previews: 0,
    previews_state: 'drawing',
    created_at: ctx.now().toISOString(),
  };
  await decks.insertDeck(ctx.db, row);
  // The deck is done: its previews (LibreOffice, seconds of CPU) are drawn by a job of their own,
  // so the task completes without waiting for pictures the .pptx does not need.
  await ctx.jobs.enqueue(PREVIEWS_JOB, { biz_id: task.biz_id }, { id: `previews_${task.biz_id}` });
  const storeMs = lap();
  return resultOf(row, {
    slides_requested: req.slide_count,
    content_slides: made,
    ...(note ? { note } : {}),
    model: outline.model,
    timings_ms: {
      retrieve: retrieveMs,
      outline: outlineMs,
      layout: Math.round(composed.layoutMs),
      write: Math.round(composed.writeMs),
      store: storeMs,
    },
  });
}

function resultOf(
  row: decks.DeckRow,
  extra: Pick<PptTaskResult, 'model' | 'timings_ms' | 'slides_requested' | 'content_slides' | 'note'>,
): PptTaskResult {
  return {
    resource_id: row.resource_id,
    title: row.title,
    slide_count: (JSON.parse(row.slides) as unknown[]).length,
    theme_id: row.theme_id,
    ...extra,
  };
}

/** Retention over: the deck resource, its file, its previews and its record go. */
async function removePpt(ctx: AppContext, task: DocTaskRow): Promise<void> {
  const row = await decks.findDeck(ctx.db, task.biz_id);
  await ctx.files.deletePrefix(deckPrefix(task.biz_id));
  if (!row) return;
  await resourcesRepo.deleteResource(ctx.db, row.resource_id);
  await removeResourceFiles(ctx.files, row.livedoc_id, row.resource_id);
  await decks.deleteDeck(ctx.db, task.biz_id);
}

/** Draws a completed deck's slide previews from its stored .pptx, then records how many. */
async function drawPreviews(ctx: AppContext, job: JobContext<{ biz_id: string }>): Promise<{ previews: number }> {
  const bizId = job.payload.biz_id;
  const deck = await decks.findDeck(ctx.db, bizId);
  // Removed meanwhile (retention, a deleted LiveDoc), or drawn by an earlier run: nothing to do.
  if (!deck || deck.previews_state !== 'drawing') return { previews: deck?.previews ?? 0 };
  const file = await readSourceFile(ctx, deck.resource_id);
  if (!file) {
    await decks.setDeckPreviews(ctx.db, bizId, 0, 'unavailable');
    return { previews: 0 };
  }
  let previews: Buffer[];
  try {
    previews = await renderPreviews(file.data, { signal: job.signal, timeoutMs: PREVIEW_TIMEOUT_MS, width: 1280 });
  } catch (err) {
    // A crash is tried again; on the last attempt (or without LibreOffice) the deck says it has none,
    // so the viewer never waits on previews that will not come.
    const last = err instanceof PreviewUnavailable || job.attempt >= job.maxAttempts;
    if (!last || job.signal.aborted) throw err;
    // A deck without previews is still the deck: the viewer shows the slides' text instead.
    await job.log(`no previews: ${err instanceof Error ? err.message : String(err)}`);
    await decks.setDeckPreviews(ctx.db, bizId, 0, 'unavailable');
    return { previews: 0 };
  }
  for (const [i, png] of previews.entries())
    await ctx.files.put(`${deckPrefix(bizId)}/slide-${i + 1}.png`, png, 'image/png');
  await decks.setDeckPreviews(ctx.db, bizId, previews.length, 'drawn');
  return { previews: previews.length };
}

export function registerSlides(ctx: AppContext): void {
  registerDocTaskKind(ctx, 'ppt', {
    run: (task, job) => runPpt(ctx, task, job),
    removeOutputs: (task) => removePpt(ctx, task),
  });
  ctx.jobs.register<{ biz_id: string }>(PREVIEWS_JOB, (job) => drawPreviews(ctx, job), { maxAttempts: 2 });
}

/** A preview picture of a deck's slide `n` (from 1), or null when there is none. */
export function readPreview(files: FileStore, bizId: string, n: number): Promise<Buffer | null> {
  return files.get(`${deckPrefix(bizId)}/slide-${n}.png`);
}
