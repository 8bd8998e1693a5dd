import type { z } from 'zod';
import type { ChatCompletion, ChatCompletionRequest } from '../../../contract/model-api-chat.js';
import type {
  GatewayMessage,
  GenerateRequest,
  GenerateResult,
  MeterScope,
  OutputFormat,
  StopReason,
  ToolChoice,
} from '../../engines/gateway-types.js';
import { HttpError } from '../../errors.js';
import { sseFrame, type StreamWriter } from '../../http/sse.js';
import { randomToken } from '../../store/ids.js';
import { joinSystem, parametersOf, textOf, toolCallOf } from './content.js';

type Body = z.infer<typeof ChatCompletionRequest>;

/**
 * Chat Completions -> gateway: system and developer messages become the system text, in order;
 * assistant tool_calls and role tool messages become the gateway's tool calls and results.
 */
export function chatToGateway(body: Body, scope: MeterScope): GenerateRequest {
  // The deprecated function-calling fields would otherwise be dropped silently.
  for (const [field, instead] of [
    ['functions', 'tools'],
    ['function_call', 'tool_choice'],
  ] as const) {
    if (body[field] !== undefined)
      throw new HttpError('invalid_parameter', `${field} is deprecated and not supported: use ${instead}`, {
        status: 400,
        extra: { param: field },
      });
  }
  const system: string[] = [];
  const messages: GatewayMessage[] = [];
  body.messages.forEach((m, i) => {
    const where = `messages[${i}]`;
    const text = textOf(m.content, `${where}.content`, ['text']);
    if (m.role === 'system' || m.role === 'developer') system.push(text);
    else if (m.role === 'tool') {
      if (!m.tool_call_id)
        throw new HttpError('invalid_parameter', `${where}: a tool message needs tool_call_id`, {
          status: 400,
          extra: { param: `${where}.tool_call_id` },
        });
      messages.push({ role: 'tool', content: text, toolCallId: m.tool_call_id });
    } else if (m.role === 'assistant' && m.tool_calls?.length) {
      messages.push({
        role: 'assistant',
        content: text,
        toolCalls: m.tool_calls.map((c, j) =>
          toolCallOf(c.id, c.function.name, c.function.arguments, `${where}.tool_calls[${j}]`),
        ),
      });
    } else messages.push({ role: m.role === 'assistant' ? 'assistant' : 'user', content: text });
  });
  return {
    model: body.model,
    system: joinSystem(system),
    messages,
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    stop: typeof body.stop === 'string' ? [body.stop] : (body.stop ?? undefined),
    tools: body.tools?.map((t) => ({
      name: t.function.name,
      description: t.function.description,
      parameters: parametersOf(t.function.parameters),
      strict: t.function.strict ?? undefined,
    })),
    toolChoice: chatToolChoice(body.tool_choice),
    parallelToolCalls: body.parallel_tool_calls,
    outputFormat: chatOutputFormat(body.response_format),
    surface: 'chat',
    scope,
  };
}

function chatToolChoice(c: Body['tool_choice']): ToolChoice | undefined {
  if (c === undefined || typeof c === 'string') return c;
  return { name: c.function.name };
}

function chatOutputFormat(f: Body['response_format']): OutputFormat | undefined {
  if (!f || f.type === 'text') return undefined;
  if (f.type === 'json_object') return { type: 'json_object' };
  return {
    type: 'json_schema',
    name: f.json_schema.name,
    description: f.json_schema.description,
    schema: f.json_schema.schema ?? {},
    strict: f.json_schema.strict ?? undefined,
  };
}

export const finishReason = (s: StopReason) =>
  s === 'max_tokens' ? 'length' : s === 'tool_use' ? 'tool_calls' : 'stop';

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
  const calls = r.toolCalls ?? [];
  // As OpenAI answers: content null when the turn is only tool calls.
  const message = {
    role: 'assistant' as const,
    content: calls.length && r.text === '' ? null : r.text,
    refusal: null,
    ...(calls.length
      ? {
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.name, arguments: c.arguments },
          })),
        }
      : {}),
  };
  return {
    id: `chatcmpl-${randomToken(24)}`,
    object: 'chat.completion',
    created,
    model: r.model,
    choices: [{ index: 0, message, finish_reason: finishReason(r.stopReason), logprobs: null }],
    usage: chatUsage(r),
  };
}

/**
 * chat.completion.chunk events ending in [DONE]. Tool calls stream as OpenAI streams them: a delta
 * opening the call (index, id, type, name, empty arguments), then deltas with pieces of arguments.
 * With include_usage, every chunk has `usage: null` and a last chunk, with no choices, the usage.
 */
export function chatStreamWriter(model: string, created: number, includeUsage: boolean): StreamWriter {
  const id = `chatcmpl-${randomToken(24)}`;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    sseFrame({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices,
      ...(includeUsage ? { usage: null } : {}),
      ...extra,
    });
  const choice = (delta: Record<string, unknown>, finish: string | null = null) => [
    { index: 0, delta, finish_reason: finish, logprobs: null },
  ];
  return {
    start: () => chunk(choice({ role: 'assistant', content: '' })),
    delta: (text) => chunk(choice({ content: text })),
    toolCall: (index, callId, name) =>
      chunk(choice({ tool_calls: [{ index, id: callId, type: 'function', function: { name, arguments: '' } }] })),
    toolArguments: (index, delta) => chunk(choice({ tool_calls: [{ index, function: { arguments: delta } }] })),
    done: (r) =>
      chunk(choice({}, finishReason(r.stopReason))) +
      (includeUsage ? chunk([], { usage: chatUsage(r) }) : '') +
      sseFrame('[DONE]'),
    error: (body) => sseFrame(body) + sseFrame('[DONE]'),
  };
}
