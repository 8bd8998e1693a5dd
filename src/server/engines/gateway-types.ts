/**
 * The model gateway's interface (ARCHITECTURE "Engines"): every model-like feature — chat,
 * conversations, slides, image tasks, /api/v1 — generates through one object of this type, which
 * routes to a local engine or an upstream, counts tokens, prices the call from the catalog and meters
 * it. Features depend on this interface only.
 */
export interface GatewayMessage {
  /** `tool` carries one tool's result back to the model. */
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** An assistant turn's tool calls, in order (its text, if any, comes first). */
  toolCalls?: ToolCall[];
  /** A tool result: the id of the call it answers, the tool's name when the family says it, and whether the tool failed. */
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
}

/**
 * One tool call. The id links the call to its result across families (Chat `tool_calls[].id`,
 * Responses `call_id`, Messages `tool_use.id`); arguments are JSON text, as the OpenAI wire carries them.
 */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A function the model may call; `parameters` is its arguments' JSON Schema (an object schema). */
export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict?: boolean;
}

/** auto: the model decides; none: no call; required: at least one call; a name: that tool. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** What the reply's text must be: any JSON object, or JSON valid against a schema. */
export type OutputFormat =
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean; description?: string };

/** Who pays: passed to the metering function with every call. */
export interface MeterScope {
  apiKeyId: string | null;
  userId: string;
  taskId?: string | null;
  /** chat, conversation, responses, chat.completions, messages, illustration, ... */
  operation: string;
}

export interface GenerateRequest {
  /** A catalog model id; omitted = the platform's default chat model. */
  model?: string;
  messages: GatewayMessage[];
  system?: string;
  maxTokens?: number;
  temperature?: number;
  stop?: string[];
  /**
   * Retrieved passages a local model may ground its answer on (chat, conversations); `opening`:
   * the passage opens its source, where the source says what it is.
   */
  context?: Array<{ id: string; title: string; content: string; link?: string; opening?: boolean }>;
  /** The /api/v1 surface the call came through; the gateway refuses a model that does not support it. */
  surface?: 'responses' | 'chat' | 'messages';
  /** The user's question on its own, for a local model that grounds on `context` instead of reading the prompt. */
  question?: string;
  scope: MeterScope;
  signal?: AbortSignal;
  /** Functions the model may call; empty or absent: none. */
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  /** false: at most one tool call per turn. */
  parallelToolCalls?: boolean;
  /** Structured output: the reply's text is JSON of this format. */
  outputFormat?: OutputFormat;
  /**
   * A document the feature asks for instead of an answer — a slide outline (engines/slides), a
   * mindmap's Markdown outline (engines/mindmap): the local grounded model writes it from `context`
   * itself; an upstream model ignores this and follows the prompt, which asks for the same.
   */
  artifact?: { kind: 'slide_outline'; maxSlides: number } | { kind: 'mindmap_outline' };
  /** A stream's start event must carry the prompt's tokens (Messages' message_start): count them first if the upstream does not say. */
  promptUsageFirst?: boolean;
}

export interface GatewayUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  webSearches: number;
}

export type StopReason = 'end' | 'max_tokens' | 'stop_sequence' | 'tool_use';

export interface GenerateResult {
  model: string;
  /** Who offers the model (catalog provider). */
  provider?: string;
  text: string;
  /** The tool calls the model made, in order; absent or empty when it made none. */
  toolCalls?: ToolCall[];
  stopReason: StopReason;
  usage: GatewayUsage;
  costUsd: number;
}

/**
 * What is known of a call's usage before its first token: the prompt's tokens as the upstream reports
 * them, or counted when the request asks for it (`promptUsageFirst`); otherwise not known yet.
 */
export interface StreamOpening {
  inputTokens: number | undefined;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/**
 * A tool call as it streams: `tool_call` opens call number `index` (from 0, in order) with its id
 * and name, `tool_arguments` appends a piece of its JSON arguments text.
 */
export type ToolCallEvent =
  | { type: 'tool_call'; index: number; id: string; name: string }
  | { type: 'tool_arguments'; index: number; delta: string };

/** A stream opens with `start` (the prompt's usage), then text deltas and tool call events, then one `done`. */
export type GatewayStreamEvent =
  | { type: 'start'; usage: StreamOpening }
  | { type: 'delta'; text: string }
  | ToolCallEvent
  | { type: 'done'; result: GenerateResult };

export interface ModelGateway {
  generate(request: GenerateRequest): Promise<GenerateResult>;
  /** A start event with the prompt's usage, text deltas as they are produced, then one done event; metered once, at the end. */
  stream(request: GenerateRequest): AsyncIterable<GatewayStreamEvent>;
  /** The prompt's input tokens as a call would meter them, after the same model checks; calls and charges nothing. */
  countInputTokens?(request: GenerateRequest): Promise<number>;
}
