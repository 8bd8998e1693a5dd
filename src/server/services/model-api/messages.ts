import type { z } from 'zod';
import type { MessageObject, MessagesRequest } from '../../../contract/model-api-messages.js';
import type {
  GatewayMessage,
  GenerateRequest,
  GenerateResult,
  MeterScope,
  StopReason,
  ToolCall,
  ToolChoice,
} from '../../engines/gateway-types.js';
import { HttpError } from '../../errors.js';
import { sseFrame, type StreamWriter } from '../../http/sse.js';
import { randomToken } from '../../store/ids.js';
import { parametersOf, textOf, toolCallOf, toolOutputText } from './content.js';
import { messagesOutputFormat } from './messages-format.js';

type Body = z.infer<typeof MessagesRequest>;
type Block = {
  type: string;
  text?: string;
  id?: unknown;
  name?: unknown;
  input?: unknown;
  tool_use_id?: unknown;
  content?: unknown;
  is_error?: unknown;
};

const invalid = (message: string, param: string) =>
  new HttpError('invalid_parameter', message, { status: 400, extra: { param } });

/**
 * Messages -> gateway. A user turn's tool_result blocks become tool results (before its text, as the
 * family orders them); an assistant turn's tool_use blocks become its tool calls (after its text).
 */
export function messagesToGateway(
  body: Pick<Body, 'model' | 'messages' | 'system' | 'tools' | 'tool_choice'> & Partial<Body>,
  scope: MeterScope,
): GenerateRequest {
  const messages: GatewayMessage[] = [];
  body.messages.forEach((m, i) => messages.push(...turn(m.role, m.content, `messages[${i}].content`)));
  const choice = body.tool_choice;
  return {
    model: body.model,
    system: body.system === undefined ? undefined : textOf(body.system, 'system', ['text']) || undefined,
    messages,
    maxTokens: body.max_tokens,
    temperature: body.temperature,
    stop: body.stop_sequences,
    tools: body.tools?.map((t, i) => {
      if (!t.input_schema)
        throw invalid(
          `tools[${i}]: only client tools with an input_schema are supported${t.type ? `, got the server tool ${t.type}` : ''}`,
          `tools[${i}]`,
        );
      return { name: t.name, description: t.description, parameters: parametersOf(t.input_schema) };
    }),
    toolChoice: toolChoice(choice),
    parallelToolCalls: choice?.disable_parallel_tool_use ? false : undefined,
    outputFormat: messagesOutputFormat(body),
    surface: 'messages',
    scope,
    // message_start reports the prompt's input tokens, as Anthropic's API does, where they are known
    // before the answer (a local model, an Anthropic upstream); else 0 there and the count in message_delta.
    promptUsageFirst: true,
  };
}

function toolChoice(c: Body['tool_choice']): ToolChoice | undefined {
  if (!c) return undefined;
  if (c.type === 'tool') {
    if (!c.name) throw invalid('tool_choice of type tool needs a name', 'tool_choice.name');
    return { name: c.name };
  }
  return c.type === 'any' ? 'required' : c.type;
}

function turn(role: 'user' | 'assistant', content: string | Block[], where: string): GatewayMessage[] {
  if (typeof content === 'string') return [{ role, content }];
  const texts: Block[] = [];
  const calls: ToolCall[] = [];
  const results: GatewayMessage[] = [];
  // A thinking block sent back with its turn (as the SDKs do) is not part of the conversation's text.
  content.forEach((b, i) => {
    const at = `${where}[${i}]`;
    if (b.type === 'tool_use' && role === 'assistant') {
      if (typeof b.id !== 'string' || typeof b.name !== 'string')
        throw invalid(`${at}: a tool_use block needs an id and a name`, at);
      calls.push(toolCallOf(b.id, b.name, JSON.stringify(b.input ?? {}), at));
    } else if (b.type === 'tool_result' && role === 'user') {
      if (typeof b.tool_use_id !== 'string') throw invalid(`${at}: a tool_result block needs tool_use_id`, at);
      const text = toolOutputText(b.content, `${at}.content`, ['text']);
      results.push({
        role: 'tool',
        content: text,
        toolCallId: b.tool_use_id,
        ...(b.is_error === true ? { isError: true } : {}),
      });
    } else if (b.type !== 'thinking' && b.type !== 'redacted_thinking') texts.push(b);
  });
  const text = texts.length ? textOf(texts, where, ['text']) : '';
  if (role === 'assistant') return [{ role, content: text, ...(calls.length ? { toolCalls: calls } : {}) }];
  return [...results, ...(text !== '' || results.length === 0 ? [{ role, content: text }] : [])];
}

