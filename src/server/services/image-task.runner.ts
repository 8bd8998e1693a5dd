import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { JobFailure, type JobContext } from '../jobs/queue.js';
import { findTask } from '../store/tasks.repo.js';
import { findSite } from '../store/projects.repo.js';
import { generateIllustrations, type IllustrationImage } from '../engines/illustration/index.js';
import { BrowserMissingError, takeScreenshot } from '../engines/screenshot.js';
import { fetchSiteContext, keywordsOf, type SiteContext } from '../engines/site-context.js';
import { countTokens } from '../engines/gateway/tokenizer.js';
import { imageCost } from '../engines/image-pricing.js';
import { meter } from '../store/meter.js';
import { isTextType } from '../files/mime.js';
import { IMAGE_TASK_JOB, type TaskParams } from './tasks.service.js';
import { taskInputKey, taskOutputPrefix, taskZipKey } from './task-files.js';
import { storeArtifactsZip } from './artifacts.service.js';

type Ctx = Pick<AppContext, 'db' | 'now' | 'config' | 'jobs' | 'modelDirectory' | 'fetchPolicy' | 'files'>;

const CONTEXT_CHARS = 2000;

/** Keywords from text reference files steer the illustration like a site does. */
async function referenceKeywords(ctx: Ctx, taskId: string, params: TaskParams): Promise<string[]> {
  const texts: string[] = [];
  for (const f of params.reference_files) {
    if (!isTextType(f.mime_type)) continue;
    const data = await ctx.files.get(taskInputKey(taskId, f.stored));
    if (data) texts.push(data.toString('utf8').slice(0, 20_000));
  }
  return texts.length > 0 ? keywordsOf(texts.join(' '), 4) : [];
}

/**
 * An empty folder at `dir`. A new task's folder does not exist yet (one mkdir); one left by an
 * earlier attempt is emptied first.
 */
async function freshDir(dir: string): Promise<void> {
  // mkdir answers the first folder it created, or undefined when `dir` was already there.
  if ((await mkdir(dir, { recursive: true })) !== undefined) return;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
}

/**
 * Runs one image task as a job: a fresh output folder each attempt, the site's text as context,
 * then the engine; every model-like step is metered against the task's key, user and id.
 */
