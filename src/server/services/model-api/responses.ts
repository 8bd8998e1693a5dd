import type { z } from 'zod';
import type { ResponseObject, ResponsesRequest } from '../../../contract/model-api-responses.js';
import type {
  GatewayMessage,
  GenerateRequest,
  GenerateResult,
  MeterScope,
  OutputFormat,
  ToolCall,
  ToolChoice,
  ToolDefinition,
} from '../../engines/gateway-types.js';
import { HttpError } from '../../errors.js';
import { sseFrame, type StreamWriter } from '../../http/sse.js';
import { randomToken } from '../../store/ids.js';
import { joinSystem, parametersOf, textOf, toolCallOf } from './content.js';

type Body = z.infer<typeof ResponsesRequest>;
type Item = Body['input'] extends string | (infer I)[] ? I : never;
const TEXT_TYPES = ['input_text', 'output_text', 'text'] as const;

const invalid = (message: string, param: string) =>
  new HttpError('invalid_parameter', message, { status: 400, extra: { param } });
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Responses -> gateway: instructions and system/developer items become the system text;
 * function_call items join the assistant turn before them as its tool calls, function_call_output
 * items become tool results.
 */
export function responsesToGateway(body: Body, scope: MeterScope): GenerateRequest {
  const system: Array<string | null | undefined> = [body.instructions];
  const messages: GatewayMessage[] = [];
  if (typeof body.input === 'string') messages.push({ role: 'user', content: body.input });
  else body.input.forEach((item, i) => inputItem(item, `input[${i}]`, system, messages));
  return {
    model: body.model,
    system: joinSystem(system),
    messages,
    maxTokens: body.max_output_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    tools: functionTools(body),
    toolChoice: toolChoice(body.tool_choice),
    parallelToolCalls: body.parallel_tool_calls ?? undefined,
    outputFormat: outputFormat(body),
    surface: 'responses',
    scope,
  };
}

function inputItem(
  item: Item,
  where: string,
  system: Array<string | null | undefined>,
  messages: GatewayMessage[],
): void {
  const it = item as Item & { call_id?: unknown; name?: unknown; arguments?: unknown; output?: unknown };
  if (it.type === 'function_call') {
    if (typeof it.call_id !== 'string' || typeof it.name !== 'string' || typeof it.arguments !== 'string') {
      throw invalid(`${where}: a function_call item needs call_id, name and arguments (strings)`, where);
    }
    const call = toolCallOf(it.call_id, it.name, it.arguments, where);
    const last = messages.at(-1);
    // Parallel calls arrive as consecutive items: one assistant turn holds them all.
    if (last?.role === 'assistant') last.toolCalls = [...(last.toolCalls ?? []), call];
    else messages.push({ role: 'assistant', content: '', toolCalls: [call] });
    return;
  }
  if (it.type === 'function_call_output') {
    if (typeof it.call_id !== 'string') throw invalid(`${where}: a function_call_output item needs call_id`, where);
    const output =
      typeof it.output === 'string' ? it.output : textOf((it.output ?? '') as never, `${where}.output`, TEXT_TYPES);
    messages.push({ role: 'tool', content: output, toolCallId: it.call_id });
    return;
  }
  if ((it.type && it.type !== 'message') || !it.role) {
    throw invalid(
      `${where}: only message, function_call and function_call_output items are supported, got ${it.type ?? 'an item without a role'}`,
      where,
    );
  }
  const text = textOf(it.content, `${where}.content`, TEXT_TYPES);
  if (it.role === 'system' || it.role === 'developer') system.push(text);
  else messages.push({ role: it.role, content: text });
}

function functionTools(body: Body): ToolDefinition[] | undefined {
  return body.tools?.map((t, i) => {
    const tool = t as { type: string; name?: unknown; description?: unknown; parameters?: unknown; strict?: unknown };
    if (tool.type !== 'function')
      throw invalid(`tools[${i}]: only function tools are supported, got ${tool.type}`, `tools[${i}].type`);
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name))
      throw invalid(
        `tools[${i}]: a function tool needs a name of letters, digits, _ and - (at most 64)`,
        `tools[${i}].name`,
      );
    if (
      tool.parameters !== undefined &&
      tool.parameters !== null &&
      (typeof tool.parameters !== 'object' || Array.isArray(tool.parameters))
    ) {
      throw invalid(`tools[${i}]: parameters must be a JSON Schema object`, `tools[${i}].parameters`);
    }
    return {
      name: tool.name,
      description: typeof tool.description === 'string' ? tool.description : undefined,
      parameters: parametersOf(tool.parameters as Record<string, unknown> | null | undefined),
      strict: typeof tool.strict === 'boolean' ? tool.strict : undefined,
    };
  });
}

