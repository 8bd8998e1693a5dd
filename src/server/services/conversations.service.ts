import { setTimeout as sleep } from 'node:timers/promises';
import type { ConversationStarted } from '../../contract/conversations.js';
import type { AppContext } from '../context.js';
import type { AuthContext } from '../auth/authenticate.js';
import { HttpError } from '../errors.js';
import { newId, randomToken } from '../store/ids.js';
import * as repo from '../store/conversations.repo.js';
import { visibleIds } from '../store/livedocs.repo.js';
import { findResourcesByIds } from '../store/resources.repo.js';
import { analyzeQuery } from '../engines/query-analysis.js';
import { writeAnswer } from '../engines/answer-writer.js';
import { liveDocForRequest } from './livedocs.service.js';
import { checkQuery, engineFailure } from './chat.service.js';
import { ground } from './grounding.service.js';
import { untilStoreAnswers } from '../store/unavailable.js';
import { renumberingStream } from '../engines/citations.js';

const threadNotFound = (id: string) => new HttpError('CONVERSATION_NOT_FOUND', `Conversation ${id} not found`);

interface CreateInput {
  query: string;
  live_doc_short_id?: string;
  selected_resource_ids?: string[];
  include_generated?: boolean;
}

export async function createConversation(
  ctx: AppContext,
  auth: AuthContext,
  input: CreateInput,
): Promise<ConversationStarted> {
  const query = checkQuery(input.query);
  const { shortId: livedocId } = await liveDocForRequest(ctx, auth.user.id, input.live_doc_short_id, {
    query,
    madeFor: 'conversation',
    need: 'read',
  });
  const selected = input.selected_resource_ids ? [...new Set(input.selected_resource_ids)] : null;
  if (selected && selected.length > 0) {
    const found = new Set(
      (await findResourcesByIds(ctx.db, selected)).filter((r) => r.livedoc_id === livedocId).map((r) => r.id),
    );
    const missing = selected.find((id) => !found.has(id));
    if (missing) throw new HttpError('RESOURCE_NOT_FOUND', `Resource ${missing} not found in LiveDoc ${livedocId}`);
  }
  const at = ctx.now().toISOString();
  const thread: repo.ThreadRow = {
    id: newId('thr'),
    user_id: auth.user.id,
    livedoc_id: livedocId,
    title: query.trim().replace(/\s+/g, ' ').slice(0, 120),
    selected_resource_ids: selected && selected.length > 0 ? JSON.stringify(selected) : null,
    created_at: at,
    updated_at: at,
  };
  try {
    await repo.insertThread(ctx.db, thread);
    return await startTurn(ctx, auth, thread, query, input.include_generated === true);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(
      'CONVERSATION_CREATE_FAILED',
      `the conversation could not be started: ${(err as Error).message}`,
    );
  }
}

export async function followUp(
  ctx: AppContext,
  auth: AuthContext,
  threadId: string,
  rawQuery: string,
  includeGenerated = false,
): Promise<ConversationStarted> {
  const query = checkQuery(rawQuery);
  const thread = await repo.findThread(ctx.db, threadId);
  if (!thread || thread.user_id !== auth.user.id) throw threadNotFound(threadId);
  try {
    return await startTurn(ctx, auth, thread, query, includeGenerated);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(
      'CONVERSATION_FOLLOW_UP_FAILED',
      `the follow-up could not be started: ${(err as Error).message}`,
    );
  }
}

function summary(thread: repo.ThreadRow) {
  return {
    thread_short_id: thread.id,
    title: thread.title,
    created_at: thread.created_at,
    updated_at: thread.updated_at,
    live_doc_short_id: thread.livedoc_id,
  };
}

export async function detail(ctx: AppContext, auth: AuthContext, threadId: string) {
  const thread = await repo.findThread(ctx.db, threadId);
  if (!thread || thread.user_id !== auth.user.id) throw threadNotFound(threadId);
  const turns = await repo.turnsOf(ctx.db, thread.id);
  return {
    ...summary(thread),
    turns: turns.map((t) => ({ query: t.query, answer: t.answer, created_at: t.created_at })),
  };
}

/** The caller's own threads (a shared LiveDoc's conversations stay its askers'), newest activity first. */
export async function list(
  ctx: AppContext,
  auth: AuthContext,
  q: { live_doc_short_id?: string; page: number; size: number },
) {
  const { total, rows } = await repo.pageThreads(ctx.db, auth.user.id, {
    livedocId: q.live_doc_short_id,
    offset: (q.page - 1) * q.size,
    limit: q.size,
  });
  return { total, page: q.page, size: q.size, items: rows.map((r) => ({ ...summary(r), turn_count: r.turn_count })) };
}

