import type {
  GatewayStreamEvent,
  GatewayUsage,
  GenerateRequest,
  GenerateResult,
  ModelGateway,
  StopReason,
  ToolCall,
} from '../gateway-types.js';
import { HttpError } from '../../errors.js';
import { meter, type MeterContext } from '../../store/meter.js';
import { anthropicCompatible } from '../../providers/anthropic-compatible.js';
import { openAICompatible } from '../../providers/openai-compatible.js';
import { createUpstreamPool, type UpstreamConfig } from '../../providers/upstream-http.js';
import type { Backend, BackendCall, ReportedUsage } from './backend.js';
import type { ModelDirectory, ModelState } from './directory.js';
import { echoEngine, groundedEngine, type GroundingSource } from './local-engines.js';
import { agentEngine } from './agent-engine.js';
import { checkToolUse } from './tool-checks.js';
import { fitContext } from './context-window.js';
import { GatewayLimits, type GatewayLimitOptions } from './limits.js';
import { priceCall } from './pricing.js';
import { countPromptTokens, countReplyTokens } from './tokenizer.js';
import { fromUpstream } from './upstream-errors.js';
import { UpstreamError } from '../../providers/upstream-http.js';

/** The fields a backend did report: an explicit undefined must not hide the opening's count. */
function definedOnly(u: ReportedUsage): Partial<GatewayUsage> {
  return Object.fromEntries(Object.entries(u ?? {}).filter(([, v]) => v !== undefined));
}

export interface GatewayOptions {
  /** What metering needs: the store, the clock, and the metrics it counts usage in. */
  ctx: MeterContext;
  directory: ModelDirectory;
  upstreams: { openai?: UpstreamConfig; anthropic?: UpstreamConfig };
  limits?: GatewayLimitOptions;
  grounding?: GroundingSource;
  /** The model used when a feature names none. */
  defaultModel?: string;
}

/** Without max tokens from the caller, a reply may use up to this many (or the model's limit, if lower). */
const DEFAULT_MAX_TOKENS = 4096;

const KIND_ENDPOINT: Record<string, string> = {
  image_generation: '/api/v1/images/generations',
  video_generation: '/api/v1/videos/generations',
  decisions: '/api/v1/decisions',
};

/**
 * A model whose upstream is not configured. No retry can cure it, so it is a 4xx (SDKs retry 5xx
 * in vain, whatever x-should-retry says) that names the option configuring the upstream. Such
 * models stay in discovery: a user sees what the platform can run once configured.
 */
function notConfigured(model: ModelState): HttpError {
  const flag = model.api === 'openai' ? '--upstream-openai-base-url' : '--upstream-anthropic-base-url';
  const env = model.api === 'openai' ? 'FACET_UPSTREAM_OPENAI_BASE_URL' : 'FACET_UPSTREAM_ANTHROPIC_BASE_URL';
  return new HttpError(
    'upstream_not_configured',
    `Model ${model.id} is served by an ${model.api}-compatible upstream, and none is configured: start the platform with ${flag} URL (or ${env})`,
    {
      status: 400,
      headers: { 'x-should-retry': 'false' },
    },
  );
}

interface Prepared {
  model: ModelState;
  backend: Backend;
  call: BackendCall;
  release: () => void;
  /** Counted while fitting the context window, so metering does not count the prompt twice. */
  promptTokens?: number;
}

export interface PlatformGateway extends ModelGateway {
  /** Closes the upstream connection pool; in-flight calls finish first. */
  close(): Promise<void>;
}

