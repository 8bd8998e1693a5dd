import { randomUUID } from 'node:crypto';
import type { GatewayMessage, StopReason, ToolCall, ToolChoice } from '../engines/gateway-types.js';
import type { Backend, BackendCall, BackendEvent, BackendResult, ReportedUsage } from '../engines/gateway/backend.js';
import { postUpstream, postUpstreamJson, sseEvents, UpstreamError, type UpstreamConfig } from './upstream-http.js';

/**
 * Any server speaking the Chat Completions wire format: OpenAI, Ollama, llama.cpp, vLLM. The base
 * URL includes the version segment (for example http://127.0.0.1:11434/v1).
 */
interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

interface WireToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

function wireMessage(m: GatewayMessage) {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  if (m.role === 'assistant' && m.toolCalls?.length) {
    return {
      role: 'assistant',
      content: m.content === '' ? null : m.content,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  }
  return { role: m.role, content: m.content };
}

function wireToolChoice(c: ToolChoice | undefined) {
  if (c === undefined) return undefined;
  return typeof c === 'string' ? c : { type: 'function', function: { name: c.name } };
}

function body(call: BackendCall, stream: boolean) {
  const messages = [
    ...(call.system ? [{ role: 'system', content: call.system }] : []),
    ...call.messages.map(wireMessage),
  ];
  const f = call.outputFormat;
  return {
    model: call.model,
    messages,
    max_tokens: call.maxTokens,
    ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
    ...(call.stop?.length ? { stop: call.stop } : {}),
    ...(call.tools?.length
      ? {
          tools: call.tools.map((t) => ({
            type: 'function',
            function: {
              name: t.name,
              ...(t.description !== undefined ? { description: t.description } : {}),
              parameters: t.parameters,
              ...(t.strict !== undefined ? { strict: t.strict } : {}),
            },
          })),
          ...(call.toolChoice !== undefined ? { tool_choice: wireToolChoice(call.toolChoice) } : {}),
          ...(call.parallelToolCalls !== undefined ? { parallel_tool_calls: call.parallelToolCalls } : {}),
        }
      : {}),
    ...(f?.type === 'json_object' ? { response_format: { type: 'json_object' } } : {}),
    ...(f?.type === 'json_schema'
      ? {
          response_format: {
            type: 'json_schema',
            json_schema: {
              name: f.name,
              schema: f.schema,
              ...(f.strict !== undefined ? { strict: f.strict } : {}),
              ...(f.description ? { description: f.description } : {}),
            },
          },
        }
      : {}),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

/** Some servers (Ollama among them) finish a tool-calling turn with `stop`: the calls say why it ended. */
function stopReason(finish: string | null | undefined, calledTools: boolean): StopReason {
  if (finish === 'length') return 'max_tokens';
  if (finish === 'tool_calls' || finish === 'function_call' || calledTools) return 'tool_use';
  return 'end';
}

/** prompt_tokens includes cached ones; the gateway keeps uncached input and cache reads apart. */
export function usageFromChat(u: ChatUsage | undefined | null): ReportedUsage {
  if (!u || typeof u.prompt_tokens !== 'number') return null;
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return { inputTokens: u.prompt_tokens - cached, cacheReadTokens: cached, outputTokens: u.completion_tokens };
}

function headers(config: UpstreamConfig): Record<string, string> {
  return config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {};
}

/** A server that gives a call no id still gets one, so its result can be matched to it. */
const newCallId = () => `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;

/**
 * Reassembles streamed tool_calls deltas into gateway tool call events. A call is keyed by the wire
 * `index`; it opens once its name is known (servers send id and name first, but some send the name
 * late), and arguments that came before are held and then sent. Calls are numbered in order of
 * appearance.
 */
class ToolCallAssembler {
  private byWire = new Map<number, { index: number; id?: string; name?: string; opened: boolean; held: string }>();
  private count = 0;

  *take(deltas: WireToolCall[]): Iterable<BackendEvent> {
    for (const [pos, d] of deltas.entries()) {
      const key = d.index ?? pos;
      let c = this.byWire.get(key);
      if (!c) {
        c = { index: this.count++, opened: false, held: '' };
        this.byWire.set(key, c);
      }
      if (d.id) c.id ??= d.id;
      // Some servers repeat the name in every delta: the first one names the call.
      if (d.function?.name && !c.opened) c.name = d.function.name;
      const args = d.function?.arguments ?? '';
      if (!c.opened && c.name) {
        c.opened = true;
        yield { type: 'tool_call', index: c.index, id: c.id ?? newCallId(), name: c.name };
        if (c.held) yield { type: 'tool_arguments', index: c.index, delta: c.held };
        c.held = '';
      }
      if (args) {
        if (c.opened) yield { type: 'tool_arguments', index: c.index, delta: args };
        else c.held += args;
      }
    }
  }

  /** Opens the calls that never got a name, so nothing the upstream sent is lost. */
  *flush(): Iterable<BackendEvent> {
    for (const c of this.byWire.values()) {
      if (c.opened) continue;
      c.opened = true;
      yield { type: 'tool_call', index: c.index, id: c.id ?? newCallId(), name: c.name ?? '' };
      if (c.held) yield { type: 'tool_arguments', index: c.index, delta: c.held };
    }
  }

  get any(): boolean {
    return this.count > 0;
  }
}

export function openAICompatible(config: UpstreamConfig): Backend {
  return {
    async generate(call): Promise<BackendResult> {
      const json = (await postUpstreamJson(
        config,
        '/chat/completions',
        headers(config),
        body(call, false),
        call.signal,
      )) as {
        choices?: Array<{
          message?: { content?: string | null; tool_calls?: WireToolCall[] | null };
          finish_reason?: string;
        }>;
        usage?: ChatUsage;
      };
      const choice = json.choices?.[0];
      if (!choice) throw new UpstreamError(502, 'the upstream answered without choices', undefined, true);
      const toolCalls: ToolCall[] = (choice.message?.tool_calls ?? []).map((c) => ({
        id: c.id ?? newCallId(),
        name: c.function?.name ?? '',
        arguments: c.function?.arguments ?? '',
      }));
      return {
        text: choice.message?.content ?? '',
        toolCalls,
        stopReason: stopReason(choice.finish_reason, toolCalls.length > 0),
        usage: usageFromChat(json.usage),
      };
    },

    async *stream(call): AsyncIterable<BackendEvent> {
      const res = await postUpstream(config, '/chat/completions', headers(config), body(call, true), call.signal);
      let finish: string | undefined;
      let usage: ReportedUsage = null;
      const tools = new ToolCallAssembler();
      for await (const ev of sseEvents(res.body, call.signal)) {
        if (ev.data === '[DONE]') break;
        const chunk = JSON.parse(ev.data) as {
          choices?: Array<{
            delta?: { content?: string | null; tool_calls?: WireToolCall[] | null };
            finish_reason?: string | null;
          }>;
          usage?: ChatUsage | null;
          error?: { message?: string };
        };
        if (chunk.error) throw new UpstreamError(502, chunk.error.message ?? 'the upstream stream failed');
        const choice = chunk.choices?.[0];
        if (choice?.delta?.content) yield { type: 'delta', text: choice.delta.content };
        if (choice?.delta?.tool_calls?.length) yield* tools.take(choice.delta.tool_calls);
        if (choice?.finish_reason) finish = choice.finish_reason;
        if (chunk.usage) usage = usageFromChat(chunk.usage);
      }
      // A stream that ends without saying why it finished was cut, not completed.
      if (!finish && !call.signal?.aborted)
        throw new UpstreamError(502, 'the upstream stream ended before the reply was finished', undefined, true);
      yield* tools.flush();
      yield { type: 'end', stopReason: stopReason(finish, tools.any), usage };
    },
  };
}
