import { z } from 'zod';
import { defineRoute } from './route.js';
import { OpenAIErrorBody } from './errors.js';
import * as documented from './model-api-documented.js';
import {
  ALL_BLOCKS,
  JsonSchema,
  MODEL_API_LIMITS,
  ModelId,
  Temperature2,
  ToolName,
  bounded,
  openaiErrors,
  textOrBlocks,
} from './model-api-common.js';

/** Chat Completions (spec 4.8) in the OpenAI family's public shape. */

const ChatToolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({ name: ToolName, arguments: z.string() }),
});

export const ChatMessage = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
    content: textOrBlocks(MODEL_API_LIMITS.blocksPerMessage, 'content parts in one message')
      .meta(documented.textOrParts(['text'], MODEL_API_LIMITS.blocksPerMessage))
      .nullable()
      .optional(),
    name: z.string().optional(),
    tool_calls: bounded(ChatToolCall, MODEL_API_LIMITS.toolCalls, 'tool calls in one message')
      .optional()
      .describe('assistant messages: the calls the model made'),
    tool_call_id: z.string().optional().describe('tool messages: the call this result answers'),
  })
  .meta(documented.chatMessageByRole);

const ChatTool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: ToolName,
    description: z.string().optional(),
    parameters: JsonSchema.optional(),
    strict: z.boolean().nullable().optional(),
  }),
});
const ChatToolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: ToolName }) }),
]);
const ChatResponseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string().min(1).max(64),
      description: z.string().optional(),
      schema: JsonSchema.optional(),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);

export const ChatCompletionRequest = z.object({
  model: ModelId,
  messages: bounded(ChatMessage, MODEL_API_LIMITS.messages, 'messages', { min: 1, total: ALL_BLOCKS }),
  stream: z.boolean().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullable().optional(),
  temperature: Temperature2.nullable().optional(),
  max_tokens: z.number().int().min(1).nullable().optional(),
  max_completion_tokens: z.number().int().min(1).nullable().optional(),
  stop: z
    .union([z.string(), z.array(z.string()).max(4)])
    .nullable()
    .optional(),
  n: z.literal(1).nullable().optional(),
  user: z.string().optional(),
  tools: bounded(ChatTool, MODEL_API_LIMITS.tools, 'tools').optional(),
  tool_choice: ChatToolChoice.optional(),
  parallel_tool_calls: z.boolean().optional(),
  response_format: ChatResponseFormat.optional(),
  functions: z.array(z.unknown()).optional().meta(documented.chatDeprecated('tools')),
  function_call: z.unknown().optional().meta(documented.chatDeprecated('tool_choice')),
});

const ChatUsage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().int() }),
  cost: z.number().describe('USD, from the catalog (a facet addition)'),
});

export const ChatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal('assistant'),
        content: z.string().nullable(),
        refusal: z.null(),
        tool_calls: z.array(ChatToolCall).optional(),
      }),
      finish_reason: z.enum(['stop', 'length', 'tool_calls']),
      logprobs: z.null(),
    }),
  ),
  usage: ChatUsage,
});

/** One chunk of a streamed chat completion; the last one carries usage when include_usage asks. */
export const ChatCompletionChunk = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({
        role: z.literal('assistant').optional(),
        content: z.string().optional(),
        tool_calls: z
          .array(
            z.object({
              index: z.number().int(),
              id: z.string().optional(),
              type: z.literal('function').optional(),
              function: z.object({ name: z.string().optional(), arguments: z.string() }),
            }),
          )
          .optional()
          .describe('a call opens with its id, type and name; its arguments follow in pieces'),
      }),
      finish_reason: z.enum(['stop', 'length', 'tool_calls']).nullable(),
      logprobs: z.null(),
    }),
  ),
  usage: ChatUsage.nullable()
    .optional()
    .describe('with include_usage: null on every chunk but the last, which has the usage'),
});

export const createChatCompletion = defineRoute({
  id: 'api.chat.completions.create',
  method: 'POST',
  path: '/api/v1/chat/completions',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary: 'Chat-Completions-style generation; stream: true answers chunks ending in [DONE]',
  body: ChatCompletionRequest,
  responses: { 200: ChatCompletion, ...openaiErrors },
  stream: {
    status: 200,
    description:
      'with stream: true, unnamed chat.completion.chunk events (an error body on a failure), then the [DONE] sentinel',
    events: [{ data: ChatCompletionChunk }, { data: OpenAIErrorBody }, { data: z.literal('[DONE]'), json: false }],
  },
});
