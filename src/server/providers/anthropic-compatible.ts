import type { StopReason } from '../engines/gateway-types.js';
import type { Backend, BackendCall, BackendEvent, BackendResult, ReportedUsage } from '../engines/gateway/backend.js';
import { postUpstream, sseEvents, UpstreamError, type UpstreamConfig } from './upstream-http.js';

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

const API_VERSION = '2023-06-01';

function body(call: BackendCall, stream: boolean) {
  return {
    model: call.model,
    max_tokens: call.maxTokens,
    ...(call.system ? { system: call.system } : {}),
    messages: call.messages.map((m) => ({ role: m.role, content: m.content })),
    ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
    ...(call.stop?.length ? { stop_sequences: call.stop } : {}),
    ...(stream ? { stream: true } : {}),
  };
}

function stopReason(reason: string | null | undefined): StopReason {
  if (reason === 'max_tokens') return 'max_tokens';
  if (reason === 'stop_sequence') return 'stop_sequence';
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

export function anthropicCompatible(config: UpstreamConfig): Backend {
  return {
    async generate(call): Promise<BackendResult> {
      const res = await postUpstream(config, '/v1/messages', headers(config), body(call, false), call.signal);
      const json = (await res.body.json()) as { content?: Array<{ type: string; text?: string }>; stop_reason?: string; usage?: MessagesUsage };
      if (!Array.isArray(json.content)) throw new UpstreamError(502, 'the upstream answered without content', undefined, true);
      const text = json.content.filter((b) => b.type === 'text').map((b) => b.text ?? '').join('');
      return { text, stopReason: stopReason(json.stop_reason), usage: usageFromMessages(json.usage) };
    },

    async *stream(call): AsyncIterable<BackendEvent> {
      const res = await postUpstream(config, '/v1/messages', headers(config), body(call, true), call.signal);
      let reason: string | undefined;
      let usage: ReportedUsage = null;
      let stopped = false;
      for await (const ev of sseEvents(res.body, call.signal)) {
        const data = JSON.parse(ev.data) as {
          type: string;
          message?: { usage?: MessagesUsage };
          delta?: { type?: string; text?: string; stop_reason?: string };
          usage?: MessagesUsage;
          error?: { type?: string; message?: string };
        };
        switch (data.type) {
          case 'message_start':
            usage = usageFromMessages(data.message?.usage);
            yield { type: 'start', usage };
            break;
          case 'content_block_delta':
            if (data.delta?.type === 'text_delta' && data.delta.text) yield { type: 'delta', text: data.delta.text };
            break;
          case 'message_delta':
            // message_delta carries the final, cumulative counts; keep what message_start gave otherwise.
            reason = data.delta?.stop_reason ?? reason;
            usage = { ...(usage ?? {}), ...(usageFromMessages(data.usage) ?? {}) };
            break;
          case 'error':
            throw new UpstreamError(data.error?.type === 'overloaded_error' ? 529 : 502, data.error?.message ?? 'the upstream stream failed');
        }
        if (data.type === 'message_stop') {
          stopped = true;
          break;
        }
      }
      if (!stopped && !call.signal?.aborted) throw new UpstreamError(502, 'the upstream stream ended before message_stop', undefined, true);
      yield { type: 'end', stopReason: stopReason(reason), usage };
    },
  };
}
