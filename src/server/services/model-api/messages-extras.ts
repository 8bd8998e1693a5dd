import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { MessageObject, MessagesRequest } from '../../../contract/model-api-messages.js';
import type { GatewayStreamEvent, GenerateRequest, GenerateResult } from '../../engines/gateway-types.js';
import { takesThinking } from '../../engines/gateway/catalog.js';
import type { ModelDirectory } from '../../engines/gateway/directory.js';
import { countTokens } from '../../engines/gateway/tokenizer.js';
import { HttpError } from '../../errors.js';
import { sseFrame } from '../../http/sse.js';

type Body = z.infer<typeof MessagesRequest>;
type Message = z.infer<typeof MessageObject>;
export interface Thinking {
  thinking: string;
  signature: string;
  tokens: number;
}

/**
 * Messages' `thinking` and assistant prefill, around the gateway call. Thinking: a model whose
 * catalog entry says `thinking` (facet-agent) writes a deterministic thinking block, a pure function
 * of the request, signed with its SHA-256 and counted in output_tokens; any other model refuses it
 * with a 400. Prefill: a conversation ending in an assistant text turn is answered without that turn
 * and the reply continues from it (the part of the answer after the prefill when the answer starts
 * with it); Anthropic-compatible upstreams take the prefill themselves.
 */
export interface MessagesPlan {
  thinking: Thinking | null;
  prefill: string | null;
}

export async function planMessages(directory: ModelDirectory, body: Body, req: GenerateRequest): Promise<MessagesPlan> {
  const model = await directory.get(body.model);
  let thinking: Thinking | null = null;
  const asked = body.thinking && body.thinking.type !== 'disabled' ? body.thinking : null;
  if (asked && model) {
    if (!takesThinking(model)) {
      throw new HttpError(
        'thinking_not_supported',
        `Model ${body.model} does not support thinking; leave thinking out, or use a model whose capabilities list thinking (facet-agent)`,
        {
          status: 400,
          extra: { param: 'thinking' },
        },
      );
    }
    if (asked.type === 'enabled' && asked.budget_tokens >= body.max_tokens) {
      throw new HttpError('invalid_parameter', '`max_tokens` must be greater than `thinking.budget_tokens`', {
        status: 400,
        extra: { param: 'thinking.budget_tokens' },
      });
    }
    thinking = await thinkingOf(req);
  }
  let prefill: string | null = null;
  const last = req.messages.at(-1);
  if (last?.role === 'assistant' && !last.toolCalls?.length && model?.api !== 'anthropic') {
    req.messages.pop();
    prefill = last.content;
  }
  return { thinking, prefill };
}

async function thinkingOf(req: GenerateRequest): Promise<Thinking> {
  const user = [...req.messages].reverse().find((m) => m.role === 'user' || m.role === 'tool');
  const asked =
    user?.role === 'tool'
      ? 'The tool results are in; I answer from them.'
      : `The user writes: "${(user?.content ?? '').slice(0, 200)}".`;
  const tools = req.tools?.length ? ` Tools on offer: ${req.tools.map((t) => t.name).join(', ')}.` : '';
  const thinking = `${asked}${tools} I decide what to do by facet-agent's documented rules.`;
  const signature = createHash('sha256').update(`facet-thinking\n${thinking}`).digest('base64');
  return { thinking, signature, tokens: await countTokens(thinking) };
}

/** The reply after the prefill: what follows it when the answer repeats it, else the whole answer. */
function afterPrefill(text: string, prefill: string): string {
  return text.startsWith(prefill) ? text.slice(prefill.length) : text;
}

/** The result as the caller sees it: the prefill taken off, the thinking tokens counted. */
export function adjustResult(plan: MessagesPlan, r: GenerateResult): GenerateResult {
  const text = plan.prefill === null ? r.text : afterPrefill(r.text, plan.prefill);
  const usage = plan.thinking ? { ...r.usage, outputTokens: r.usage.outputTokens + plan.thinking.tokens } : r.usage;
  return { ...r, text, usage };
}

export function withThinking(plan: MessagesPlan, m: Message): Message {
  if (!plan.thinking) return m;
  return {
    ...m,
    content: [{ type: 'thinking', thinking: plan.thinking.thinking, signature: plan.thinking.signature }, ...m.content],
  };
}

/** The thinking block's events, written right after message_start (index 0). */
export function thinkingFrames(t: Thinking): string {
  const ev = (type: string, data: Record<string, unknown>) => sseFrame({ type, ...data }, type);
  return (
    ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }) +
    ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: t.thinking } }) +
    ev('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: t.signature } }) +
    ev('content_block_stop', { index: 0 })
  );
}

/**
 * The gateway's stream as the caller sees it: text held back while it may still be the prefill
 * repeated, the done result adjusted, and `beforeDone` (storing a thread) run before the done event.
 */
export async function* adjustStream(
  plan: MessagesPlan,
  events: AsyncIterable<GatewayStreamEvent>,
  beforeDone: (r: GenerateResult) => Promise<void> = async () => undefined,
): AsyncIterable<GatewayStreamEvent> {
  let held = '';
  let passing = plan.prefill === null || plan.prefill === '';
  for await (const ev of events) {
    if (ev.type === 'delta' && !passing) {
      held += ev.text;
      const p = plan.prefill!;
      if (p.startsWith(held)) continue;
      passing = true;
      const rest = afterPrefill(held, p);
      if (rest !== '') yield { type: 'delta', text: rest };
      continue;
    }
    if (ev.type === 'done') {
      const rest = passing ? '' : afterPrefill(held, plan.prefill!);
      if (rest !== '') yield { type: 'delta', text: rest };
      const result = adjustResult(plan, ev.result);
      await beforeDone(result);
      yield { type: 'done', result };
      continue;
    }
    yield ev;
  }
}
