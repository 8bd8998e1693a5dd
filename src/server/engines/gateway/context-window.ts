import type { GenerateRequest } from '../gateway-types.js';
import { HttpError } from '../../errors.js';
import { countPromptTokens, promptTokensAtMost } from './tokenizer.js';

export interface ContextFit {
  /** The reply's token budget: the caller's max tokens, or the default cut to what the window leaves. */
  maxTokens: number;
  /** The prompt's exact count when it had to be counted (the gateway reuses it for metering). */
  promptTokens?: number;
}

/**
 * Checks a prompt against the model's context window before any other work. A sound upper bound
 * comes first (a token is at least one UTF-8 byte), so a prompt that fits by size is never counted
 * here; otherwise the exact count decides (off the event loop for large prompts, in time linear in
 * the prompt, whose size the body limit bounds).
 *
 * With max tokens from the caller, prompt + max tokens must fit. Without, the default budget shrinks
 * to what the prompt leaves, as the public APIs do, and only a prompt that leaves no room fails.
 */
export async function fitContext(
  model: { id: string; context_window: number },
  request: GenerateRequest,
  budget: { requested?: number; fallback: number },
): Promise<ContextFit> {
  const window = model.context_window;
  const wanted = budget.requested ?? budget.fallback;
  if (promptTokensAtMost(request) + wanted <= window) return { maxTokens: wanted };
  const promptTokens = await countPromptTokens(request);
  if (budget.requested === undefined && promptTokens < window)
    return { maxTokens: Math.min(budget.fallback, window - promptTokens), promptTokens };
  if (promptTokens + wanted <= window) return { maxTokens: wanted, promptTokens };
  throw contextLengthError(request.surface, window, promptTokens, budget.requested);
}

/**
 * The public APIs' own wording: clients (and people searching for the message) recognise it.
 * Chat Completions / Responses: code context_length_exceeded, param messages / input. Messages:
 * Anthropic's "prompt is too long" or, when max_tokens is what overflows, its "input length and
 * `max_tokens` exceed context limit".
 */
function contextLengthError(
  surface: GenerateRequest['surface'],
  window: number,
  prompt: number,
  requested?: number,
): HttpError {
  if (surface === 'messages') {
    const message =
      prompt >= window || requested === undefined
        ? `prompt is too long: ${prompt} tokens > ${window} maximum`
        : `input length and \`max_tokens\` exceed context limit: ${prompt} + ${requested} > ${window}, decrease input length or \`max_tokens\` and try again`;
    return new HttpError('context_length_exceeded', message, { status: 400 });
  }
  const message =
    requested === undefined
      ? `This model's maximum context length is ${window} tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`
      : `This model's maximum context length is ${window} tokens. However, you requested ${prompt + requested} tokens (${prompt} in the messages, ${requested} in the completion). Please reduce the length of the messages or completion.`;
  return new HttpError('context_length_exceeded', message, {
    status: 400,
    extra: { param: surface === 'responses' ? 'input' : 'messages' },
  });
}