export function stopReason(s: StopReason): 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' {
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

/** A call's arguments as the object tool_use carries; text that is no JSON object (a cut reply) gives {}. */
export function inputOf(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function messageFor(body: Body, r: GenerateResult): z.infer<typeof MessageObject> {
  const calls = r.toolCalls ?? [];
  // No empty text block before tool_use blocks: a turn that only calls tools has none.
  const text = r.text !== '' || calls.length === 0 ? [{ type: 'text' as const, text: r.text }] : [];
  return {
    id: `msg_${randomToken(24)}`,
    type: 'message',
    role: 'assistant',
    model: r.model,
    content: [
      ...text,
      ...calls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: inputOf(c.arguments) })),
    ],
    stop_reason: stopReason(r.stopReason),
    stop_sequence: stopSequence(r, body),
    usage: messagesUsage(r),
  };
}

/**
 * message_start (with the prompt's input tokens where known first, as Anthropic's API sends them; else 0), ping, then
 * the content blocks as they come — a text block opened by the first text, a tool_use block per tool
 * call with its arguments as input_json_delta pieces — each closed before the next opens,
 * message_delta with the final usage (input tokens included), message_stop.
 */
export function messagesStreamWriter(body: Body, opts: { id?: string; firstBlock?: number } = {}): StreamWriter {
  const id = opts.id ?? `msg_${randomToken(24)}`;
  const ev = (type: string, data: Record<string, unknown>) => sseFrame({ type, ...data }, type);
  // A thinking block the caller writes first (messages-extras.ts) takes the first index.
  let blocks = opts.firstBlock ?? 0;
  let open: { index: number; kind: 'text' | 'tool' } | null = null;
  const toolBlock = new Map<number, number>();
  const close = () => {
    if (!open) return '';
    const out = ev('content_block_stop', { index: open.index });
    open = null;
    return out;
  };
  const openBlock = (kind: 'text' | 'tool', block: Record<string, unknown>) => {
    const out = close();
    open = { index: blocks++, kind };
    return out + ev('content_block_start', { index: open.index, content_block: block });
  };
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
          usage: {
            input_tokens: opening.inputTokens ?? 0,
            output_tokens: 0,
            cache_read_input_tokens: opening.cacheReadTokens,
            cache_creation_input_tokens: opening.cacheWriteTokens,
          },
        },
      }) + ev('ping', {}),
    delta: (text) => {
      const head = open?.kind === 'text' ? '' : openBlock('text', { type: 'text', text: '' });
      return head + ev('content_block_delta', { index: open!.index, delta: { type: 'text_delta', text } });
    },
    toolCall: (index, callId, name) => {
      const out = openBlock('tool', { type: 'tool_use', id: callId, name, input: {} });
      toolBlock.set(index, open!.index);
      return out;
    },
    toolArguments: (index, partial) =>
      ev('content_block_delta', {
        index: toolBlock.get(index) ?? open?.index ?? 0,
        delta: { type: 'input_json_delta', partial_json: partial },
      }),
    done: (r) =>
      (blocks === 0 ? openBlock('text', { type: 'text', text: '' }) : '') +
      close() +
      ev('message_delta', {
        delta: { stop_reason: stopReason(r.stopReason), stop_sequence: stopSequence(r, body) },
        usage: messagesUsage(r),
      }) +
      ev('message_stop', {}),
    error: (b) => sseFrame(b, 'error'),
  };
}
