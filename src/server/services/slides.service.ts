import type { CreatePptRequest } from '../../contract/slides.js';
import type { AppContext } from '../context.js';
import type { AuthContext } from '../auth/authenticate.js';
import { HttpError } from '../errors.js';
import { findResourcesByIds } from '../store/resources.repo.js';
import { DEFAULT_THEME_ID } from '../engines/slides/themes.js';
import { createDocTask } from './doc-tasks.service.js';
import { liveDocForRequest } from './livedocs.service.js';
import { resolveTheme } from './ppt-themes.service.js';
import { resourceNotFound } from './resource-rows.js';
import { statementsOf } from '../text/statements.js';

/** What a slide task runs from: the validated request with its defaults filled (kept on the task row). */
export interface PptTaskRequest {
  query: string;
  resource_ids?: string[];
  theme_id: string;
  slide_count: number;
  lang: 'en' | 'zh-Hans';
  /** No LiveDoc was named: the deck is written from the prompt's own statements (its new LiveDoc is empty). */
  from_prompt?: boolean;
}

/** Statements a prompt must hold for a deck to be written from it alone: a request to make a deck is not content. */
const MIN_PROMPT_STATEMENTS = 2;

export const DEFAULT_SLIDE_COUNT = 6;
const CJK = /[\u3400-\u9fff]/;

/**
 * POST /v2/ppts: checks what can be checked before the task exists (the theme, the LiveDoc, the
 * resources), then makes the task. LIVEDOC_NOT_FOUND for a named LiveDoc that is absent or another
 * user's; 400 for an unknown theme; PPT_TASK_CREATE_FAILED when the task cannot be recorded or queued.
 */
export async function createPpt(ctx: AppContext, auth: AuthContext, body: CreatePptRequest) {
  const themeId = body.ppt_config?.ai_theme_id ?? DEFAULT_THEME_ID;
  if (!(await resolveTheme(ctx, auth.user.id, themeId))) {
    throw new HttpError(
      'INVALID_PARAMETER',
      `ppt_config.ai_theme_id "${themeId}" is not a theme you can use; list them with GET /v2/ppt-themes`,
    );
  }
  // Without a LiveDoc the deck has only the prompt to go on: a prompt that says nothing to show is
  // refused before anything (a LiveDoc, a task) is made.
  if (!body.livedoc_short_id && statementsOf(body.query, 400).length < MIN_PROMPT_STATEMENTS) {
    throw new HttpError(
      'INVALID_PARAMETER',
      'a deck is written from sources: name a LiveDoc that has documents (livedoc_short_id), or write the content in the query (two or more sentences or list items)',
    );
  }
  // The deck is stored in the LiveDoc, so a LiveDoc shared read-only cannot take it.
  const { shortId } = await liveDocForRequest(ctx, auth.user.id, body.livedoc_short_id, {
    query: body.query,
    madeFor: 'slide deck',
    need: 'write',
  });
  if (body.resource_ids?.length) {
    const ids = [...new Set(body.resource_ids)];
    const found = new Set(
      (await findResourcesByIds(ctx.db, ids)).filter((r) => r.livedoc_id === shortId).map((r) => r.id),
    );
    const missing = ids.find((id) => !found.has(id));
    if (missing) throw resourceNotFound(missing);
  }
  const request: PptTaskRequest = {
    query: body.query,
    ...(body.resource_ids?.length ? { resource_ids: [...new Set(body.resource_ids)] } : {}),
    theme_id: themeId,
    slide_count: body.ppt_config?.slide_count ?? DEFAULT_SLIDE_COUNT,
    lang: body.ppt_config?.lang ?? (CJK.test(body.query) ? 'zh-Hans' : 'en'),
    ...(body.livedoc_short_id ? {} : { from_prompt: true }),
  };
  let task;
  try {
    task = await createDocTask(ctx, auth, { kind: 'ppt', livedocId: shortId, request });
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError('PPT_TASK_CREATE_FAILED', `the slide task could not be created: ${(err as Error).message}`);
  }
  return { livedoc_short_id: shortId, ppt_business_id: task.biz_id, task_id: task.id };
}
