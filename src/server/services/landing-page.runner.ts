import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { JobFailure, type JobContext } from '../jobs/queue.js';
import { generateLandingPage, type PagePassage } from '../engines/landing-page/index.js';
import { ensureLandingPagePaid, refundLandingPage } from '../auth/landing-page-billing.js';
import { leadingChunks } from '../store/landing-pages.repo.js';
import { retrieve } from './retrieval.service.js';
import { taskOutputPrefix, taskPrefix } from './task-files.js';
import { registerDocTaskKind, TaskParked, taskResult, type DocTaskRow } from './doc-tasks.service.js';
import type { LandingPageTaskRequest } from './landing-pages.service.js';

/** What a landing-page task's result JSON holds. */
export type LandingPageResult = {
  /** Where the page was written (a private file of the task, 0600); it is read back from the file store by the task's id. */
  html_file: string;
  bytes: number;
  title: string;
  sections: number;
  sources: number;
  planned_by: 'model' | 'composer';
};

const PASSAGES = 16;
const PAGE_FILE = 'landing-page.html';

/** Passages for the page: retrieval over the LiveDoc (or its chosen resources), else its first text. */
async function passagesFor(ctx: AppContext, task: DocTaskRow, req: LandingPageTaskRequest): Promise<PagePassage[]> {
  const refs = new Map<string, number>();
  const refOf = (resourceId: string) => refs.get(resourceId) ?? (refs.set(resourceId, refs.size + 1), refs.size);
  // Resources named by the user are used as they are; otherwise earlier decks and mindmaps are not sources.
  const hits = await retrieve(ctx, task.user_id, task.livedoc_id, {
    query: req.query,
    resource_ids: req.resource_ids,
    top_k: PASSAGES,
  });
  if (hits.length > 0) {
    return hits.map((h) => ({
      ref: refOf(h.id),
      resourceId: h.id,
      title: h.title,
      section: h.metadata.section,
      content: h.content,
      link: h.metadata.link,
    }));
  }
  // The query's words are in none of the text: the page is about what the LiveDoc holds.
  const rows = await leadingChunks(ctx.db, task.livedoc_id, req.resource_ids, PASSAGES);
  return rows.map((r) => ({
    ref: refOf(r.resource_id),
    resourceId: r.resource_id,
    title: r.resource_title,
    section: r.title,
    content: r.content,
    link: r.link,
  }));
}

/** An upstream model that cannot be reached or is overloaded: the task waits (PENDING) for a retry. */
function isUpstreamDown(err: unknown): err is HttpError {
  return (
    err instanceof HttpError &&
    [
      'upstream_unreachable',
      'upstream_timeout',
      'upstream_overloaded',
      'upstream_rate_limited',
      'upstream_error',
    ].includes(err.code)
  );
}

async function run(ctx: AppContext, task: DocTaskRow, job: JobContext): Promise<LandingPageResult> {
  const req = JSON.parse(task.request) as LandingPageTaskRequest;
  // A FAILED task that its owner runs again pays again (its first charge was given back).
  try {
    await ensureLandingPagePaid(ctx.db, task.user_id, task.id, ctx.now());
  } catch (err) {
    throw new JobFailure((err as Error).message);
  }
  try {
    const passages = await passagesFor(ctx, task, req);
    if (passages.length === 0) {
      throw new JobFailure(
        `LiveDoc ${task.livedoc_id} holds no text to write a page from: add documents to it (or send a file with the request)`,
      );
    }
    job.signal.throwIfAborted();
    await job.log(
      `writing the page from ${passages.length} passage(s) of ${new Set(passages.map((p) => p.resourceId)).size} resource(s)`,
    );
    const page = await generateLandingPage({
      query: req.query,
      passages,
      livedocId: task.livedoc_id,
      gateway: ctx.gateway,
      scope: { apiKeyId: task.api_key_id, userId: task.user_id, taskId: task.id, operation: 'landing_page' },
      now: ctx.now(),
      signal: job.signal,
      log: (line) => job.log(line),
    });
    const dir = ctx.files.workDir(taskOutputPrefix(task.id));
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, PAGE_FILE);
    await writeFile(file, page.html, { mode: 0o600 });
    await chmod(file, 0o600);
    await ctx.files.publishDir(taskOutputPrefix(task.id));
    await job.log(
      `wrote ${PAGE_FILE} (${Buffer.byteLength(page.html)} bytes) in ${Math.round(page.timings.planMs + page.timings.renderMs)} ms`,
    );
    return {
      html_file: file,
      bytes: Buffer.byteLength(page.html),
      title: page.plan.title,
      sections: page.plan.sections.length,
      sources: page.plan.sources.length,
      planned_by: page.plan.plannedBy,
    };
  } catch (err) {
    if (job.signal.aborted) throw err;
    if (isUpstreamDown(err))
      throw new TaskParked(`the model upstream is unavailable (${err.message}); retry the task when it is back`);
    // A FAILED task gives its credits back (docs/decisions.md "Landing pages"), once.
    await refundLandingPage(ctx.db, task.user_id, ctx.now(), { taskId: task.id });
    if (err instanceof JobFailure) throw err;
    throw new JobFailure(
      err instanceof HttpError ? err.message : `the page could not be written: ${(err as Error).message}`,
    );
  }
}

/** Registers the 'landing_page' kind of document task (called once from server.ts). */
export function registerLandingPages(ctx: AppContext): void {
  registerDocTaskKind(ctx, 'landing_page', {
    run: (task, job) => run(ctx, task, job),
    removeOutputs: async (task) => {
      await ctx.files.deletePrefix(taskPrefix(task.id));
    },
  });
}

/** The page of a COMPLETED landing-page task, or null when it has none (not done, expired, removed). */
export async function landingPageHtml(ctx: Pick<AppContext, 'files'>, task: DocTaskRow): Promise<string | null> {
  if (task.kind !== 'landing_page') return null;
  const result = taskResult<LandingPageResult>(task);
  if (!result?.html_file) return null;
  return (await ctx.files.get(`${taskOutputPrefix(task.id)}/${PAGE_FILE}`))?.toString('utf8') ?? null;
}
