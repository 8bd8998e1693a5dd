import { z } from 'zod';
import { textInt, xmlText } from './fields.js';
import { defineRoute } from './route.js';
import { AnthropicErrorBody, DecisionsErrorBody, OpenAIErrorBody } from './errors.js';
import * as documented from './model-api-documented.js';

/**
 * The model-calling APIs (spec 4.8): three chat surfaces in their families' public shapes, model
 * discovery, images, videos and the planned decisions endpoint. Request schemas accept what the
 * official clients send; responses list the fields callers read (more may be present).
 */

const ModelId = z.string().min(1).max(200);

/**
 * How many items one request may carry, generous for real clients: checked before the items are
 * validated, so a body of hundreds of thousands of messages or blocks is refused at once instead of
 * being walked (and later counted) item by item on the event loop. Past a bound: 400 in the family's shape.
 */
export const MODEL_API_LIMITS = {
  /** messages (Chat Completions, Messages) or input items (Responses) */
  messages: 10_000,
  /** content blocks (parts) of one message */
  blocksPerMessage: 1_000,
  /** content blocks of all messages together */
  blocks: 20_000,
  tools: 1_000,
  /** tool calls one assistant message carries */
  toolCalls: 1_000,
  stopSequences: 64,
} as const;

/** Refuses an array by its length alone, before `inner` (an array schema, or a union with one) looks at its items; `total` adds a bound over what the items hold. */
function lengthFirst<T extends z.ZodType>(
  inner: T,
  max: number,
  what: string,
  total?: { max: number; what: string; count: (items: unknown[]) => number },
) {
  return z.preprocess((v, ctx) => {
    if (!Array.isArray(v)) return v;
    if (v.length > max)
      ctx.addIssue({
        code: 'too_big',
        origin: 'array',
        maximum: max,
        inclusive: true,
        input: v,
        message: `at most ${max} ${what} (got ${v.length})`,
      });
    else if (total) {
      const n = total.count(v);
      if (n > total.max)
        ctx.addIssue({
          code: 'too_big',
          origin: 'array',
          maximum: total.max,
          inclusive: true,
          input: v,
          message: `at most ${total.max} ${total.what} in all (got ${n})`,
        });
    }
    return v;
  }, inner);
}

/** An array of at most `max` items (at least `min`), refused by its length before its items are validated. */
function bounded<T extends z.ZodType>(
  item: T,
  max: number,
  what: string,
  more: { min?: number; total?: { max: number; what: string; count: (items: unknown[]) => number } } = {},
) {
  return lengthFirst(
    z
      .array(item)
      .min(more.min ?? 0)
      .max(max),
    max,
    what,
    more.total,
  );
}

/** A string, or an array of at most `max` blocks: the count is checked first, so its message is not lost in the union's. */
function textOrBlocks(max: number, what: string, min = 0) {
  return lengthFirst(z.union([z.string(), z.array(TextPart).min(min).max(max)]), max, what);
}

/** Blocks in the messages' content arrays (a string content counts none). */
const blocksIn = (messages: unknown[]) =>
  messages.reduce<number>(
    (n, m) =>
      n +
      (Array.isArray((m as { content?: unknown } | null)?.content) ? (m as { content: unknown[] }).content.length : 0),
    0,
  );
const ALL_BLOCKS = { max: MODEL_API_LIMITS.blocks, what: 'content blocks', count: blocksIn };
const Temperature2 = z.number().min(0).max(2);

const TextPart = z.object({ type: z.string(), text: z.string().optional() }).loose();

/** A tool's name as all three families accept it. */
const ToolName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and -, at most 64');
/** A JSON Schema (an object schema for tool parameters). */
const JsonSchema = z.record(z.string(), z.unknown());

// ---- Chat Completions ----

const ChatToolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({ name: ToolName, arguments: z.string() }),
});

export const ChatMessage = z.object({
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
});

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

// ---- Responses ----

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

// ---- Messages ----

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

// ---- discovery ----

export const MODEL_KINDS = ['chat', 'image_generation', 'video_generation', 'decisions'] as const;

export const ModelCard = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
  model_kind: z.enum(MODEL_KINDS),
});

export const ModelList = z.object({ object: z.literal('list'), data: z.array(ModelCard) });

