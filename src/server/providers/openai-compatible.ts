import type { StopReason } from '../engines/gateway-types.js';
import type { Backend, BackendCall, BackendEvent, BackendResult, ReportedUsage } from '../engines/gateway/backend.js';
import { postUpstream, sseEvents, UpstreamError, type UpstreamConfig } from './upstream-http.js';

/**
 * Any server speaking the Chat Completions wire format: OpenAI, Ollama, llama.cpp, vLLM. The base
 * URL includes the version segment (for example http://127.0.0.1:11434/v1).
 */
interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

function body(call: BackendCall, stream: boolean) {
  const messages = [...(call.system ? [{ role: 'system', content: call.system }] : []), ...call.messages];
  return {
    model: call.model,
    messages,
    max_tokens: call.maxTokens,
    ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
    ...(call.stop?.length ? { stop: call.stop } : {}),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

function stopReason(finish: string | null | undefined): StopReason {
  return finish === 'length' ? 'max_tokens' : 'end';
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

export function openAICompatible(config: UpstreamConfig): Backend {
  return {
    async generate(call): Promise<BackendResult> {
      const res = await postUpstream(config, '/chat/completions', headers(config), body(call, false), call.signal);
      const json = (await res.body.json()) as { choices?: Array<{ message?: { content?: string | null }; finish_reason?: string }>; usage?: ChatUsage };
      const choice = json.choices?.[0];
      if (!choice) throw new UpstreamError(502, 'the upstream answered without choices', undefined, true);
      return { text: choice.message?.content ?? '', stopReason: stopReason(choice.finish_reason), usage: usageFromChat(json.usage) };
    },

    async *stream(call): AsyncIterable<BackendEvent> {
      const res = await postUpstream(config, '/chat/completions', headers(config), body(call, true), call.signal);
      let finish: string | undefined;
      let usage: ReportedUsage = null;
      for await (const ev of sseEvents(res.body, call.signal)) {
        if (ev.data === '[DONE]') break;
        const chunk = JSON.parse(ev.data) as {
          choices?: Array<{ delta?: { content?: string | null }; finish_reason?: string | null }>;
          usage?: ChatUsage | null;
          error?: { message?: string };
        };
        if (chunk.error) throw new UpstreamError(502, chunk.error.message ?? 'the upstream stream failed');
        const choice = chunk.choices?.[0];
        if (choice?.delta?.content) yield { type: 'delta', text: choice.delta.content };
        if (choice?.finish_reason) finish = choice.finish_reason;
        if (chunk.usage) usage = usageFromChat(chunk.usage);
      }
      // A stream that ends without saying why it finished was cut, not completed.
      if (!finish && !call.signal?.aborted) throw new UpstreamError(502, 'the upstream stream ended before the reply was finished', undefined, true);
      yield { type: 'end', stopReason: stopReason(finish), usage };
    },
  };
}
