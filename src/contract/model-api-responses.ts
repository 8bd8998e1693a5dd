import { z } from 'zod';
import { defineRoute } from './route.js';
import * as documented from './model-api-documented.js';
import {
  ALL_BLOCKS,
  JsonSchema,
  MODEL_API_LIMITS,
  ModelId,
  Temperature2,
  ToolName,
  bounded,
  lengthFirst,
  openaiErrors,
  textOrBlocks,
} from './model-api-common.js';

/** Responses (spec 4.8) in the OpenAI family's public shape; its stored responses are in model-api-stored.ts. */

const ResponsesInputItem = z
  .object({
    type: z.string().optional(),
    role: z.enum(['system', 'developer', 'user', 'assistant']).optional(),
    content: textOrBlocks(MODEL_API_LIMITS.blocksPerMessage, 'content parts in one item').optional(),
  })
  .loose();

const ResponsesFunctionTool = z.object({
  type: z.literal('function'),
  name: ToolName,
  description: z.string().nullable().optional(),
  parameters: JsonSchema.nullable().optional(),
  strict: z.boolean().nullable().optional(),
});
const ResponsesToolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), name: ToolName }),
]);
const ResponsesTextFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    name: z.string().min(1).max(64),
    description: z.string().optional(),
    schema: JsonSchema,
    strict: z.boolean().nullable().optional(),
  }),
]);

export const ResponsesRequest = z.object({
  model: ModelId,
  input: lengthFirst(
    z.union([
      z.string(),
      z
        .array(ResponsesInputItem.meta(documented.responsesInputItem(MODEL_API_LIMITS.blocksPerMessage)))
        .min(1)
        .max(MODEL_API_LIMITS.messages),
    ]),
    MODEL_API_LIMITS.messages,
    'input items',
    ALL_BLOCKS,
  ).describe(
    'a string, or items: messages, function_call items (a call the model made) and function_call_output items (its result)',
  ),
  instructions: z.string().nullable().optional(),
  stream: z.boolean().optional(),
  temperature: Temperature2.nullable().optional(),
  max_output_tokens: z.number().int().min(1).nullable().optional(),
  store: z
    .boolean()
    .optional()
    .describe('keep the response for previous_response_id, GET and input_items (default true)'),
  previous_response_id: z
    .string()
    .min(1)
    .max(200)
    .nullable()
    .optional()
    .describe("continue from this stored response: its input and output come before this request's input"),
  user: z.string().optional(),
  tools: bounded(
    z.object({ type: z.string() }).loose().meta(documented.responsesFunctionTool),
    MODEL_API_LIMITS.tools,
    'tools',
  )
    .optional()
    .describe('function tools; other tool types are refused with a 400'),
  tool_choice: z
    .union([z.string(), z.object({ type: z.string() }).loose()])
    .meta(documented.responsesToolChoice)
    .optional()
    .describe('none, auto, required or {type: function, name}'),
  parallel_tool_calls: z.boolean().nullable().optional(),
  text: z.object({ format: ResponsesTextFormat.optional() }).loose().optional(),
});

const ResponsesUsage = z.object({
  input_tokens: z.number().int(),
  input_tokens_details: z.object({ cached_tokens: z.number().int() }),
  output_tokens: z.number().int(),
  output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
  total_tokens: z.number().int(),
  cost: z.number(),
});

const OutputText = z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()) });
const OutputMessage = z.object({
  type: z.literal('message'),
  id: z.string(),
  status: z.enum(['in_progress', 'completed', 'incomplete']),
  role: z.literal('assistant'),
  content: z.array(OutputText),
});
const FunctionCallItem = z.object({
  type: z.literal('function_call'),
  id: z.string(),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  status: z.enum(['in_progress', 'completed', 'incomplete']),
});
const OutputItem = z.union([OutputMessage, FunctionCallItem]);

/**
 * The response object, with every field the official clients expect (the echoed request settings
 * and the fixed tool fields of a text-only model included), so the document lists what is sent.
 */
export const ResponseObject = z.object({
  id: z.string(),
  object: z.literal('response'),
  created_at: z.number().int(),
  status: z.enum(['completed', 'incomplete', 'in_progress', 'failed']),
  model: z.string(),
  output: z.array(OutputItem),
  output_text: z.string(),
  incomplete_details: z.object({ reason: z.string() }).nullable(),
  usage: ResponsesUsage.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  instructions: z.string().nullable(),
  max_output_tokens: z.number().int().nullable(),
  temperature: z.number(),
  top_p: z.number(),
  parallel_tool_calls: z.boolean(),
  tool_choice: ResponsesToolChoice,
  tools: z.array(ResponsesFunctionTool),
  text: z.object({ format: ResponsesTextFormat }),
  metadata: z.record(z.string(), z.string()),
  previous_response_id: z.string().nullable().optional(),
  store: z.boolean().optional(),
});

/** The events of a streamed response, each with its type and a sequence number from 0. */
const responsesEvent = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), sequence_number: z.number().int().min(0), ...shape });
const TextPosition = { item_id: z.string(), output_index: z.number().int(), content_index: z.number().int() };
export const RESPONSES_STREAM_EVENTS = [
  ...(
    [
      'response.created',
      'response.in_progress',
      'response.completed',
      'response.incomplete',
      'response.failed',
    ] as const
  ).map((type) => responsesEvent(type, { response: ResponseObject })),
  ...(['response.output_item.added', 'response.output_item.done'] as const).map((type) =>
    responsesEvent(type, { output_index: z.number().int(), item: OutputItem }),
  ),
  ...(['response.content_part.added', 'response.content_part.done'] as const).map((type) =>
    responsesEvent(type, { ...TextPosition, part: OutputText }),
  ),
  responsesEvent('response.output_text.delta', { ...TextPosition, delta: z.string(), logprobs: z.array(z.unknown()) }),
  responsesEvent('response.output_text.done', { ...TextPosition, text: z.string(), logprobs: z.array(z.unknown()) }),
  responsesEvent('response.function_call_arguments.delta', {
    item_id: z.string(),
    output_index: z.number().int(),
    delta: z.string(),
  }),
  responsesEvent('response.function_call_arguments.done', {
    item_id: z.string(),
    output_index: z.number().int(),
    name: z.string(),
    arguments: z.string(),
  }),
  responsesEvent('error', { code: z.string().nullable(), message: z.string(), param: z.string().nullable() }),
];

export const createResponse = defineRoute({
  id: 'api.responses.create',
  method: 'POST',
  path: '/api/v1/responses',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary: 'Responses-style generation; stream: true answers Responses events',
  body: ResponsesRequest,
  responses: { 200: ResponseObject, ...openaiErrors },
  stream: {
    status: 200,
    description:
      'with stream: true, Responses events named by their type; an error event then response.failed on a failure',
    events: RESPONSES_STREAM_EVENTS.map((data) => ({ event: data.shape.type.value, data })),
  },
});
