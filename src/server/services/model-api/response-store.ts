import type { z } from 'zod';
import type { ResponseObject, ResponsesRequest } from '../../../contract/model-api-responses.js';
import type { InputItemList, InputItemsQuery } from '../../../contract/model-api-stored.js';
import { HttpError } from '../../errors.js';
import { randomToken } from '../../store/ids.js';
import * as repo from '../../store/stored-responses.repo.js';
import { byteLength, conversationExcess, findLive, ownerExcess, storageFull, store, tooLarge } from './stored.js';

type Body = z.infer<typeof ResponsesRequest>;
type Resp = z.infer<typeof ResponseObject>;
type Item = Record<string, unknown> & { id?: string; type?: string };
type Ctx = Parameters<typeof findLive>[0];

/** What a stored response keeps: the items it answered (history included), and the response itself. */
interface StoredResponse {
  input: Item[];
  response: Resp;
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
  let history: Item[] = [];
  if (previous !== null) {
    const row = await findLive(ctx, owner, previous, 'response');
    if (!row)
      throw new HttpError('previous_response_not_found', `Previous response with id '${previous}' not found.`, {
        status: 400,
        extra: { param: 'previous_response_id' },
      });
    history = contextOf(JSON.parse(row.body) as StoredResponse);
  }
  const items = [...history, ...normalized(body.input)];
  const storing = body.store !== false;
  const bytes = byteLength(JSON.stringify(items));
  const excess = conversationExcess(items.length, bytes);
  if (excess) throw tooLarge(excess, previous === null ? 'input' : 'previous_response_id');
  if (storing) {
    const full = await ownerExcess(ctx, owner, bytes);
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
          { input: items, response: { ...resp, ...echo } } satisfies StoredResponse,
          items.length + resp.output.length,
        );
    },
  };
}

export async function storedResponse(ctx: Ctx, owner: string, id: string): Promise<Resp> {
  const row = await findLive(ctx, owner, id, 'response');
  if (!row) throw notFound(id);
  return (JSON.parse(row.body) as StoredResponse).response;
}

export async function deleteStoredResponse(ctx: Ctx, owner: string, id: string) {
  if (!(await repo.deleteStored(ctx.db, owner, id, 'response'))) throw notFound(id);
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
  let items = (JSON.parse(row.body) as StoredResponse).input;
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
