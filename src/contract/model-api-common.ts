import { z } from 'zod';
import { AnthropicErrorBody, OpenAIErrorBody } from './errors.js';

/**
 * What the model-calling families share: the model id, the item limits and the length-first array
 * schemas that enforce them, tool names and schemas, and each family's common error responses.
 */

export const ModelId = z.string().min(1).max(200);

/**
 * How many items one request may carry, generous for real clients: checked before the items are
 * validated, so a body of hundreds of thousands of messages or blocks is refused at once instead of
 * being walked (and later counted) item by item on the event loop. Past a bound: 400 in the family's shape.
 */
export const MODEL_API_LIMITS = {
  /** messages (Chat Completions, Messages) or input items (Responses) */
  messages: 10_000,
  /** content blocks (parts) of one message */
  blocksPerMessage: 1_000,
  /** content blocks of all messages together */
  blocks: 20_000,
  tools: 1_000,
  /** tool calls one assistant message carries */
  toolCalls: 1_000,
  stopSequences: 64,
} as const;

/** Refuses an array by its length alone, before `inner` (an array schema, or a union with one) looks at its items; `total` adds a bound over what the items hold. */
export function lengthFirst<T extends z.ZodType>(
  inner: T,
  max: number,
  what: string,
  total?: { max: number; what: string; count: (items: unknown[]) => number },
) {
  return z.preprocess((v, ctx): unknown => {
    if (!Array.isArray(v)) return v;
    if (v.length > max)
      ctx.addIssue({
        code: 'too_big',
        origin: 'array',
        maximum: max,
        inclusive: true,
        input: v,
        message: `at most ${max} ${what} (got ${v.length})`,
      });
    else if (total) {
      const n = total.count(v);
      if (n > total.max)
        ctx.addIssue({
          code: 'too_big',
          origin: 'array',
          maximum: total.max,
          inclusive: true,
          input: v,
          message: `at most ${total.max} ${total.what} in all (got ${n})`,
        });
    }
    return v;
  }, inner);
}

/** An array of at most `max` items (at least `min`), refused by its length before its items are validated. */
export function bounded<T extends z.ZodType>(
  item: T,
  max: number,
  what: string,
  more: { min?: number; total?: { max: number; what: string; count: (items: unknown[]) => number } } = {},
) {
  return lengthFirst(
    z
      .array(item)
      .min(more.min ?? 0)
      .max(max),
    max,
    what,
    more.total,
  );
}

/** A string, or an array of at most `max` blocks: the count is checked first, so its message is not lost in the union's. */
export function textOrBlocks(max: number, what: string, min = 0) {
  return lengthFirst(z.union([z.string(), z.array(TextPart).min(min).max(max)]), max, what);
}

/** Blocks in the messages' content arrays (a string content counts none). */
const blocksIn = (messages: unknown[]) =>
  messages.reduce<number>(
    (n, m) =>
      n +
      (Array.isArray((m as { content?: unknown } | null)?.content) ? (m as { content: unknown[] }).content.length : 0),
    0,
  );
export const ALL_BLOCKS = { max: MODEL_API_LIMITS.blocks, what: 'content blocks', count: blocksIn };
export const Temperature2 = z.number().min(0).max(2);

export const TextPart = z.object({ type: z.string(), text: z.string().optional() }).loose();

/** A tool's name as all three families accept it. */
export const ToolName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and -, at most 64');
/** A JSON Schema (an object schema for tool parameters). */
export const JsonSchema = z.record(z.string(), z.unknown());

/** The error responses every OpenAI-family route may answer. */
export const openaiErrors = {
  400: OpenAIErrorBody,
  401: OpenAIErrorBody,
  403: OpenAIErrorBody,
  404: OpenAIErrorBody,
  429: OpenAIErrorBody,
  503: OpenAIErrorBody,
} as const;
/** The error responses every Anthropic-family route may answer. */
export const anthropicErrors = {
  400: AnthropicErrorBody,
  401: AnthropicErrorBody,
  403: AnthropicErrorBody,
  404: AnthropicErrorBody,
  429: AnthropicErrorBody,
  503: AnthropicErrorBody,
} as const;
