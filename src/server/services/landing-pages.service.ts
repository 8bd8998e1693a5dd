import type { AppContext } from '../context.js';
import type { AuthContext } from '../auth/authenticate.js';
import { HttpError, RequestValidationError } from '../errors.js';
import { LANDING_PAGE_CREDIT_HEADERS, type LandingPageRequest } from '../../contract/landing-pages.js';
import { attachCharge, chargeLandingPage, refundLandingPage } from '../auth/landing-page-billing.js';
import { listLedger } from '../store/credit-ledger.repo.js';
import { findResourcesByIds } from '../store/resources.repo.js';
import { access, createLiveDoc, deleteLiveDoc } from './livedocs.service.js';
import { deleteResource } from './resources.service.js';
import { GENERATED_SOURCES, resourceNotFound } from './resource-rows.js';
import { readUpload, uploadFile, type ConvertedUpload, type UploadedFile } from './resource-uploads.service.js';
import { createDocTask } from './doc-tasks.service.js';

/** What a landing-page task keeps as its request (doc_tasks.request): the body, the file's resource. */
export interface LandingPageTaskRequest {
  query: string;
  stream_protocol: string;
  /** The resources the page is written from; absent: the query routes over the whole LiveDoc. */
  resource_ids?: string[];
}

export interface CreatedLandingPage {
  data: { task_id: string };
  headers: Record<string, string>;
}

/** A LiveDoc named after the page it was made for. */
const liveDocName = (query: string) => `Landing page: ${query.length > 80 ? `${query.slice(0, 79)}…` : query}`;

/**
 * POST /v2/landing_page. Checks first (LiveDoc, resources: 404 before any charge), then takes the
 * price (402 INSUFFICIENT_CREDITS leaves everything as it was), then creates what the task needs:
 * a new LiveDoc when none is given, the uploaded file as a resource of it, the task. If creating
 * fails, what was created is removed and the price given back, so a failed create leaves no trace
 * but its ledger entries; client errors (a file that cannot be read) keep their status, anything
 * else is LANDING_PAGE_TASK_CREATE_FAILED (502).
 */
export async function createLandingPage(
  ctx: AppContext,
  auth: AuthContext,
  body: LandingPageRequest,
  file?: UploadedFile,
): Promise<CreatedLandingPage> {
  const userId = auth.user.id;
  if (body.livedoc_short_id) await access(ctx, userId, body.livedoc_short_id, file ? 'write' : 'read');
  if (body.resource_ids) {
    if (!body.livedoc_short_id)
      throw new HttpError('INVALID_PARAMETER', 'resource_ids name resources of a LiveDoc: give livedoc_short_id too');
    const found = new Set(
      (await findResourcesByIds(ctx.db, body.resource_ids))
        .filter((r) => r.livedoc_id === body.livedoc_short_id)
        .map((r) => r.id),
    );
    const missing = body.resource_ids.find((id) => !found.has(id));
    if (missing) throw resourceNotFound(missing);
  }
  const read = await requireSomethingToBuildFrom(ctx, userId, body, file);
  const charge = await chargeLandingPage(ctx.db, userId, ctx.now());
  let newLiveDoc: string | null = null;
  let uploaded: { livedoc: string; id: string } | null = null;
  try {
    let livedocId = body.livedoc_short_id;
    if (!livedocId) {
      const doc = await createLiveDoc(ctx, userId, {
        name: liveDocName(body.query),
        description: 'Created for a landing page',
      }).catch((err: Error) => {
        throw new HttpError('LIVEDOC_CREATE_FAILED', `A LiveDoc for the page could not be created: ${err.message}`);
      });
      livedocId = doc.short_id;
      newLiveDoc = livedocId;
    }
    const request: LandingPageTaskRequest = { query: body.query, stream_protocol: body.stream_protocol };
    if (file) {
      const resource = await uploadFile(ctx, userId, livedocId, file, read);
      uploaded = { livedoc: livedocId, id: resource.id };
      // The file is the page's context (spec 4.5: stored first, then used as context).
      request.resource_ids = [resource.id];
    } else if (body.resource_ids) {
      request.resource_ids = [...new Set(body.resource_ids)];
    }
    const task = await createDocTask(ctx, auth, { kind: 'landing_page', livedocId, request });
    await attachCharge(ctx.db, charge, task.id);
    return {
      data: { task_id: task.id },
      headers: {
        [LANDING_PAGE_CREDIT_HEADERS.cost]: String(charge.cost),
        [LANDING_PAGE_CREDIT_HEADERS.remaining]: String(charge.remaining),
      },
    };
  } catch (err) {
    if (newLiveDoc) await deleteLiveDoc(ctx, userId, newLiveDoc).catch(() => undefined);
    else if (uploaded) await deleteResource(ctx, userId, uploaded.livedoc, uploaded.id).catch(() => undefined);
    await refundLandingPage(ctx.db, userId, ctx.now(), { charge });
    if (err instanceof HttpError && (err.status < 500 || err.code === 'LIVEDOC_CREATE_FAILED')) throw err;
    throw new HttpError(
      'LANDING_PAGE_TASK_CREATE_FAILED',
      `The landing-page task could not be created: ${(err as Error).message}`,
    );
  }
}

/**
 * A page is written from text: a request with no file, no LiveDoc, or a LiveDoc (or named
 * resources) with no source text is refused (400) before any charge and before any LiveDoc is made.
 * Earlier decks and mindmaps do not count, unless named: the page would only quote them.
 */
async function requireSomethingToBuildFrom(
  ctx: AppContext,
  userId: string,
  body: LandingPageRequest,
  file?: UploadedFile,
): Promise<ConvertedUpload | undefined> {
  const refuse = (msg: string) =>
    new RequestValidationError(
      [{ loc: ['body', file ? 'file' : 'livedoc_short_id'], msg, type: 'value_error' }],
      false,
    );
  if (file) {
    const read = await readUpload(file, userId);
    if (!read.text?.trim())
      throw refuse(
        `${file.fileName} has no text to build a page from: send Markdown, text, HTML, PDF, DOCX or PPTX with text in it`,
      );
    return read;
  }
  if (!body.livedoc_short_id)
    throw refuse('nothing to build a page from: give livedoc_short_id (a LiveDoc with documents) or send a file');
  let q = ctx.db
    .selectFrom('resource_chunks as c')
    .innerJoin('livedoc_resources as r', 'r.id', 'c.resource_id')
    .select('c.id')
    .where('c.livedoc_id', '=', body.livedoc_short_id);
  q = body.resource_ids
    ? q.where('c.resource_id', 'in', body.resource_ids)
    : q.where('r.source', 'not in', [...GENERATED_SOURCES]);
  if (!(await q.limit(1).executeTakeFirst())) {
    throw refuse(
      `${body.resource_ids ? 'the named resources hold' : `LiveDoc ${body.livedoc_short_id} holds`} no text to build a page from: add documents or pages first (or send a file)`,
    );
  }
  return undefined;
}

/** GET /v2/credits/ledger: the caller's own charges and refunds. */
export async function creditLedger(ctx: AppContext, auth: AuthContext, q: { page: number; size: number }) {
  const { total, items } = await listLedger(ctx.db, auth.user.id, q.page, q.size);
  return { total, page: q.page, size: q.size, items: items.map(({ user_id: _u, ...rest }) => rest) };
}
