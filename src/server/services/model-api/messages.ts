import type { z } from 'zod';
import type { MessageObject, MessagesRequest } from '../../../contract/model-api.js';
import type { GenerateRequest, GenerateResult, MeterScope, StopReason } from '../../engines/gateway-types.js';
import { sseFrame, type StreamWriter } from '../../http/sse.js';
import { randomToken } from '../../store/ids.js';
import { textOf } from './content.js';

type Body = z.infer<typeof MessagesRequest>;

export function messagesToGateway(body: Body, scope: MeterScope): GenerateRequest {
  return {
    model: body.model,
    system: body.system === undefined ? undefined : textOf(body.system, 'system', ['text']) || undefined,
    messages: body.messages.map((m, i) => ({ role: m.role, content: textOf(m.content, `messages[${i}].content`, ['text']) })),
    maxTokens: body.max_tokens,
    temperature: body.temperature,
    stop: body.stop_sequences,
    surface: 'messages',
    scope,
    // message_start reports the prompt's input tokens, as Anthropic's API does.
    promptUsageFirst: true,
  };
}

export function stopReason(s: StopReason): 'end_turn' | 'max_tokens' | 'stop_sequence' {
  return s === 'end' ? 'end_turn' : s;
}

/** The stop sequence that ended the reply, when the request leaves no doubt which one it was. */
function stopSequence(r: GenerateResult, body: Body): string | null {
  return r.stopReason === 'stop_sequence' && body.stop_sequences?.length === 1 ? body.stop_sequences[0] : null;
}

export function messagesUsage(r: GenerateResult) {
  return {
    input_tokens: r.usage.inputTokens,
    output_tokens: r.usage.outputTokens,
    cache_read_input_tokens: r.usage.cacheReadTokens,
    cache_creation_input_tokens: r.usage.cacheWriteTokens,
    ...(r.usage.webSearches ? { server_tool_use: { web_search_requests: r.usage.webSearches } } : {}),
    cost: r.costUsd,
  };
}

export function messageFor(body: Body, r: GenerateResult): z.infer<typeof MessageObject> {
  return {
    id: `msg_${randomToken(24)}`,
    type: 'message',
    role: 'assistant',
    model: r.model,
    content: [{ type: 'text', text: r.text }],
    stop_reason: stopReason(r.stopReason),
    stop_sequence: stopSequence(r, body),
    usage: messagesUsage(r),
  };
}

/**
 * message_start (with the prompt's input tokens, as Anthropic's API sends them there), one text
 * block's start/deltas/stop, message_delta with the final usage (input tokens included), message_stop.
 */
export function messagesStreamWriter(body: Body): StreamWriter {
  const id = `msg_${randomToken(24)}`;
  const ev = (type: string, data: Record<string, unknown>) => sseFrame({ type, ...data }, type);
  return {
    start: (opening) =>
      ev('message_start', {
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: opening.inputTokens ?? 0, output_tokens: 0, cache_read_input_tokens: opening.cacheReadTokens, cache_creation_input_tokens: opening.cacheWriteTokens },
        },
      }) +
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
      ev('ping', {}),
    delta: (text) => ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
    done: (r) =>
      ev('content_block_stop', { index: 0 }) +
      ev('message_delta', { delta: { stop_reason: stopReason(r.stopReason), stop_sequence: stopSequence(r, body) }, usage: messagesUsage(r) }) +
      ev('message_stop', {}),
    error: (b) => sseFrame(b, 'error'),
  };
}