/** A model as the Anthropic API describes one: what its client reads when it lists models. */
export const AnthropicModelInfo = z.object({
  type: z.literal('model'),
  id: z.string(),
  display_name: z.string(),
  created_at: z.string().describe('RFC 3339'),
});
export const AnthropicModelList = z.object({
  data: z.array(AnthropicModelInfo),
  has_more: z.boolean(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
});

const Price = z.object({
  input: z.number(),
  output: z.number(),
  cache_read: z.number().nullable(),
  cache_write: z.number().nullable(),
});

export const ModelDetail = ModelCard.extend({
  description: z.string().nullable(),
  context_window: z.number().int(),
  max_output_tokens: z.number().int(),
  surfaces: z.array(z.string()),
  capabilities: z
    .object({ tools: z.boolean(), structured_output: z.boolean(), thinking: z.boolean() })
    .describe(
      'whether the model takes tools, answers in a given JSON format, and thinks before it answers (Messages thinking)',
    ),
  pricing: Price.extend({
    currency: z.literal('USD'),
    unit: z.literal('per_million_tokens'),
    web_search_per_call: z.number(),
    tiers: z.array(Price.extend({ above_prompt_tokens: z.number().int() })),
    per_video: z.number().nullable(),
    per_image: z.number().nullable(),
  }),
});
export type ModelDetail = z.infer<typeof ModelDetail>;

/** An invalid boolean is a 422 (spec 4.8), so only these spellings are accepted. */
const QueryBoolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const ModelListQuery = z.object({
  provider: z.string().min(1).optional(),
  exclude_video_and_decisions: QueryBoolean.default(false),
  limit: textInt({ min: 1, max: 1000 }).optional().describe('Anthropic shape only: page size (default 20)'),
  after_id: z.string().min(1).optional().describe('Anthropic shape only: the page after this model'),
  before_id: z.string().min(1).optional().describe('Anthropic shape only: the page before this model'),
});
export const ProviderQuery = z.object({ provider: z.string().min(1).optional() });
export const ModelIdParams = z.object({ model_id: ModelId });

// ---- images, videos, decisions ----

export const ImageGenerationRequest = z.object({
  model: ModelId.optional(),
  prompt: xmlText(z.string().min(1).max(4000)),
  n: z.number().int().min(1).max(4).optional(),
  size: z
    .string()
    .regex(/^\d{2,4}x\d{2,4}$/, 'WIDTHxHEIGHT, for example 1024x1024')
    .optional(),
  response_format: z.enum(['b64_json', 'url']).optional(),
  user: z.string().optional(),
});

export const ImageGeneration = z.object({
  created: z.number().int(),
  data: z.array(z.object({ b64_json: z.string().optional(), url: z.string().optional(), revised_prompt: z.string() })),
  usage: z.object({
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    total_tokens: z.number().int(),
    cost: z.number(),
  }),
});

export const VideoGenerationRequest = z
  .object({ model: ModelId, prompt: xmlText(z.string().min(1).max(4000)) })
  .loose();

const openaiErrors = {
  400: OpenAIErrorBody,
  401: OpenAIErrorBody,
  403: OpenAIErrorBody,
  404: OpenAIErrorBody,
  429: OpenAIErrorBody,
  503: OpenAIErrorBody,
} as const;
const anthropicErrors = {
  400: AnthropicErrorBody,
  401: AnthropicErrorBody,
  403: AnthropicErrorBody,
  404: AnthropicErrorBody,
  429: AnthropicErrorBody,
  503: AnthropicErrorBody,
} as const;

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

export const listApiModels = defineRoute({
  id: 'api.models.list',
  method: 'GET',
  path: '/api/v1/models',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary:
    "Discoverable models (never calls or charges one); in the Anthropic shape, paged, when the request carries the Anthropic client's anthropic-version header",
  query: ModelListQuery,
  validationStatus: 422,
  responses: { 200: z.union([ModelList, AnthropicModelList]), 422: OpenAIErrorBody, ...openaiErrors },
});

export const listVideoModels = defineRoute({
  id: 'api.videos.models.list',
  method: 'GET',
  path: '/api/v1/videos/models',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary: 'Discoverable video_generation models',
  query: ProviderQuery,
  validationStatus: 422,
  responses: { 200: ModelList, ...openaiErrors },
});

export const listDecisionModels = defineRoute({
  id: 'api.decisions.models.list',
  method: 'GET',
  path: '/api/v1/decisions/models',
  auth: 'key',
  family: 'decisions',
  tag: 'model-api',
  summary: 'Discoverable decisions models',
  query: ProviderQuery,
  validationStatus: 422,
  responses: { 200: ModelList, 401: DecisionsErrorBody },
});

export const getApiModel = defineRoute({
  id: 'api.models.get',
  method: 'GET',
  path: '/api/v1/models/{model_id}',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary:
    'One discoverable model: kind, limits, surfaces and prices; in the Anthropic shape with the anthropic-version header',
  params: ModelIdParams,
  responses: { 200: z.union([ModelDetail, AnthropicModelInfo]), ...openaiErrors },
});

export const createImage = defineRoute({
  id: 'api.images.generations',
  method: 'POST',
  path: '/api/v1/images/generations',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary: 'Images in the OpenAI Images shape, through the local illustration engine',
  body: ImageGenerationRequest,
  responses: { 200: ImageGeneration, ...openaiErrors },
});

export const createVideo = defineRoute({
  id: 'api.videos.generations',
  method: 'POST',
  path: '/api/v1/videos/generations',
  auth: 'key',
  family: 'openai',
  tag: 'model-api',
  summary: 'Video generation: needs an upstream that offers video',
  body: VideoGenerationRequest,
  responses: { 200: z.object({}).loose(), 501: OpenAIErrorBody, ...openaiErrors },
});

export const createDecision = defineRoute({
  id: 'api.decisions.create',
  method: 'POST',
  path: '/api/v1/decisions',
  auth: 'key',
  family: 'decisions',
  tag: 'model-api',
  summary: 'Planned, not yet available: always 501 in the decisions error shape',
  responses: { 501: DecisionsErrorBody, 401: DecisionsErrorBody },
});

export const modelApiRoutes = [
  createResponse,
  createChatCompletion,
  createMessage,
  countMessageTokens,
  listApiModels,
  listVideoModels,
  listDecisionModels,
  getApiModel,
  createImage,
  createVideo,
  createDecision,
];
