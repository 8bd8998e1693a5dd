import { z } from 'zod';
import { textInt } from './fields.js';
import { defineRoute } from './route.js';
import { openaiErrors } from './model-api-common.js';
import { ResponseObject, ResponsesRequest } from './model-api-responses.js';

/**
 * Stored responses (issue 27): a response created with store (the default) is kept for its key, for
 * previous_response_id, retrieval, deletion and its input items, until its retention ends. Each keeps
 * only its own turn; the history is read up the previous_response_id chain, at most 5,000 stored turns
 * (past it: 400 stored_conversation_too_large, param previous_response_id; issue 38).
 */

const ResponseIdParams = z.object({ response_id: z.string().min(1).max(200) });

/** An input item as stored: a message, a function call or a function call's output, each with an id. */
export const InputItem = z.object({ id: z.string(), type: z.string() }).loose();

export const InputItemList = z.object({
  object: z.literal('list'),
  data: z.array(InputItem),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});

export const InputItemsQuery = z.object({
  limit: textInt({ min: 1, max: 100 }).optional().describe('items per page, 1-100 (default 20)'),
  order: z.enum(['asc', 'desc']).optional().describe('desc (the default): the newest item first'),
  after: z.string().min(1).optional().describe('the page after this item id'),
  before: z.string().min(1).optional().describe('the page before this item id'),
  include: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe('accepted; no extra fields exist to include'),
});

export const getResponse = defineRoute({
  id: 'api.responses.get',
  method: 'GET',
  path: '/api/v1/responses/{response_id}',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary: "A stored response of this key (another key's reads as 404)",
  params: ResponseIdParams,
  responses: { 200: ResponseObject, ...openaiErrors },
});

export const deleteResponse = defineRoute({
  id: 'api.responses.delete',
  method: 'DELETE',
  path: '/api/v1/responses/{response_id}',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary:
    'Deletes a stored response of this key; a later previous_response_id to it is a 400 (responses that continued it keep it as their history)',
  params: ResponseIdParams,
  responses: {
    200: z.object({ id: z.string(), object: z.literal('response'), deleted: z.literal(true) }),
    ...openaiErrors,
  },
});

export const listResponseInputItems = defineRoute({
  id: 'api.responses.input_items',
  method: 'GET',
  path: '/api/v1/responses/{response_id}/input_items',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary:
    'The input items a stored response answered, the items of the responses it continued included, paged by item id',
  params: ResponseIdParams,
  query: InputItemsQuery,
  responses: { 200: InputItemList, ...openaiErrors },
});

export const countResponseInputTokens = defineRoute({
  id: 'api.responses.input_tokens',
  method: 'POST',
  path: '/api/v1/responses/input_tokens',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary:
    'The input tokens a Responses request would be metered for (previous_response_id included); calls and charges nothing',
  body: ResponsesRequest.extend({ input: ResponsesRequest.shape.input.optional() }),
  responses: {
    200: z.object({ object: z.literal('response.input_tokens'), input_tokens: z.number().int() }),
    ...openaiErrors,
  },
});

export const storedResponseRoutes = [countResponseInputTokens, getResponse, deleteResponse, listResponseInputItems];