export function imageTaskHandler(ctx: Ctx) {
  const run = async (job: JobContext<{ task_id: string }>, folder: { ready?: Promise<void> }) => {
    const task = await findTask(ctx.db, job.payload.task_id);
    if (!task) throw new JobFailure(`task ${job.payload.task_id} no longer exists`);
    const params = JSON.parse(task.params) as TaskParams;
    // The engines write into a local folder (the stored one itself for a local store); it is published when they are done.
    // It is made while the illustration engine composes and renders (awaited before anything is written),
    // asked for once the render is on its way: a task's first CPU work waits on neither the disk nor the thread pool.
    const out = ctx.files.workDir(taskOutputPrefix(task.id));
    let askForDir!: () => void;
    const outReady = new Promise<void>((resolve) => (askForDir = resolve)).then(() => freshDir(out));
    outReady.catch(() => undefined); // awaited where it is needed; not unhandled meanwhile
    // Only a folder asked for is waited for when the run fails (one never asked for never settles).
    const makeDir = () => {
      folder.ready = outReady;
      askForDir();
    };
    const scope = { apiKeyId: task.api_key_id, userId: task.user_id, taskId: task.id };

    let site: SiteContext | null = null;
    if (task.site_id) {
      makeDir();
      const row = await findSite(ctx.db, task.project_id, task.site_id);
      if (!row) throw new JobFailure(`site ${task.site_id} was removed from the project`);
      await outReady;
      await job.log(`fetching site ${row.url}`);
      site = await fetchSiteContext(row.url, ctx.fetchPolicy, job.signal);
      await job.log(`site context: ${site.text.length} characters, keywords: ${site.keywords.join(', ') || '(none)'}`);
      const excerpt = site.text.slice(0, CONTEXT_CHARS);
      await writeFile(
        path.join(out, 'context.md'),
        `# Site context\n\n- url: ${site.url}\n- title: ${site.title || '(none)'}\n- keywords: ${site.keywords.join(', ')}\n\n${excerpt}\n`,
      );
    }
    job.signal.throwIfAborted();

    if (task.kind === 'illustration') {
      const prompt = params.prompt ?? '';
      const refs = params.reference_files.length > 0 ? await referenceKeywords(ctx, task.id, params) : [];
      const keywords = [...new Set([...(site?.keywords ?? []), ...refs])];
      const contextText = site ? site.text.slice(0, CONTEXT_CHARS) : '';
      // Not waited for: the engine composes and starts its render while the line is committed.
      void job.log(
        `illustrating "${prompt.slice(0, 80)}" at ${params.width}x${params.height}, ${params.count} image(s)`,
      );
      const resultFile = path.join(out, 'result.json');
      const writeResult = (images: IllustrationImage[]) =>
        writeFile(
          resultFile,
          JSON.stringify({ kind: 'illustration', model: params.model, prompt, keywords, images }, null, 2) + '\n',
        );
      // result.json is written while the last image is drawn, from what the images will be; checked
      // against them once drawn (written again if one came out otherwise), removed if the run fails.
      const planned: IllustrationImage[] = [];
      let resultWritten: Promise<void> | undefined;
      const drawn: IllustrationImage[] = [];
      const drawing = generateIllustrations({
        prompt,
        width: params.width,
        height: params.height,
        count: params.count,
        keywords,
        outDir: out,
        outDirReady: outReady,
        signal: job.signal,
        owner: task.api_key_id ?? task.user_id,
        log: job.log,
        // Each image's output tokens are counted in a CPU worker beside its render.
        countTokens: true,
        onPlanned: ({ index, image }) => {
          planned[index] = image;
          if (index < params.count - 1) return;
          resultWritten = outReady.then(() => writeResult(planned));
          resultWritten.catch(() => undefined); // awaited once the image is drawn
        },
        // Runs while the image's PNG is written: the metering, and after the last image the check of result.json.
        onImage: async ({ index, svg, svgTokens, image }) => {
          drawn[index] = image;
          const { inputTokens, costUsd } = await priced;
          const metered = meter(ctx, {
            ...scope,
            model: params.model,
            operation: 'illustration',
            inputTokens,
            outputTokens: svgTokens ?? (await countTokens(svg)),
            costUsd,
          });
          if (index < params.count - 1) return metered;
          const asPlanned = drawn.every((d, i) => d.width === planned[i].width && d.height === planned[i].height);
          await Promise.all([metered, resultWritten!.then(() => (asPlanned ? undefined : writeResult(drawn)))]);
        },
      });
      makeDir();
      // What every image's metering shares (the prompt's tokens and price), worked out once the first
      // render is on its way; awaited by the first image, whose failure a failure here is.
      const priced = (async () => {
        const inputTokens =
          (await countTokens(prompt)) + (await countTokens(contextText)) + (await countTokens(keywords.join(' ')));
        return { inputTokens, costUsd: await imageCost(ctx.modelDirectory, params.model, inputTokens) };
      })();
      priced.catch(() => undefined);
      const images = await drawing.catch(async (err: Error & { code?: string }) => {
        // A result.json written while the images were drawn does not describe a finished task.
        await resultWritten?.catch(() => undefined);
        await outReady.then(() => rm(resultFile, { force: true })).catch(() => undefined);
        if (job.signal.aborted || err instanceof JobFailure) throw err;
        await outReady; // an output folder that could not be made fails the run as it did, not as the engine's error
        // The engine is deterministic: the same input fails the same way, so no retry.
        throw new JobFailure(`illustration failed: ${err.message || err.code || err.name}`);
      });
      await publishOutputs(ctx, task.id);
      return {
        files: [...images.map((i) => i.file), 'result.json'],
        images: images.map(({ file, seed, layout, width, height }) => ({ file, seed, layout, width, height })),
      };
    }

    makeDir();
    await outReady;
    let shot: Awaited<ReturnType<typeof takeScreenshot>>;
    try {
      shot = await takeScreenshot({
        url: params.url!,
        width: params.width,
        height: params.height,
        fullPage: params.full_page,
        executablePath: ctx.config.chromiumPath,
        policy: ctx.fetchPolicy,
        outDir: out,
        signal: job.signal,
        log: job.log,
      });
      const inputTokens = await countTokens(params.url!);
      await meter(ctx, {
        ...scope,
        model: params.model,
        operation: 'screenshot',
        inputTokens,
        outputTokens: 0,
        costUsd: await imageCost(ctx.modelDirectory, params.model, inputTokens),
      });
      await writeFile(path.join(out, 'page.json'), JSON.stringify(shot, null, 2) + '\n');
    } catch (err) {
      if (job.signal.aborted) throw err;
      if (err instanceof BrowserMissingError) throw new JobFailure(err.message);
      throw new JobFailure(`screenshot failed: ${(err as Error).message.split('\n')[0]}`);
    }
    await publishOutputs(ctx, task.id);
    return {
      files: [shot.file, 'page.json'],
      title: shot.title,
      final_url: shot.final_url,
      width: shot.width,
      height: shot.height,
    };
  };
  return async (job: JobContext<{ task_id: string }>) => {
    const folder: { ready?: Promise<void> } = {};
    try {
      return await run(job, folder);
    } catch (err) {
      // A failure before the folder was made must not race its making.
      await folder.ready?.catch(() => undefined);
      // An object store's scratch folder of a run that ended without publishing is not kept (a local store keeps partial outputs, as always).
      if (ctx.files.kind !== 'local')
        await rm(ctx.files.workDir(taskOutputPrefix(job.payload.task_id)), { recursive: true, force: true });
      throw err;
    }
  };
}

/** The outputs become the stored ones; a store that hands out URLs also gets their ZIP, made once here. */
async function publishOutputs(ctx: Ctx, taskId: string): Promise<void> {
  if (ctx.files.kind !== 'local') await storeArtifactsZip(ctx.files, taskOutputPrefix(taskId), taskZipKey(taskId));
  await ctx.files.publishDir(taskOutputPrefix(taskId));
}

export function registerImageTasks(ctx: Ctx): void {
  // Two attempts for transient failures (server stops are counted apart); engine failures are final
  // at once. An illustration takes seconds and a screenshot's page has its own timeouts: ten minutes is
  // far past any healthy run.
  ctx.jobs.register(IMAGE_TASK_JOB, imageTaskHandler(ctx), {
    maxAttempts: 2,
    retryDelayMs: 500,
    timeBudgetMs: 10 * 60_000,
  });
}
