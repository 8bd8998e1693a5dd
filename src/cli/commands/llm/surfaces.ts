import type { z } from 'zod';
import type { OpenAIErrorBody } from '../../../contract/errors.js';
import type { ChatCompletion, ChatCompletionChunk } from '../../../contract/model-api-chat.js';
import type { MESSAGES_STREAM_EVENTS, MessageObject } from '../../../contract/model-api-messages.js';
import type { RESPONSES_STREAM_EVENTS, ResponseObject } from '../../../contract/model-api-responses.js';
import { CliError, EXIT } from '../../exit-codes.js';

/** `facet llm`'s options. */
export interface LlmOptions {
  surface: 'chat' | 'responses' | 'messages';
  system?: string;
  temperature?: number;
  maxTokens?: number;
  stream?: boolean;
  verbose?: boolean;
}

/** The one place the CLI knows how the three surfaces differ: request bodies, text, usage, events. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost?: number;
}

const MESSAGES_DEFAULT_MAX_TOKENS = 1024;

export function requestBody(
  surface: LlmOptions['surface'],
  model: string,
  prompt: string,
  o: LlmOptions,
): Record<string, unknown> {
  switch (surface) {
    case 'chat':
      return {
        model,
        messages: [...(o.system ? [{ role: 'system', content: o.system }] : []), { role: 'user', content: prompt }],
        temperature: o.temperature,
        max_tokens: o.maxTokens,
        ...(o.stream ? { stream_options: { include_usage: true } } : {}),
      };
    case 'responses':
      return {
        model,
        input: prompt,
        instructions: o.system,
        temperature: o.temperature,
        max_output_tokens: o.maxTokens,
      };
    case 'messages':
      return {
        model,
        messages: [{ role: 'user', content: prompt }],
        system: o.system,
        temperature: o.temperature,
        max_tokens: o.maxTokens ?? MESSAGES_DEFAULT_MAX_TOKENS,
      };
  }
}

type ChatAnswer = z.output<typeof ChatCompletion>;
type ResponsesAnswer = z.output<typeof ResponseObject>;
type MessagesAnswer = z.output<typeof MessageObject>;
/** A chunk, or an error body in its place. */
type ChatStreamEvent = Partial<z.output<typeof ChatCompletionChunk>> & Partial<z.output<typeof OpenAIErrorBody>>;
type ResponsesStreamEvent = z.output<(typeof RESPONSES_STREAM_EVENTS)[number]>;
type MessagesStreamEvent = z.output<(typeof MESSAGES_STREAM_EVENTS)[keyof typeof MESSAGES_STREAM_EVENTS]>;

// The optional chains below stay although the contract types say the fields are there: the answer
// is not validated on the way in, and a missing field must read as absent, not crash.
function chatUsage(u: ChatAnswer['usage'] | null | undefined): Usage | undefined {
  if (!u) return undefined;
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input: u.prompt_tokens - cached,
    output: u.completion_tokens,
    cacheRead: cached,
    cacheWrite: 0,
    cost: u.cost,
  };
}

function responsesUsage(u: ResponsesAnswer['usage'] | undefined): Usage | undefined {
  if (!u) return undefined;
  const cached = u.input_tokens_details?.cached_tokens ?? 0;
  return { input: u.input_tokens - cached, output: u.output_tokens, cacheRead: cached, cacheWrite: 0, cost: u.cost };
}

function messagesUsage(u: MessagesAnswer['usage'] | undefined): Usage | undefined {
  if (!u) return undefined;
  return {
    input: u.input_tokens,
    output: u.output_tokens,
    cacheRead: u.cache_read_input_tokens ?? 0,
    cacheWrite: u.cache_creation_input_tokens ?? 0,
    cost: u.cost,
  };
}

/** A surface's answer, as the client returned it, so its text and usage are read in that surface's shape. */
export type Answer =
  | { surface: 'chat'; raw: ChatAnswer }
  | { surface: 'responses'; raw: ResponsesAnswer }
  | { surface: 'messages'; raw: MessagesAnswer };

export function textAndUsage(a: Answer): { text: string; usage?: Usage } {
  switch (a.surface) {
    case 'chat':
      return { text: a.raw.choices?.[0]?.message?.content ?? '', usage: chatUsage(a.raw.usage) };
    case 'responses':
      return { text: a.raw.output_text ?? '', usage: responsesUsage(a.raw.usage) };
    case 'messages':
      return {
        text: (a.raw.content ?? [])
          .filter((b) => b.type === 'text')
          .map((b) => b.text)
          .join(''),
        usage: messagesUsage(a.raw.usage),
      };
  }
}

export interface StreamStep {
  text?: string;
  usage?: Usage;
  done?: boolean;
}

function streamFailed(message: string): never {
  throw new CliError(`the stream failed: ${message}`, EXIT.failure);
}

/** Turns one server-sent event of a surface into text, usage, or the end. */
export function streamParser(surface: LlmOptions['surface']): (ev: { event?: string; data: string }) => StreamStep {
  return (ev) => {
    if (ev.data === '[DONE]') return { done: true };
    switch (surface) {
      case 'chat': {
        const d = JSON.parse(ev.data) as ChatStreamEvent;
        if (d.error) streamFailed(d.error.message);
        return { text: d.choices?.[0]?.delta?.content ?? undefined, usage: chatUsage(d.usage ?? undefined) };
      }
      case 'responses': {
        const d = JSON.parse(ev.data) as ResponsesStreamEvent;
        if (d.type === 'error') streamFailed(d.message);
        if (d.type === 'response.output_text.delta') return { text: d.delta };
        if (d.type === 'response.completed' || d.type === 'response.incomplete')
          return { usage: responsesUsage(d.response?.usage), done: true };
        return {};
      }
      case 'messages': {
        const d = JSON.parse(ev.data) as MessagesStreamEvent;
        if (d.type === 'error') streamFailed(d.error?.message);
        if (d.type === 'content_block_delta' && d.delta?.type === 'text_delta') return { text: d.delta.text };
        if (d.type === 'message_delta') return { usage: messagesUsage(d.usage) };
        if (d.type === 'message_stop') return { done: true };
        return {};
      }
    }
  };
}
