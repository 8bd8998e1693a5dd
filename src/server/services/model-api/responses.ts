import type { z } from 'zod';
import type { ResponseObject, ResponsesRequest } from '../../../contract/model-api.js';
import type { GatewayMessage, GenerateRequest, GenerateResult, MeterScope } from '../../engines/gateway-types.js';
import { HttpError } from '../../errors.js';
import { sseFrame, type StreamWriter } from '../../http/sse.js';
import { randomToken } from '../../store/ids.js';
import { joinSystem, textOf } from './content.js';

type Body = z.infer<typeof ResponsesRequest>;
const TEXT_TYPES = ['input_text', 'output_text', 'text'] as const;

/** Responses -> gateway: instructions and system/developer items become the system text. */
export function responsesToGateway(body: Body, scope: MeterScope): GenerateRequest {
  const system: Array<string | null | undefined> = [body.instructions];
  const messages: GatewayMessage[] = [];
  if (typeof body.input === 'string') messages.push({ role: 'user', content: body.input });
  else {
    body.input.forEach((item, i) => {
      if ((item.type && item.type !== 'message') || !item.role) {
        throw new HttpError('invalid_parameter', `input[${i}]: only message items with a role are supported, got ${item.type ?? 'an item without a role'}`, {
          status: 400,
          extra: { param: `input[${i}]` },
        });
      }
      const text = textOf(item.content as never, `input[${i}].content`, TEXT_TYPES);
      if (item.role === 'system' || item.role === 'developer') system.push(text);
      else messages.push({ role: item.role, content: text });
    });
  }
  return {
    model: body.model,
    system: joinSystem(system),
    messages,
    maxTokens: body.max_output_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    surface: 'responses',
    scope,
  };
}

type Resp = z.infer<typeof ResponseObject>;

export function responsesUsage(r: GenerateResult) {
  const input = r.usage.inputTokens + r.usage.cacheReadTokens + r.usage.cacheWriteTokens;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: r.usage.cacheReadTokens },
    output_tokens: r.usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + r.usage.outputTokens,
    cost: r.costUsd,
  };
}

interface Shell {
  id: string;
  messageId: string;
  created: number;
  model: string;
  body: Body;
}

/** Typed by the contract's ResponseObject, so a field added here and not there fails to compile. */
function responseObject(s: Shell, r: GenerateResult | null): Resp {
  const incomplete = r?.stopReason === 'max_tokens';
  return {
    id: s.id,
    object: 'response',
    created_at: s.created,
    status: r === null ? 'in_progress' : incomplete ? 'incomplete' : 'completed',
    model: r?.model ?? s.model,
    output: r === null ? [] : [messageItem(s, r.text, 'completed')],
    output_text: r?.text ?? '',
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    usage: r ? responsesUsage(r) : null,
    error: null,
    instructions: s.body.instructions ?? null,
    max_output_tokens: s.body.max_output_tokens ?? null,
    temperature: s.body.temperature ?? 1,
    top_p: 1,
    parallel_tool_calls: true,
    tool_choice: 'auto' as const,
    tools: [],
    text: { format: { type: 'text' as const } },
    metadata: {},
  };
}

function messageItem(s: Shell, text: string, status: 'in_progress' | 'completed') {
  return { type: 'message' as const, id: s.messageId, status, role: 'assistant' as const, content: [{ type: 'output_text' as const, text, annotations: [] }] };
}

function shell(body: Body, created: number): Shell {
  return { id: `resp_${randomToken(32)}`, messageId: `msg_${randomToken(32)}`, created, model: body.model, body };
}

export function responseFor(body: Body, r: GenerateResult, created: number) {
  return responseObject(shell(body, created), r);
}

/** The Responses event sequence: created, output item and part, text deltas, done events, completed. */
export function responsesStreamWriter(body: Body, created: number): StreamWriter {
  const s = shell(body, created);
  let seq = 0;
  let text = '';
  const ev = (type: string, data: Record<string, unknown>) => sseFrame({ type, sequence_number: seq++, ...data }, type);
  const where = { item_id: s.messageId, output_index: 0, content_index: 0 };
  return {
    start: () =>
      ev('response.created', { response: responseObject(s, null) }) +
      ev('response.in_progress', { response: responseObject(s, null) }) +
      ev('response.output_item.added', { output_index: 0, item: { ...messageItem(s, '', 'in_progress'), content: [] } }) +
      ev('response.content_part.added', { ...where, part: { type: 'output_text', text: '', annotations: [] } }),
    delta: (delta) => {
      text += delta;
      return ev('response.output_text.delta', { ...where, delta, logprobs: [] });
    },
    done: (r) => {
      const final = responseObject(s, r);
      return (
        ev('response.output_text.done', { ...where, text: r.text, logprobs: [] }) +
        ev('response.content_part.done', { ...where, part: { type: 'output_text', text: r.text, annotations: [] } }) +
        ev('response.output_item.done', { output_index: 0, item: messageItem(s, r.text, 'completed') }) +
        ev(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final })
      );
    },
    error: (b) => {
      const e = (b as { error?: { message?: string; code?: string } }).error ?? {};
      const failed: Resp = { ...responseObject(s, null), status: 'failed', output_text: text, error: { code: e.code ?? 'server_error', message: e.message ?? 'failed' } };
      return ev('error', { code: e.code ?? null, message: e.message ?? 'failed', param: null }) + ev('response.failed', { response: failed });
    },
  };
}
