import { CliError, EXIT } from '../../exit-codes.js';
import type { LlmOptions } from './index.js';

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

type Any = Record<string, any>;

function chatUsage(u: Any | undefined): Usage | undefined {
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

function responsesUsage(u: Any | undefined | null): Usage | undefined {
  if (!u) return undefined;
  const cached = u.input_tokens_details?.cached_tokens ?? 0;
  return { input: u.input_tokens - cached, output: u.output_tokens, cacheRead: cached, cacheWrite: 0, cost: u.cost };
}

function messagesUsage(u: Any | undefined): Usage | undefined {
  if (!u) return undefined;
  return {
    input: u.input_tokens,
    output: u.output_tokens,
    cacheRead: u.cache_read_input_tokens ?? 0,
    cacheWrite: u.cache_creation_input_tokens ?? 0,
    cost: u.cost,
  };
}

export function textAndUsage(surface: LlmOptions['surface'], raw: unknown): { text: string; usage?: Usage } {
  const r = raw as Any;
  switch (surface) {
    case 'chat':
      return { text: r.choices?.[0]?.message?.content ?? '', usage: chatUsage(r.usage) };
    case 'responses':
      return { text: r.output_text ?? '', usage: responsesUsage(r.usage) };
    case 'messages':
      return {
        text: (r.content ?? [])
          .filter((b: Any) => b.type === 'text')
          .map((b: Any) => b.text)
          .join(''),
        usage: messagesUsage(r.usage),
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
    const d = JSON.parse(ev.data) as Any;
    switch (surface) {
      case 'chat':
        if (d.error) streamFailed(d.error.message);
        return { text: d.choices?.[0]?.delta?.content ?? undefined, usage: chatUsage(d.usage ?? undefined) };
      case 'responses':
        if (d.type === 'error') streamFailed(d.message);
        if (d.type === 'response.output_text.delta') return { text: d.delta };
        if (d.type === 'response.completed' || d.type === 'response.incomplete')
          return { usage: responsesUsage(d.response?.usage), done: true };
        return {};
      case 'messages':
        if (d.type === 'error') streamFailed(d.error?.message);
        if (d.type === 'content_block_delta' && d.delta?.type === 'text_delta') return { text: d.delta.text };
        if (d.type === 'message_delta') return { usage: messagesUsage(d.usage) };
        if (d.type === 'message_stop') return { done: true };
        return {};
    }
  };
}
