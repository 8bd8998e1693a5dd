import type { z } from 'zod';
import type { ResponseObject } from '../../../contract/model-api-responses.js';
import type { GenerateResult, ToolCall } from '../../engines/gateway-types.js';
import { randomToken } from '../../store/ids.js';
import { functionTools, toolChoice, type ResponsesBody as Body } from './responses-request.js';

/** The Responses response object: its output items, usage and the request settings it echoes. */

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

export interface Shell {
  id: string;
  messageId: string;
  /** The function_call items' ids, made as the calls appear, so the stream and the final object agree. */
  callItemIds: string[];
  created: number;
  model: string;
  body: Body;
  /** What the response says about its storage (stored responses: model-api-turns.ts). */
  echo?: { previous_response_id: string | null; store: boolean };
}

export const callItemId = (s: Shell, index: number) => (s.callItemIds[index] ??= `fc_${randomToken(32)}`);

/** A turn with text has a message item; a turn of only tool calls has none (and no empty one). */
function outputItems(s: Shell, r: GenerateResult): Resp['output'] {
  const calls = r.toolCalls ?? [];
  const message = r.text !== '' || calls.length === 0 ? [messageItem(s, r.text, 'completed')] : [];
  return [...message, ...calls.map((c, i) => callItem(s, i, c, 'completed'))];
}

/** Typed by the contract's ResponseObject, so a field added here and not there fails to compile. */
export function responseObject(s: Shell, r: GenerateResult | null): Resp {
  const incomplete = r?.stopReason === 'max_tokens';
  const format = s.body.text?.format;
  return {
    id: s.id,
    object: 'response',
    created_at: s.created,
    status: r === null ? 'in_progress' : incomplete ? 'incomplete' : 'completed',
    model: r?.model ?? s.model,
    output: r === null ? [] : outputItems(s, r),
    output_text: r?.text ?? '',
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    usage: r ? responsesUsage(r) : null,
    error: null,
    instructions: s.body.instructions ?? null,
    max_output_tokens: s.body.max_output_tokens ?? null,
    temperature: s.body.temperature ?? 1,
    top_p: 1,
    parallel_tool_calls: s.body.parallel_tool_calls ?? true,
    tool_choice: echoToolChoice(s.body.tool_choice),
    tools: (functionTools(s.body) ?? []).map((t) => ({
      type: 'function' as const,
      name: t.name,
      description: t.description ?? null,
      parameters: t.parameters,
      strict: t.strict ?? null,
    })),
    text: { format: format ?? { type: 'text' as const } },
    metadata: {},
    ...s.echo,
  };
}

function echoToolChoice(c: Body['tool_choice']): Resp['tool_choice'] {
  const parsed = toolChoice(c);
  if (parsed === undefined) return 'auto';
  return typeof parsed === 'string' ? parsed : { type: 'function', name: parsed.name };
}

export function messageItem(s: Shell, text: string, status: 'in_progress' | 'completed') {
  return {
    type: 'message' as const,
    id: s.messageId,
    status,
    role: 'assistant' as const,
    content: [{ type: 'output_text' as const, text, annotations: [] }],
  };
}

export function callItem(s: Shell, index: number, c: ToolCall, status: 'in_progress' | 'completed') {
  return {
    type: 'function_call' as const,
    id: callItemId(s, index),
    call_id: c.id,
    name: c.name,
    arguments: c.arguments,
    status,
  };
}

export function shell(body: Body, created: number): Shell {
  return {
    id: `resp_${randomToken(32)}`,
    messageId: `msg_${randomToken(32)}`,
    callItemIds: [],
    created,
    model: body.model,
    body,
  };
}

export function responseFor(body: Body, r: GenerateResult, created: number) {
  return responseObject(shell(body, created), r);
}
