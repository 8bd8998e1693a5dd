import type { z } from 'zod';
import type { ChatCompletion, ChatCompletionRequest } from '../../../contract/model-api.js';
import type { GatewayMessage, GenerateRequest, GenerateResult, MeterScope, StopReason } from '../../engines/gateway-types.js';
import { sseFrame, type StreamWriter } from '../../http/sse.js';
import { randomToken } from '../../store/ids.js';
import { joinSystem, textOf } from './content.js';

type Body = z.infer<typeof ChatCompletionRequest>;

/** Chat Completions -> gateway: system and developer messages become the system text, in order. */
export function chatToGateway(body: Body, scope: MeterScope): GenerateRequest {
  const system: string[] = [];
  const messages: GatewayMessage[] = [];
  body.messages.forEach((m, i) => {
    const text = textOf(m.content, `messages[${i}].content`, ['text']);
    if (m.role === 'system' || m.role === 'developer') system.push(text);
    else messages.push({ role: m.role, content: text });
  });
  return {
    model: body.model,
    system: joinSystem(system),
    messages,
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    stop: typeof body.stop === 'string' ? [body.stop] : (body.stop ?? undefined),
    surface: 'chat',
    scope,
  };
}

export const finishReason = (s: StopReason) => (s === 'max_tokens' ? 'length' : 'stop');

export function chatUsage(r: GenerateResult) {
  const prompt = r.usage.inputTokens + r.usage.cacheReadTokens + r.usage.cacheWriteTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: r.usage.outputTokens,
    total_tokens: prompt + r.usage.outputTokens,
    prompt_tokens_details: { cached_tokens: r.usage.cacheReadTokens },
    cost: r.costUsd,
  };
}

export function chatCompletion(r: GenerateResult, created: number): z.infer<typeof ChatCompletion> {
  return {
    id: `chatcmpl-${randomToken(24)}`,
    object: 'chat.completion',
    created,
    model: r.model,
    choices: [{ index: 0, message: { role: 'assistant', content: r.text, refusal: null }, finish_reason: finishReason(r.stopReason), logprobs: null }],
    usage: chatUsage(r),
  };
}

/** chat.completion.chunk events ending in [DONE]; usage in a last chunk when include_usage asks. */
export function chatStreamWriter(model: string, created: number, includeUsage: boolean): StreamWriter {
  const id = `chatcmpl-${randomToken(24)}`;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    sseFrame({ id, object: 'chat.completion.chunk', created, model, choices, ...extra });
  return {
    start: () => chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, logprobs: null }]),
    delta: (text) => chunk([{ index: 0, delta: { content: text }, finish_reason: null, logprobs: null }]),
    done: (r) =>
      chunk([{ index: 0, delta: {}, finish_reason: finishReason(r.stopReason), logprobs: null }]) +
      (includeUsage ? chunk([], { usage: chatUsage(r) }) : '') +
      sseFrame('[DONE]'),
    error: (body) => sseFrame(body) + sseFrame('[DONE]'),
  };
}