/** Records the turn, opens its stream key and starts writing the answer into the log in the background. */
async function startTurn(
  ctx: AppContext,
  auth: AuthContext,
  thread: repo.ThreadRow,
  query: string,
  includeGenerated: boolean,
): Promise<ConversationStarted> {
  const history = await repo.turnsOf(ctx.db, thread.id);
  const streamKey = `stk_${randomToken(32)}`;
  const turn: repo.TurnRow = {
    id: newId('turn'),
    thread_id: thread.id,
    query,
    answer: null,
    stream_key: streamKey,
    created_at: ctx.now().toISOString(),
  };
  await ctx.streams.create(streamKey, auth.user.id, ctx.now(), ctx.config.streamTtlSeconds);
  await repo.insertTurn(ctx.db, turn);
  await repo.touchThread(ctx.db, thread.id, turn.created_at);
  ctx.streams.writing(produce(ctx, auth, thread, turn, history, includeGenerated));
  return { stream_key: streamKey, thread_short_id: thread.id, live_doc_short_id: thread.livedoc_id };
}

/**
 * Writes one answer into the stream's log: message events with content chunks, then done; or an
 * error event with the failure's message. The thread's earlier questions steer retrieval of a
 * follow-up, and the whole history goes to the model through the gateway.
 */
async function produce(
  ctx: AppContext,
  auth: AuthContext,
  thread: repo.ThreadRow,
  turn: repo.TurnRow,
  history: repo.TurnRow[],
  includeGenerated: boolean,
): Promise<void> {
  const key = turn.stream_key;
  let deliver: ReturnType<typeof pacedAppender> | undefined;
  try {
    const selected = thread.selected_resource_ids ? (JSON.parse(thread.selected_resource_ids) as string[]) : undefined;
    const queries = analyzeQuery(
      turn.query,
      history.map((h) => h.query),
    );
    const options = { question: turn.query, includeGenerated };
    let grounding = await ground(ctx, queries, { livedocIds: [thread.livedoc_id], resourceIds: selected }, options);
    // A LiveDoc with nothing relevant (a new one, typically) falls back to all of the user's LiveDocs.
    if (grounding.passages.length === 0 && !selected)
      grounding = await ground(ctx, queries, { livedocIds: await visibleIds(ctx.db, auth.user.id) }, options);
    const scope = { apiKeyId: auth.apiKey?.id ?? null, userId: auth.user.id, operation: 'conversation' };
    const gen = writeAnswer(ctx.gateway, {
      query: turn.query,
      history: history.map((h) => ({ query: h.query, answer: h.answer })),
      passages: grounding.passages,
      scope,
    });
    // The model call (and its concurrency slot) lasts as long as generating does; delivery into the
    // stream at a pace (--answer-chunk-delay) runs behind it, so following a slow stream is not a
    // model call in flight.
    deliver = pacedAppender(ctx, key);
    // Its markers are renumbered as they stream: the sources it cites are [1]..[k], in order of first citation.
    const markers = renumberingStream(grounding.resources.length);
    let answer = '';
    for await (const piece of gen) {
      const renumbered = markers.push(piece);
      answer += renumbered;
      if (renumbered) deliver.push(renumbered);
    }
    const rest = markers.end();
    answer += rest;
    if (rest) deliver.push(rest);
    await deliver.drained();
    // The footer lists exactly the sources the answer cites, under their numbers.
    const cited = markers.cited();
    if (cited.length > 0) {
      const sources =
        '\n\nSources:\n' +
        cited
          .map((n) => grounding.resources[n - 1])
          .map((r, i) => `[${i + 1}] ${r.title}${r.link ? ` — ${r.link}` : ''}`)
          .join('\n');
      answer += sources;
      await ctx.streams.append(key, 'message', { content: sources });
    }
    // Written in the background: a lost database is waited out, as the stream's events are.
    await untilStoreAnswers(() => repo.setTurnAnswer(ctx.db, turn.id, answer));
    await untilStoreAnswers(() => repo.touchThread(ctx.db, thread.id, ctx.now().toISOString()));
    await ctx.streams.append(key, 'done', {});
  } catch (err) {
    const e = engineFailure(err, 'CONVERSATION_QUERY_FAILED');
    // Pieces still queued are dropped and the one being written lands first: the error is the
    // stream's last event, right after what its readers have seen.
    await deliver?.abandon();
    await ctx.streams.append(key, 'error', { message: e.message }).catch(() => undefined);
  }
}

/**
 * Appends message events to a stream one after another, `answerChunkDelayMs` apart, without making
 * the producer wait: pieces queue up while the model is still generating. `drained` resolves when
 * everything pushed is in the stream, and rejects with the first append that failed.
 */
function pacedAppender(ctx: AppContext, key: string) {
  const delay = ctx.config.answerChunkDelayMs;
  let chain: Promise<void> = Promise.resolve();
  let failed: { err: unknown } | undefined;
  return {
    push(piece: string) {
      if (failed) return;
      // The chain is handled as it is built: a failed append while the model is still generating
      // would otherwise be a rejection nobody listens to until drained() (and end the process).
      chain = chain
        .then(async () => {
          if (failed) return;
          await ctx.streams.append(key, 'message', { content: piece });
          if (delay > 0) await sleep(delay);
        })
        .catch((err: unknown) => {
          failed ??= { err };
        });
    },
    drained: async () => {
      await chain;
      if (failed) throw failed.err;
    },
    abandon: async () => {
      failed ??= { err: new Error('abandoned') };
      await chain;
    },
  };
}