function toolChoice(c: Body['tool_choice']): ToolChoice | undefined {
  if (c === undefined) return undefined;
  if (c === 'none' || c === 'auto' || c === 'required') return c;
  const o = c as { type?: unknown; name?: unknown };
  if (typeof c === 'object' && o.type === 'function' && typeof o.name === 'string') return { name: o.name };
  throw invalid(`tool_choice must be none, auto, required or {type: "function", name}`, 'tool_choice');
}

function outputFormat(body: Body): OutputFormat | undefined {
  const f = body.text?.format;
  if (!f || f.type === 'text') return undefined;
  if (f.type === 'json_object') return { type: 'json_object' };
  return {
    type: 'json_schema',
    name: f.name,
    description: f.description,
    schema: f.schema,
    strict: f.strict ?? undefined,
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

const callItemId = (s: Shell, index: number) => (s.callItemIds[index] ??= `fc_${randomToken(32)}`);

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

function messageItem(s: Shell, text: string, status: 'in_progress' | 'completed') {
  return {
    type: 'message' as const,
    id: s.messageId,
    status,
    role: 'assistant' as const,
    content: [{ type: 'output_text' as const, text, annotations: [] }],
  };
}

function callItem(s: Shell, index: number, c: ToolCall, status: 'in_progress' | 'completed') {
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

/**
 * The Responses event sequence: created, in_progress; a message item (its part, text deltas, done
 * events) opened by the first text; a function_call item per tool call (added, arguments deltas,
 * arguments done, item done), each item closed before the next opens; completed (or incomplete).
 */
export function responsesStreamWriter(body: Body, created: number, s: Shell = shell(body, created)): StreamWriter {
  let seq = 0;
  let text = '';
  let items = 0;
  const calls: ToolCall[] = [];
  let open: { kind: 'message'; index: number } | { kind: 'call'; index: number; call: number } | null = null;
  const ev = (type: string, data: Record<string, unknown>) => sseFrame({ type, sequence_number: seq++, ...data }, type);
  const close = () => {
    const o = open;
    if (!o) return '';
    open = null;
    if (o.kind === 'message') {
      const where = { item_id: s.messageId, output_index: o.index, content_index: 0 };
      return (
        ev('response.output_text.done', { ...where, text, logprobs: [] }) +
        ev('response.content_part.done', { ...where, part: { type: 'output_text', text, annotations: [] } }) +
        ev('response.output_item.done', { output_index: o.index, item: messageItem(s, text, 'completed') })
      );
    }
    const c = calls[o.call];
    return (
      ev('response.function_call_arguments.done', {
        item_id: callItemId(s, o.call),
        output_index: o.index,
        name: c.name,
        arguments: c.arguments,
      }) + ev('response.output_item.done', { output_index: o.index, item: callItem(s, o.call, c, 'completed') })
    );
  };
  const openMessage = () => {
    const head = close();
    const index = items++;
    open = { kind: 'message', index };
    return (
      head +
      ev('response.output_item.added', {
        output_index: index,
        item: { ...messageItem(s, '', 'in_progress'), content: [] },
      }) +
      ev('response.content_part.added', {
        item_id: s.messageId,
        output_index: index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      })
    );
  };
  const outputIndexOf = new Map<number, number>();
  return {
    start: () =>
      ev('response.created', { response: responseObject(s, null) }) +
      ev('response.in_progress', { response: responseObject(s, null) }),
    delta: (delta) => {
      const head = open?.kind === 'message' ? '' : openMessage();
      text += delta;
      return (
        head +
        ev('response.output_text.delta', {
          item_id: s.messageId,
          output_index: open!.index,
          content_index: 0,
          delta,
          logprobs: [],
        })
      );
    },
    toolCall: (index, callId, name) => {
      const head = close();
      calls[index] = { id: callId, name, arguments: '' };
      open = { kind: 'call', index: items++, call: index };
      outputIndexOf.set(index, open.index);
      return (
        head +
        ev('response.output_item.added', {
          output_index: open.index,
          item: callItem(s, index, calls[index], 'in_progress'),
        })
      );
    },
    toolArguments: (index, delta) => {
      calls[index].arguments += delta;
      return ev('response.function_call_arguments.delta', {
        item_id: callItemId(s, index),
        output_index: outputIndexOf.get(index) ?? 0,
        delta,
      });
    },
    done: (r) => {
      // A reply with no output at all still shows its (empty) message, as the plain answer does.
      const out = (items === 0 ? openMessage() : '') + close();
      const final = responseObject(s, r);
      return (
        out + ev(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final })
      );
    },
    error: (b) => {
      const e = (b as { error?: { message?: string; code?: string } }).error ?? {};
      const failed: Resp = {
        ...responseObject(s, null),
        status: 'failed',
        output_text: text,
        error: { code: e.code ?? 'server_error', message: e.message ?? 'failed' },
      };
      return (
        ev('error', { code: e.code ?? null, message: e.message ?? 'failed', param: null }) +
        ev('response.failed', { response: failed })
      );
    },
  };
}
