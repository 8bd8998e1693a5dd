import type { GatewayMessage, StopReason, ToolCall, ToolChoice } from '../engines/gateway-types.js';
import type { Backend, BackendCall, BackendEvent, BackendResult, ReportedUsage } from '../engines/gateway/backend.js';
import { postUpstream, postUpstreamJson, sseEvents, UpstreamError, type UpstreamConfig } from './upstream-http.js';

/**
 * Any server speaking the Messages wire format. The base URL excludes the version segment, as the
 * official clients expect (for example https://api.example.com; requests go to /v1/messages).
 */
interface MessagesUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  server_tool_use?: { web_search_requests?: number } | null;
}

type WireBlock = Record<string, unknown> & { type: string };

const API_VERSION = '2023-06-01';

/** A call's JSON arguments as the object tool_use carries (the surfaces checked they are one). */
function inputOf(args: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(args === '' ? '{}' : args);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function blocksOf(m: GatewayMessage): WireBlock[] {
  if (m.role === 'tool')
    return [
      { type: 'tool_result', tool_use_id: m.toolCallId, content: m.content, ...(m.isError ? { is_error: true } : {}) },
    ];
  const text: WireBlock[] = m.content !== '' ? [{ type: 'text', text: m.content }] : [];
  return [
    ...text,
    ...(m.toolCalls ?? []).map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: inputOf(c.arguments) })),
  ];
}

/**
 * Gateway messages -> Messages turns. Tool results ride in a user turn (the family has no tool
 * role), and consecutive turns of one role merge, since the family alternates user and assistant.
 * A turn that is one text keeps the plain string form.
 */
export function wireMessages(messages: GatewayMessage[]) {
  const turns: Array<{ role: 'user' | 'assistant'; content: WireBlock[] }> = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(m);
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks.length ? blocks : [{ type: 'text', text: '' }] });
  }
  return turns.map((t) => ({
    role: t.role,
    content: t.content.length === 1 && t.content[0].type === 'text' ? (t.content[0].text as string) : t.content,
  }));
}

function wireToolChoice(c: ToolChoice | undefined, parallel: boolean | undefined) {
  const base =
    c === undefined
      ? parallel === false
        ? { type: 'auto' }
        : undefined
      : typeof c === 'object'
        ? { type: 'tool', name: c.name }
        : { type: c === 'required' ? 'any' : c };
  return base && parallel === false && base.type !== 'none' ? { ...base, disable_parallel_tool_use: true } : base;
}

function body(call: BackendCall, stream: boolean) {
  const choice = call.tools?.length ? wireToolChoice(call.toolChoice, call.parallelToolCalls) : undefined;
  return {
    model: call.model,
    max_tokens: call.maxTokens,
    ...(call.system ? { system: call.system } : {}),
    messages: wireMessages(call.messages),
    ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
    ...(call.stop?.length ? { stop_sequences: call.stop } : {}),
    ...(call.tools?.length
      ? {
          tools: call.tools.map((t) => ({
            name: t.name,
            ...(t.description !== undefined ? { description: t.description } : {}),
            input_schema: t.parameters,
          })),
        }
      : {}),
    ...(choice ? { tool_choice: choice } : {}),
    // Only a catalog entry that says the upstream has structured outputs lets a format through.
    ...(call.outputFormat?.type === 'json_schema'
      ? { output_format: { type: 'json_schema', schema: call.outputFormat.schema } }
      : {}),
    ...(stream ? { stream: true } : {}),
  };
}

function stopReason(reason: string | null | undefined): StopReason {
  if (reason === 'max_tokens') return 'max_tokens';
  if (reason === 'stop_sequence') return 'stop_sequence';
  if (reason === 'tool_use') return 'tool_use';
  return 'end';
}

/** input_tokens excludes cache reads and writes, as the gateway's own usage does. */
export function usageFromMessages(u: MessagesUsage | undefined | null): ReportedUsage {
  if (!u) return null;
  const usage: ReportedUsage = {};
  if (typeof u.input_tokens === 'number') usage.inputTokens = u.input_tokens;
  if (typeof u.output_tokens === 'number') usage.outputTokens = u.output_tokens;
  if (u.cache_read_input_tokens) usage.cacheReadTokens = u.cache_read_input_tokens;
  if (u.cache_creation_input_tokens) usage.cacheWriteTokens = u.cache_creation_input_tokens;
  if (u.server_tool_use?.web_search_requests) usage.webSearches = u.server_tool_use.web_search_requests;
  return usage;
}

