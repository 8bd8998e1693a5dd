import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { registerTaskPage } from '../pages/task-page-delegates.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import * as c from '../../contract/landing-pages.js';
import { registerRoute } from '../http/register.js';
import { readMultipart } from '../http/multipart.js';
import { validatePart } from '../http/validate.js';
import { withMultipart } from './multipart-scope.js';
import { sendHtml, servePage } from '../http/html-page.js';
import { HttpError, RequestValidationError } from '../errors.js';
import { creditLedger, createLandingPage } from '../services/landing-pages.service.js';
import { landingPageHtml } from '../services/landing-page.runner.js';
import { currentStatus, findTaskByBiz, type DocTaskRow } from '../services/doc-tasks.service.js';
import { requirePageLink } from '../auth/signed-links.js';
import type { UploadedFile } from '../services/resource-uploads.service.js';

/** The body of POST /v2/landing_page: JSON, or multipart with the text fields and one `file` part. */
async function readLandingPageBody(
  ctx: AppContext,
  request: FastifyRequest,
): Promise<{ body: c.LandingPageRequest; file?: UploadedFile }> {
  if (!request.isMultipart()) return { body: validatePart('body', c.LandingPageRequest, request.body) };
  const parts = await readMultipart(request, path.join(ctx.config.filesDir, 'tmp'), c.LandingPageForm);
  try {
    const body = validatePart('body', c.LandingPageRequest, parts.fields);
    const part = parts.files.find((f) => f.field === 'file');
    if (!part)
      throw new RequestValidationError(
        [
          {
            loc: ['body', 'file'],
            msg: 'Field required: a multipart landing-page request carries one file part named "file" (send JSON when there is no file)',
            type: 'missing',
          },
        ],
        true,
      );
    return { body, file: { fileName: part.filename, mimeType: part.mimeType, data: await readFile(part.tmpPath) } };
  } finally {
    await parts.discard();
  }
}

/**
 * A landing-page task's page: its HTML file, served with the pages' CSP (no network load; the page
 * needs none). 409 while the task has not completed, 404 once its page is gone. The slide viewer
 * (/slides/:biz) calls this for a landing-page task, after checking its own link.
 */
export async function sendLandingPage(ctx: AppContext, reply: FastifyReply, task: DocTaskRow): Promise<FastifyReply> {
  return sendHtml(reply, 200, await landingPageDocument(ctx, task));
}

/** The HTML of a completed landing-page task; 409 while it runs, 404 when it has none (any more). */
async function landingPageDocument(ctx: AppContext, task: DocTaskRow): Promise<string> {
  const status = await currentStatus(ctx, task);
  if (status === 'RUNNING')
    throw new HttpError(
      'CONFLICT',
      `the landing page is still being written (task ${task.id} is RUNNING); reload in a few seconds`,
      { status: 409 },
    );
  if (status !== 'COMPLETED') throw new HttpError('NOT_FOUND', `task ${task.id} ended ${status}: it has no page`);
  const html = await landingPageHtml(ctx, task);
  if (html === null) throw new HttpError('NOT_FOUND', `the page of task ${task.id} no longer exists`);
  return html;
}

export function landingPageRoutes(app: FastifyInstance, ctx: AppContext): void {
  // ppt_url (/slides/<biz_id>) of a landing-page task shows the page itself.
  registerTaskPage('landing_page', (task) => landingPageDocument(ctx, task));
  // JSON or multipart (one file, the upload limit): the one route in a multipart scope.
  withMultipart(app, ctx, (scope) => {
    registerRoute(scope, ctx, c.createLandingPage, async ({ auth, request, reply }) => {
      const { body, file } = await readLandingPageBody(ctx, request);
      const created = await createLandingPage(ctx, auth, body, file);
      reply.headers(created.headers);
      return created.data;
    });
  });
  registerRoute(app, ctx, c.creditLedger, ({ auth, query }) => creditLedger(ctx, auth, query));
  registerRoute(app, ctx, c.landingPageView, ({ params, query, reply }) =>
    servePage(reply, async () => {
      requirePageLink(ctx, 'page', params.biz_id, query);
      const task = await findTaskByBiz(ctx, params.biz_id);
      if (!task || task.kind !== 'landing_page') throw new HttpError('NOT_FOUND', `no landing page ${params.biz_id}`);
      return sendLandingPage(ctx, reply, task);
    }),
  );
}
