import { z } from 'zod';
import { defineRoute } from './route.js';
import { AnthropicErrorBody } from './errors.js';
import * as documented from './model-api-documented.js';
import {
  ALL_BLOCKS,
  JsonSchema,
  MODEL_API_LIMITS,
  ModelId,
  ToolName,
  anthropicErrors,
  bounded,
  textOrBlocks,
} from './model-api-common.js';

/** Messages (spec 4.8) in the Anthropic family's public shape, with its token count. */

const MessagesContent = textOrBlocks(MODEL_API_LIMITS.blocksPerMessage, 'content blocks in one message', 1).describe(
  'a string, or blocks: text, tool_use {id, name, input} (assistant), tool_result {tool_use_id, content, is_error} (user)',
);

const MessagesTool = z
  .object({
    name: ToolName,
    description: z.string().optional(),
    input_schema: JsonSchema.optional(),
    type: z.string().optional(),
  })
  .loose()
  .describe('a client tool with its input_schema; server tools (a type, no input_schema) are refused with a 400');
const MessagesToolChoice = z.object({
  type: z.enum(['auto', 'any', 'none', 'tool']),
  name: ToolName.optional(),
  disable_parallel_tool_use: z.boolean().optional(),
});

/** Anthropic message threads: the server keeps the conversation; a continue sends only the new messages. */
const MessagesThread = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('create') }),
    z.object({ type: z.literal('continue'), previous_message_id: z.string().min(1).max(200) }),
  ])
  .describe(
    'create: keep this conversation; continue: the stored conversation (with its system and tools) comes before these messages',
  );
const MessagesThinking = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1024) }),
    z.object({ type: z.literal('disabled') }),
    z.object({ type: z.literal('adaptive') }),
  ])
  .describe('extended thinking: a thinking block before the answer, on a model whose capabilities list thinking');
const MessagesOutputFormat = z.object({ type: z.literal('json_schema'), schema: JsonSchema });

export const MessagesRequest = z.object({
  model: ModelId,
  max_tokens: z.number().int().min(1),
  messages: bounded(
    z
      .object({ role: z.enum(['user', 'assistant']), content: MessagesContent })
      .meta(documented.messagesMessage(MODEL_API_LIMITS.blocksPerMessage)),
    MODEL_API_LIMITS.messages,
    'messages',
    { min: 1, total: ALL_BLOCKS },
  ),
  tools: bounded(MessagesTool.meta(documented.messagesTool), MODEL_API_LIMITS.tools, 'tools').optional(),
  tool_choice: MessagesToolChoice.optional(),
  system: textOrBlocks(MODEL_API_LIMITS.blocksPerMessage, 'system blocks')
    .meta(documented.textOrParts(['text'], MODEL_API_LIMITS.blocksPerMessage))
    .optional(),
  stream: z.boolean().optional(),
  temperature: z.number().min(0).max(1).optional(),
  stop_sequences: bounded(z.string(), MODEL_API_LIMITS.stopSequences, 'stop sequences').optional(),
  metadata: z.object({ user_id: z.string().nullable().optional() }).optional(),
  thread: MessagesThread.optional(),
  thinking: MessagesThinking.optional(),
  output_config: z
    .object({ format: MessagesOutputFormat.nullable().optional() })
    .optional()
    .describe('format: structured output, a JSON schema the answer must follow'),
  output_format: MessagesOutputFormat.nullable().optional().describe('the older spelling of output_config.format'),
});

const MessageUsage = z.object({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cache_read_input_tokens: z.number().int(),
  cache_creation_input_tokens: z.number().int(),
  server_tool_use: z
    .object({ web_search_requests: z.number().int() })
    .optional()
    .describe('present when the model searched the web'),
  cost: z.number(),
});

const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
const ToolUseBlock = z.object({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
const ThinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });

export const MessageObject = z.object({
  id: z.string(),
  type: z.literal('message'),
  role: z.literal('assistant'),
  model: z.string(),
  content: z.array(z.union([ThinkingBlock, TextBlock, ToolUseBlock])),
  stop_reason: z.enum(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use']),
  stop_sequence: z.string().nullable(),
  usage: MessageUsage,
});

/** The Messages stream: message_start, content blocks (a text block, then tool_use blocks; each start, deltas, stop), message_delta, message_stop. */
export const MESSAGES_STREAM_EVENTS = {
  message_start: z.object({
    type: z.literal('message_start'),
    message: MessageObject.extend({
      content: z.array(z.never()),
      stop_reason: z.null(),
      stop_sequence: z.null(),
      usage: MessageUsage.omit({ cost: true, server_tool_use: true }),
    }),
  }),
  content_block_start: z.object({
    type: z.literal('content_block_start'),
    index: z.number().int(),
    content_block: z.union([ThinkingBlock, TextBlock, ToolUseBlock]),
  }),
  ping: z.object({ type: z.literal('ping') }),
  content_block_delta: z.object({
    type: z.literal('content_block_delta'),
    index: z.number().int(),
    delta: z.union([
      z.object({ type: z.literal('text_delta'), text: z.string() }),
      z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }),
      z.object({ type: z.literal('thinking_delta'), thinking: z.string() }),
      z.object({ type: z.literal('signature_delta'), signature: z.string() }),
    ]),
  }),
  content_block_stop: z.object({ type: z.literal('content_block_stop'), index: z.number().int() }),
  message_delta: z.object({
    type: z.literal('message_delta'),
    delta: z.object({ stop_reason: MessageObject.shape.stop_reason, stop_sequence: z.string().nullable() }),
    usage: MessageUsage,
  }),
  message_stop: z.object({ type: z.literal('message_stop') }),
  error: AnthropicErrorBody,
};

export const createMessage = defineRoute({
  id: 'api.messages.create',
  method: 'POST',
  path: '/api/v1/messages',
  auth: 'key',
  family: 'anthropic',
  tag: 'model-api',
  summary: 'Messages-style generation; stream: true answers message_start … message_stop',
  body: MessagesRequest,
  responses: {
    200: MessageObject,
    ...anthropicErrors,
    409: AnthropicErrorBody.describe('thread_already_continued: another turn is continuing this thread message'),
  },
  stream: {
    status: 200,
    description: 'with stream: true, Messages events named by their type',
    events: Object.entries(MESSAGES_STREAM_EVENTS).map(([event, data]) => ({ event, data })),
  },
});

export const MessageTokenCount = z.object({ input_tokens: z.number().int() });

export const countMessageTokens = defineRoute({
  id: 'api.messages.count_tokens',
  method: 'POST',
  path: '/api/v1/messages/count_tokens',
  auth: 'key',
  family: 'anthropic',
  tag: 'model-api',
  summary:
    'The input tokens a Messages request would be metered for (tools and tool results included); calls and charges nothing',
  body: MessagesRequest.extend({ max_tokens: z.number().int().min(1).optional() }),
  responses: { 200: MessageTokenCount, ...anthropicErrors },
});
