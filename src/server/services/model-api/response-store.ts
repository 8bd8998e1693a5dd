import type { z } from 'zod';
import type { ResponseObject, ResponsesRequest } from '../../../contract/model-api-responses.js';
import type { InputItemList, InputItemsQuery } from '../../../contract/model-api-stored.js';
import { HttpError } from '../../errors.js';
import { randomToken } from '../../store/ids.js';
import * as repo from '../../store/stored-responses.repo.js';
import {
  STORED_LIMITS,
  byteLength,
  conversationExcess,
  findLive,
  ownerExcess,
  storageFull,
  store,
  tooLarge,
} from './stored.js';

type Body = z.infer<typeof ResponsesRequest>;
type Resp = z.infer<typeof ResponseObject>;
type Item = Record<string, unknown> & { id?: string; type?: string };
type Ctx = Parameters<typeof findLive>[0];

/**
 * What a stored response keeps: the input items its own turn added, and the response itself. The
 * history is the chain of responses it continued (previous_id); a row stored before migration 0030 has
 * no previous_id and holds its whole history in `input`.
 */
interface StoredResponse {
  input: Item[];
  /** output_text is left out (rows before 0030 have it): it repeats the output's text, rebuilt on read. */
  response: Omit<Resp, 'output_text'> & { output_text?: string };
}

/** The response as answered: output_text is the text of its message items. */
function answered(r: StoredResponse['response']): Resp {
  const text = r.output.flatMap((o) => (o.type === 'message' ? o.content.map((c) => c.text) : [])).join('');
  return { ...r, output_text: r.output_text ?? text };
}

const notFound = (id: string) =>
  new HttpError('not_found', `No response with id '${id}' found.`, { status: 404, extra: { param: 'response_id' } });

/** Input items as stored and listed: a string input is one user message; every item gets an id. */
function normalized(input: Body['input'] | undefined): Item[] {
  if (input === undefined) return [];
  const items: Item[] =
    typeof input === 'string'
      ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }]
      : input;
  return items.map((it) => {
    const type = it.type ?? 'message';
    const content =
      typeof it.content === 'string'
        ? [{ type: it.role === 'assistant' ? 'output_text' : 'input_text', text: it.content }]
        : it.content;
    const prefix = type === 'function_call' ? 'fc' : type === 'function_call_output' ? 'fco' : 'msg';
    return {
      ...it,
      type,
      ...(content === undefined ? {} : { content }),
      id: typeof it.id === 'string' ? it.id : `${prefix}_${randomToken(32)}`,
    };
  });
}

/** The conversation a continuation starts from: what the response answered, then what it said. */
const contextOf = (s: StoredResponse): Item[] => [...s.input, ...(s.response.output as Item[])];

/**
 * The stored responses a conversation is made of, oldest first, ending with `id` (found live and this
 * owner's already). Bounded by STORED_LIMITS.turnsPerConversation, which a stored turn never passes.
 */
async function chainOf(
  ctx: Ctx,
  owner: string,
  id: string,
  param: string,
): Promise<{ turns: StoredResponse[]; bytes: number }> {
  const rows = await repo.findChain(ctx.db, owner, id, STORED_LIMITS.turnsPerConversation);
  const root = rows[0];
  if (!root)
    throw new HttpError('previous_response_not_found', `Response with id '${id}' not found.`, {
      status: 400,
      extra: { param },
    });
  if (root.previous_id !== null && rows.length < STORED_LIMITS.turnsPerConversation)
    throw new HttpError(
      'previous_response_not_found',
      `The history of response '${id}' is no longer stored (response '${root.previous_id}' is gone).`,
      { status: 400, extra: { param } },
    );
  if (root.previous_id !== null) throw turnsExcess(rows.length + 1, param);
  return {
    turns: rows.map((r) => JSON.parse(r.body) as StoredResponse),
    bytes: rows.reduce((n, r) => n + r.bytes, 0),
  };
}

const turnsExcess = (turns: number, param: string) =>
  tooLarge(
    `a stored conversation holds at most ${STORED_LIMITS.turnsPerConversation} turns (this one would hold ${turns}); start a new conversation, or send store: false`,
    param,
  );

export interface ResponseTurn {
  /** The request as the model sees it: the stored items before this request's input. */
  body: Body;
  /** Keeps the answer for later turns (unless store is false); awaited before the answer ends. */
  persist(resp: Resp): Promise<void>;
  /** The fields the response object echoes about storage. */
  echo: { previous_response_id: string | null; store: boolean };
}

