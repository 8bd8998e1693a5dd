import type { z } from 'zod';
import type { MessageObject, MessagesRequest } from '../../../contract/model-api-messages.js';
import { HttpError } from '../../errors.js';
import * as repo from '../../store/stored-responses.repo.js';
import { byteLength, conversationExcess, findLive, ownerExcess, store } from './stored.js';

type Body = z.infer<typeof MessagesRequest>;
type Ctx = Parameters<typeof findLive>[0];

/**
 * Anthropic message threads (the SDK's toolRunner and beta.messages.thread): `thread: {type:
 * "create"}` keeps the conversation, with its system and tools, under the reply's message id;
 * `{type: "continue", previous_message_id}` sends only the new messages (and no system or tools).
 * A reply is continued once: the continuing turn claims it, and its own reply replaces it. Errors
 * carry `error.details.error_code` as the SDK reads it, so it replays the history under a new
 * thread (thread_not_found, thread_already_continued) or goes on unthreaded
 * (thread_unsupported_request, given when the key's storage is full).
 */
interface StoredThread {
  system?: Body['system'];
  tools?: Body['tools'];
  messages: Body['messages'];
}

export interface ThreadTurn {
  body: Body;
  /** Keeps the conversation with this reply; awaited before the answer ends. */
  persist(message: z.infer<typeof MessageObject>): Promise<void>;
  /** Gives a claimed reply back when the turn failed. */
  release(): Promise<void>;
}

const threadError = (status: number, code: string, message: string, more: Record<string, unknown> = {}) =>
  new HttpError(code, message, { status, extra: { details: { error_code: code, ...more } } });

export async function prepareThreadTurn(ctx: Ctx, owner: string, body: Body): Promise<ThreadTurn | null> {
  const thread = body.thread;
  if (!thread) return null;
  if (thread.type === 'create') {
    const json = JSON.stringify({ system: body.system, tools: body.tools, messages: body.messages });
    const excess =
      conversationExcess(body.messages.length, byteLength(json)) ?? (await ownerExcess(ctx, owner, byteLength(json)));
    if (excess)
      throw threadError(400, 'thread_unsupported_request', `This thread cannot be stored: ${excess}`, {
        unsupported: ['storage_limit'],
      });
    return turn(ctx, owner, body, { system: body.system, tools: body.tools, messages: body.messages }, null);
  }
  if (body.system !== undefined || body.tools !== undefined) {
    throw new HttpError(
      'invalid_parameter',
      'A thread continue takes system and tools from the thread: send them only with thread.type create',
      {
        status: 400,
        extra: { param: body.system !== undefined ? 'system' : 'tools' },
      },
    );
  }
  const id = thread.previous_message_id;
  const row = await findLive(ctx, owner, id, 'thread');
  if (!row)
    throw threadError(
      404,
      'thread_not_found',
      `No thread message with id '${id}' (unknown, expired, or another key's)`,
    );
  const stored = JSON.parse(row.body) as StoredThread;
  const merged: StoredThread = { ...stored, messages: [...stored.messages, ...body.messages] };
  const bytes = byteLength(JSON.stringify(merged));
  const excess =
    conversationExcess(merged.messages.length, bytes) ?? (await ownerExcess(ctx, owner, bytes, { bytes: row.bytes }));
  if (excess)
    throw threadError(400, 'thread_unsupported_request', `This thread cannot grow: ${excess}`, {
      unsupported: ['storage_limit'],
    });
  if (!(await repo.claimThread(ctx.db, owner, id, ctx.now().toISOString()))) {
    throw threadError(
      409,
      'thread_already_continued',
      `Thread message '${id}' has already been continued; continue from its latest reply`,
    );
  }
  return turn(
    ctx,
    owner,
    { ...body, system: stored.system, tools: stored.tools, messages: merged.messages },
    merged,
    id,
  );
}

function turn(ctx: Ctx, owner: string, body: Body, conversation: StoredThread, previous: string | null): ThreadTurn {
  return {
    body,
    persist: async (message) => {
      const messages = [
        ...conversation.messages,
        { role: 'assistant' as const, content: message.content as Body['messages'][number]['content'] },
      ];
      await store(
        ctx,
        owner,
        message.id,
        'thread',
        { ...conversation, messages } satisfies StoredThread,
        messages.length,
      );
      if (previous !== null) await repo.deleteStored(ctx.db, owner, previous, 'thread', ctx.now().toISOString());
    },
    release: async () => {
      if (previous !== null) await repo.releaseThread(ctx.db, previous);
    },
  };
}
