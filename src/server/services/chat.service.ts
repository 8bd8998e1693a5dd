import type { ChatResult } from '../../contract/chat.js';
import type { AppContext } from '../context.js';
import type { AuthContext } from '../auth/authenticate.js';
import { HttpError } from '../errors.js';
import { isStoreUnavailable, outageError } from '../http/outage.js';
import { checkChatLimit } from '../auth/rate-limit.js';
import { analyzeQuery } from '../engines/query-analysis.js';
import { writeAnswer } from '../engines/answer-writer.js';
import { newId } from '../store/ids.js';
import { visibleIds } from '../store/livedocs.repo.js';
import { ground } from './grounding.service.js';
import { alignCitations } from '../engines/citations.js';

export const MAX_QUERY = 2000;

/** Spec 8: a query is 1-2000 characters; each failure has its own code. */
export function checkQuery(query: unknown): string {
  if (query === undefined || query === null) throw new HttpError('MISSING_PARAMETER', 'query is required');
  if (typeof query !== 'string') throw new HttpError('INVALID_PARAMETER', 'query must be a string');
  if (query.trim().length === 0) throw new HttpError('INVALID_PARAMETER', 'query must not be empty');
  if ([...query].length > MAX_QUERY)
    throw new HttpError('QUERY_TOO_LONG', `query is ${[...query].length} characters; the limit is ${MAX_QUERY}`);
  return query;
}

/** Maps an engine failure to the chat surface's codes: 503 when the model or the database is unavailable, else 502. */
export function engineFailure(err: unknown, code: string): HttpError {
  // A lost database is an outage (503, as any request meets it), not the answer's failure.
  if (isStoreUnavailable(err)) return outageError();
  if (
    err instanceof HttpError &&
    (err.status === 503 || err.code === 'SERVICE_UNAVAILABLE' || err.code === 'LLM_SERVICE_UNAVAILABLE')
  ) {
    return new HttpError('SERVICE_UNAVAILABLE', `the model service is unavailable: ${err.message}`);
  }
  return new HttpError(code, `the answer could not be written: ${(err as Error).message}`);
}

/**
 * POST /v2/chat: rate limit (headers on every answer), query analysis, search over the caller's
 * LiveDocs, then a grounded answer citing data.resources by [n].
 */
export async function chat(
  ctx: AppContext,
  auth: AuthContext,
  rawQuery: unknown,
  setHeaders: (h: Record<string, string>) => void,
  options: { includeGenerated?: boolean } = {},
): Promise<ChatResult> {
  // Spec 8 rule 2: every chat response carries the limit headers, errors too; the error handler
  // sends only the headers an HttpError carries, so they ride on the error.
  let rate: Record<string, string> = {};
  try {
    return await answer(
      ctx,
      auth,
      rawQuery,
      (h) => {
        rate = h;
        setHeaders(h);
      },
      options.includeGenerated ?? false,
    );
  } catch (err) {
    if (err instanceof HttpError) for (const [k, v] of Object.entries(rate)) err.headers[k] ??= v;
    throw err;
  }
}

async function answer(
  ctx: AppContext,
  auth: AuthContext,
  rawQuery: unknown,
  setHeaders: (h: Record<string, string>) => void,
  includeGenerated: boolean,
): Promise<ChatResult> {
  const who = { keyId: auth.apiKey?.id ?? `user:${auth.user.id}`, userId: auth.user.id };
  let query: string;
  try {
    query = checkQuery(rawQuery);
  } catch (err) {
    // An invalid request is not counted, but still learns where it stands.
    setHeaders((await checkChatLimit(ctx.db, ctx.config.chatRateLimits, who, ctx.now(), false)).headers);
    throw err;
  }
  setHeaders((await checkChatLimit(ctx.db, ctx.config.chatRateLimits, who, ctx.now(), true)).headers);

  const queries = analyzeQuery(query);
  const grounding = await ground(
    ctx,
    queries,
    { livedocIds: await visibleIds(ctx.db, auth.user.id) },
    { question: query, includeGenerated },
  );
  const scope = { apiKeyId: auth.apiKey?.id ?? null, userId: auth.user.id, operation: 'chat' };
  let text = '';
  try {
    const gen = writeAnswer(ctx.gateway, { query, history: [], passages: grounding.passages, scope });
    for await (const piece of gen) text += piece;
  } catch (err) {
    throw engineFailure(err, 'CHAT_FAILED');
  }
  // [n] is resources[n-1]: the sources listed are exactly the ones the answer cites, numbered in citation order.
  const aligned = alignCitations(text, grounding.resources);
  text = aligned.text;
  const id = newId('chat');
  const messageId = newId('msg');
  await ctx.db
    .insertInto('chat_messages')
    .values({
      id: messageId,
      chat_id: id,
      user_id: auth.user.id,
      query,
      answer: text,
      created_at: ctx.now().toISOString(),
    })
    .execute();
  return {
    id,
    message_id: messageId,
    answer: text,
    query_analysis: { queries },
    resources: aligned.sources.map((r) => ({ link: r.link, title: r.title, snippet: r.snippet })),
  };
}
