/**
 * The model gateway's interface (ARCHITECTURE "Engines"): every model-like feature — chat,
 * conversations, slides, image tasks, /api/v1 — generates through one object of this type, which
 * routes to a local engine or an upstream, counts tokens, prices the call from the catalog and meters
 * it. Features depend on this interface only.
 */
export interface GatewayMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

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
  /** Retrieved passages a local model may ground its answer on (chat, conversations). */
  context?: Array<{ id: string; title: string; content: string; link?: string }>;
  /** The /api/v1 surface the call came through; the gateway refuses a model that does not support it. */
  surface?: 'responses' | 'chat' | 'messages';
  /** The user's question on its own, for a local model that grounds on `context` instead of reading the prompt. */
  question?: string;
  scope: MeterScope;
  signal?: AbortSignal;
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

export type StopReason = 'end' | 'max_tokens' | 'stop_sequence';

export interface GenerateResult {
  model: string;
  /** Who offers the model (catalog provider). */
  provider?: string;
  text: string;
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

/** A stream opens with `start` (the prompt's usage), then text deltas, then one `done`. */
export type GatewayStreamEvent = { type: 'start'; usage: StreamOpening } | { type: 'delta'; text: string } | { type: 'done'; result: GenerateResult };

export interface ModelGateway {
  generate(request: GenerateRequest): Promise<GenerateResult>;
  /** A start event with the prompt's usage, text deltas as they are produced, then one done event; metered once, at the end. */
  stream(request: GenerateRequest): AsyncIterable<GatewayStreamEvent>;
}