export function createGateway(options: GatewayOptions): PlatformGateway {
  const limits = new GatewayLimits(options.limits);
  const locals: Record<string, Backend> = {
    echo: echoEngine(),
    grounded: groundedEngine(options.grounding),
    agent: agentEngine(),
  };
  const pool = createUpstreamPool();
  const upstream = {
    openai: options.upstreams.openai && openAICompatible({ ...options.upstreams.openai, pool }),
    anthropic: options.upstreams.anthropic && anthropicCompatible({ ...options.upstreams.anthropic, pool }),
  };
  const defaultModel = options.defaultModel ?? 'facet-grounded';

  function backendFor(model: ModelState): Backend {
    if (model.api === 'local') {
      const engine = locals[model.engine ?? ''];
      if (!engine) throw new HttpError('model_not_supported', `Model ${model.id} is not a chat model`, { status: 400 });
      return engine;
    }
    if (model.api === 'openai' || model.api === 'anthropic') {
      const backend = upstream[model.api];
      if (!backend) throw notConfigured(model);
      return backend;
    }
    throw new HttpError('model_not_available', `Model ${model.id} is planned and not yet available`, { status: 400 });
  }

  /** The checks every call passes before it takes a slot: model, kind, surface, limits, tools. */
  async function resolve(request: GenerateRequest): Promise<{ model: ModelState; backend: Backend }> {
    const id = request.model ?? defaultModel;
    const model = await options.directory.get(id);
    if (!model || !model.offered)
      throw new HttpError('model_not_found', `The model ${id} does not exist or is not available`, { status: 404 });
    if (model.model_kind !== 'chat') {
      throw new HttpError(
        'model_not_supported',
        `Model ${id} is a ${model.model_kind} model; use ${KIND_ENDPOINT[model.model_kind]}`,
        { status: 400 },
      );
    }
    if (request.surface && !model.surfaces.includes(request.surface)) {
      throw new HttpError(
        'model_not_supported',
        `Model ${id} is not available on the ${request.surface} surface; it supports ${model.surfaces.join(', ')}`,
        { status: 400 },
      );
    }
    const cap = model.max_output_tokens;
    if (request.maxTokens !== undefined && request.maxTokens > cap) {
      throw new HttpError(
        'invalid_parameter',
        `max tokens ${request.maxTokens} exceeds the output limit of ${id} (${cap})`,
        { status: 400, extra: { param: 'max_tokens' } },
      );
    }
    await checkToolUse(model, request);
    return { model, backend: backendFor(model) };
  }

  async function prepare(request: GenerateRequest): Promise<Prepared> {
    const { model, backend } = await resolve(request);
    const cap = model.max_output_tokens;
    // The slot is taken before the prompt is counted, so the concurrency limits bound counting too.
    const release = limits.acquire(request.scope.apiKeyId ?? `user:${request.scope.userId}`);
    let fit;
    try {
      fit = await fitContext(model, request, {
        requested: request.maxTokens,
        fallback: Math.min(cap, DEFAULT_MAX_TOKENS),
      });
    } catch (err) {
      release();
      throw err;
    }
    const { maxTokens, promptTokens } = fit;
    const call: BackendCall = {
      model: model.upstream_model ?? model.id,
      system: request.system,
      messages: request.messages,
      maxTokens,
      temperature: request.temperature,
      stop: request.stop,
      tools: request.tools?.length ? request.tools : undefined,
      toolChoice: request.toolChoice,
      parallelToolCalls: request.parallelToolCalls,
      outputFormat: request.outputFormat,
      context: request.context,
      question: request.question,
      artifact: request.artifact,
      scope: request.scope,
      signal: request.signal,
    };
    return { model, backend, call, release, promptTokens };
  }

  /** Fills what the backend did not report with the tokenizer's count. */
  async function completeUsage(
    reported: ReportedUsage,
    p: Prepared,
    request: GenerateRequest,
    text: string,
    toolCalls: ToolCall[],
  ): Promise<GatewayUsage> {
    const u = reported ?? {};
    return {
      inputTokens: u.inputTokens ?? p.promptTokens ?? (await countPromptTokens(request)),
      outputTokens: u.outputTokens ?? (await countReplyTokens(text, toolCalls)),
      cacheReadTokens: u.cacheReadTokens ?? 0,
      cacheWriteTokens: u.cacheWriteTokens ?? 0,
      webSearches: u.webSearches ?? 0,
    };
  }

  async function settle(
    p: Prepared,
    request: GenerateRequest,
    text: string,
    toolCalls: ToolCall[],
    stopReason: StopReason,
    reported: ReportedUsage,
  ): Promise<GenerateResult> {
    const usage = await completeUsage(reported, p, request, text, toolCalls);
    const costUsd = priceCall(p.model.pricing!, usage);
    await meter(options.ctx, {
      apiKeyId: request.scope.apiKeyId,
      userId: request.scope.userId,
      taskId: request.scope.taskId,
      model: p.model.id,
      operation: request.scope.operation,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheReadTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
      webSearches: usage.webSearches,
      costUsd,
    });
    return { model: p.model.id, provider: p.model.provider, text, toolCalls, stopReason, usage, costUsd };
  }

  return {
    close: () => pool.close(),

    async countInputTokens(request) {
      await resolve(request);
      return countPromptTokens(request);
    },

    async generate(request) {
      const p = await prepare(request);
      try {
        const out = await p.backend.generate(p.call).catch((e) => Promise.reject(fromUpstream(e)));
        return await settle(p, request, out.text, out.toolCalls ?? [], out.stopReason, out.usage);
      } finally {
        p.release();
      }
    },

    async *stream(request): AsyncGenerator<GatewayStreamEvent> {
      const p = await prepare(request);
      let text = '';
      const toolCalls: ToolCall[] = [];
      let settled = false;
      // The prompt's usage opens the stream: the upstream's own count when it sends one first, else,
      // for a surface that reports it at the start (Messages' message_start, which clients such as
      // LangChain read) on a local model, the tokenizer's count, which is then the final one too. An
      // upstream that counts only at the end (OpenAI's include_usage) is not guessed at: the start
      // carries no count and the end's is the only one sent. Other surfaces do not wait for a count.
      let opening: ReportedUsage = null;
      try {
        try {
          for await (const ev of p.backend.stream(p.call)) {
            if (!opening) {
              const reported = ev.type === 'start' ? (ev.usage ?? {}) : {};
              const inputTokens =
                reported.inputTokens ??
                (request.promptUsageFirst && p.model.api === 'local'
                  ? (p.promptTokens ?? (await countPromptTokens(request)))
                  : undefined);
              const usage = {
                inputTokens,
                cacheReadTokens: reported.cacheReadTokens ?? 0,
                cacheWriteTokens: reported.cacheWriteTokens ?? 0,
              };
              opening = definedOnly(usage);
              yield { type: 'start', usage };
            }
            if (ev.type === 'start') continue;
            if (ev.type === 'delta') {
              text += ev.text;
              yield ev;
            } else if (ev.type === 'tool_call') {
              toolCalls[ev.index] = { id: ev.id, name: ev.name, arguments: '' };
              yield ev;
            } else if (ev.type === 'tool_arguments') {
              const call = toolCalls[ev.index];
              if (!call)
                throw new UpstreamError(
                  502,
                  `the upstream streamed arguments of tool call ${ev.index} before the call`,
                  undefined,
                  true,
                );
              call.arguments += ev.delta;
              yield ev;
            } else {
              settled = true;
              yield {
                type: 'done',
                result: await settle(p, request, text, toolCalls.filter(Boolean), ev.stopReason, {
                  ...opening,
                  ...definedOnly(ev.usage),
                }),
              };
              return;
            }
          }
        } catch (err) {
          throw fromUpstream(err);
        }
      } finally {
        // A stream cut short (client gone, upstream failed) still pays for what was produced.
        if (!settled && (text !== '' || toolCalls.length > 0 || request.signal?.aborted))
          await settle(p, request, text, toolCalls.filter(Boolean), 'end', opening).catch(() => undefined);
        p.release();
      }
    },
  };
}