function headers(config: UpstreamConfig): Record<string, string> {
  return { 'anthropic-version': API_VERSION, ...(config.apiKey ? { 'x-api-key': config.apiKey } : {}) };
}

const isObjectWithKeys = (v: unknown) => typeof v === 'object' && v !== null && Object.keys(v).length > 0;

export function anthropicCompatible(config: UpstreamConfig): Backend {
  return {
    async generate(call): Promise<BackendResult> {
      const json = (await postUpstreamJson(
        config,
        '/v1/messages',
        headers(config),
        body(call, false),
        call.signal,
      )) as {
        content?: Array<{ type: string; text?: string; id?: string; name?: string; input?: unknown }>;
        stop_reason?: string;
        usage?: MessagesUsage;
      };
      if (!Array.isArray(json.content))
        throw new UpstreamError(502, 'the upstream answered without content', undefined, true);
      const text = json.content
        .filter((b) => b.type === 'text')
        .map((b) => b.text ?? '')
        .join('');
      const toolCalls: ToolCall[] = json.content
        .filter((b) => b.type === 'tool_use')
        .map((b) => ({ id: b.id ?? '', name: b.name ?? '', arguments: JSON.stringify(b.input ?? {}) }));
      return { text, toolCalls, stopReason: stopReason(json.stop_reason), usage: usageFromMessages(json.usage) };
    },

    async *stream(call): AsyncIterable<BackendEvent> {
      const res = await postUpstream(config, '/v1/messages', headers(config), body(call, true), call.signal);
      let reason: string | undefined;
      let usage: ReportedUsage = null;
      let stopped = false;
      // Content block index -> tool call number, and whether the call's arguments have come yet.
      const tools = new Map<number, { index: number; args: boolean }>();
      for await (const ev of sseEvents(res.body, call.signal)) {
        const data = JSON.parse(ev.data) as {
          type: string;
          index?: number;
          message?: { usage?: MessagesUsage };
          content_block?: { type?: string; id?: string; name?: string; input?: unknown };
          delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string };
          usage?: MessagesUsage;
          error?: { type?: string; message?: string };
        };
        switch (data.type) {
          case 'message_start':
            usage = usageFromMessages(data.message?.usage);
            yield { type: 'start', usage };
            break;
          case 'content_block_start':
            if (data.content_block?.type === 'tool_use') {
              const t = { index: tools.size, args: false };
              tools.set(data.index ?? -1, t);
              yield {
                type: 'tool_call',
                index: t.index,
                id: data.content_block.id ?? '',
                name: data.content_block.name ?? '',
              };
              // A server that gives the whole input at the start (no deltas) still passes it on.
              if (isObjectWithKeys(data.content_block.input)) {
                t.args = true;
                yield { type: 'tool_arguments', index: t.index, delta: JSON.stringify(data.content_block.input) };
              }
            }
            break;
          case 'content_block_delta':
            if (data.delta?.type === 'text_delta' && data.delta.text) yield { type: 'delta', text: data.delta.text };
            else if (data.delta?.type === 'input_json_delta' && data.delta.partial_json) {
              const t = tools.get(data.index ?? -1);
              if (!t)
                throw new UpstreamError(
                  502,
                  'the upstream streamed tool input outside a tool_use block',
                  undefined,
                  true,
                );
              t.args = true;
              yield { type: 'tool_arguments', index: t.index, delta: data.delta.partial_json };
            }
            break;
          case 'content_block_stop': {
            // A tool called without arguments streams no delta: its arguments are the empty object.
            const t = tools.get(data.index ?? -1);
            if (t && !t.args) {
              t.args = true;
              yield { type: 'tool_arguments', index: t.index, delta: '{}' };
            }
            break;
          }
          case 'message_delta':
            // message_delta carries the final, cumulative counts; keep what message_start gave otherwise.
            reason = data.delta?.stop_reason ?? reason;
            usage = { ...(usage ?? {}), ...(usageFromMessages(data.usage) ?? {}) };
            break;
          case 'error':
            throw new UpstreamError(
              data.error?.type === 'overloaded_error' ? 529 : 502,
              data.error?.message ?? 'the upstream stream failed',
            );
        }
        if (data.type === 'message_stop') {
          stopped = true;
          break;
        }
      }
      if (!stopped && !call.signal?.aborted)
        throw new UpstreamError(502, 'the upstream stream ended before message_stop', undefined, true);
      yield { type: 'end', stopReason: stopReason(reason), usage };
    },
  };
}