/**
 * Resolves previous_response_id (a 400 as OpenAI answers when it is unknown, expired, deleted or
 * another key's) and checks the bounds before the model runs, so a refused turn costs nothing.
 */
export async function prepareResponseTurn(ctx: Ctx, owner: string, body: Body): Promise<ResponseTurn> {
  const previous = body.previous_response_id ?? null;
  const storing = body.store !== false;
  let chain: StoredResponse[] = [];
  let historyBytes = 0;
  if (previous !== null) {
    const row = await findLive(ctx, owner, previous, 'response');
    if (!row)
      throw new HttpError('previous_response_not_found', `Previous response with id '${previous}' not found.`, {
        status: 400,
        extra: { param: 'previous_response_id' },
      });
    ({ turns: chain, bytes: historyBytes } = await chainOf(ctx, owner, previous, 'previous_response_id'));
    if (storing && chain.length >= STORED_LIMITS.turnsPerConversation)
      throw turnsExcess(chain.length + 1, 'previous_response_id');
  }
  const own = normalized(body.input);
  const items = [...chain.flatMap(contextOf), ...own];
  // The history's bytes as stored (its rows), so a turn never serializes the whole conversation again.
  const ownBytes = byteLength(JSON.stringify(own));
  const excess = conversationExcess(items.length, historyBytes + ownBytes);
  if (excess) throw tooLarge(excess, previous === null ? 'input' : 'previous_response_id');
  if (storing) {
    // The key is charged for what this turn adds; its history is already stored.
    const full = await ownerExcess(ctx, owner, ownBytes);
    if (full) throw storageFull(full);
  }
  const echo = { previous_response_id: previous, store: storing };
  return {
    body: { ...body, input: items },
    echo,
    persist: async (resp) => {
      if (storing)
        await store(
          ctx,
          owner,
          resp.id,
          'response',
          { input: own, response: { ...withoutText(resp), ...echo } } satisfies StoredResponse,
          own.length + resp.output.length,
          previous,
        );
    },
  };
}

const withoutText = ({ output_text: _text, ...rest }: Resp) => rest;

export async function storedResponse(ctx: Ctx, owner: string, id: string): Promise<Resp> {
  const row = await findLive(ctx, owner, id, 'response');
  if (!row) throw notFound(id);
  return answered((JSON.parse(row.body) as StoredResponse).response);
}

export async function deleteStoredResponse(ctx: Ctx, owner: string, id: string) {
  if (!(await repo.deleteStored(ctx.db, owner, id, 'response', ctx.now().toISOString()))) throw notFound(id);
  return { id, object: 'response' as const, deleted: true as const };
}

/** The list shape OpenAI pages with: newest first by default, `after`/`before` an item id. */
export async function inputItems(
  ctx: Ctx,
  owner: string,
  id: string,
  q: z.infer<typeof InputItemsQuery>,
): Promise<z.infer<typeof InputItemList>> {
  const row = await findLive(ctx, owner, id, 'response');
  if (!row) throw notFound(id);
  const chain = (await chainOf(ctx, owner, id, 'response_id')).turns;
  let items = [...chain.slice(0, -1).flatMap(contextOf), ...chain[chain.length - 1].input];
  if (q.order !== 'asc') items = [...items].reverse();
  const cursor = (at: string | undefined, param: string) => {
    if (at === undefined) return -1;
    const i = items.findIndex((it) => it.id === at);
    if (i < 0)
      throw new HttpError('invalid_parameter', `No input item with id '${at}' in response '${id}'`, {
        status: 400,
        extra: { param },
      });
    return i;
  };
  const start = cursor(q.after, 'after') + 1;
  const beforeAt = cursor(q.before, 'before');
  const end = beforeAt < 0 ? items.length : beforeAt;
  const limit = q.limit ?? 20;
  const from = q.before !== undefined && q.after === undefined ? Math.max(start, end - limit) : start;
  const page = items.slice(from, Math.min(end, from + limit));
  return {
    object: 'list',
    data: page as z.infer<typeof InputItemList>['data'],
    first_id: page[0]?.id ?? null,
    last_id: page.at(-1)?.id ?? null,
    has_more: q.before !== undefined && q.after === undefined ? from > start : from + page.length < end,
  };
}
