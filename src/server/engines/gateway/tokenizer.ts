import { runCpuJob } from '../workers/index.js';
import { loadEncoder, PER_MESSAGE, PER_REQUEST, truncateWith } from './encoder.js';
import { promptTexts, type PromptParts } from './prompt-texts.js';

/**
 * Token counts with a real BPE tokenizer (o200k_base), the same tokens as js-tiktoken's, in time
 * linear in the input (bpe.ts). The cost follows UTF-8 bytes (BPE merges bytes), so texts up to
 * INLINE_MAX_BYTES are counted on the calling thread (about a millisecond); longer ones in a CPU
 * worker, so neither a 2,000-character CJK query nor a 200 KB prompt holds the event loop.
 */
export const INLINE_MAX_BYTES = 2048;

/** Whether texts are too big to count inline; stops measuring as soon as they are. */
function large(texts: string[]): boolean {
  let bytes = 0;
  for (const t of texts) {
    // A UTF-16 unit is at least one UTF-8 byte: a long text is large without measuring it.
    if (t.length > INLINE_MAX_BYTES) return true;
    bytes += Buffer.byteLength(t, 'utf8');
    if (bytes > INLINE_MAX_BYTES) return true;
  }
  return false;
}

/**
 * `urgent`: a request waits for the count, which takes the CPU pool's light lane. A background
 * job's metering does not; on the general lane it runs beside that job's own light work (an
 * illustration's render) instead of queuing behind it.
 */
async function counts(texts: string[], urgent = true): Promise<number[]> {
  if (large(texts)) return runCpuJob('count-tokens', { texts }, { urgent });
  const enc = await loadEncoder();
  return texts.map((t) => enc.count(t));
}

export async function countTokens(text: string, options: { urgent?: boolean } = {}): Promise<number> {
  if (text === '') return 0;
  return (await counts([text], options.urgent))[0];
}

/** A prompt's input tokens: system, messages, tool calls and results, tool definitions and output schema. */
export async function countPromptTokens(parts: PromptParts): Promise<number> {
  const { texts, framed } = promptTexts(parts);
  return PER_REQUEST + framed * PER_MESSAGE + (await counts(texts)).reduce((a, b) => a + b, 0);
}

/** A reply's output tokens: its text plus each tool call's name and JSON arguments. */
export async function countReplyTokens(
  text: string,
  toolCalls: ReadonlyArray<{ name: string; arguments: string }> = [],
): Promise<number> {
  const texts = [text, ...toolCalls.flatMap((c) => [c.name, c.arguments])].filter((t) => t !== '');
  if (texts.length === 0) return 0;
  return (await counts(texts)).reduce((a, b) => a + b, 0);
}

/**
 * A sound upper bound of countPromptTokens without tokenizing: every token is at least one UTF-8
 * byte. Callers use it to skip counting when even the bound fits.
 */
export function promptTokensAtMost(parts: PromptParts): number {
  const { texts, framed } = promptTexts(parts);
  return PER_REQUEST + framed * PER_MESSAGE + texts.reduce((n, t) => n + Buffer.byteLength(t, 'utf8'), 0);
}

/**
 * Cuts text to at most maxTokens tokens, for local models that honour max tokens. A cut that lands
 * inside a multi-byte character drops the partial character.
 */
export async function truncateToTokens(
  text: string,
  maxTokens: number,
): Promise<{ text: string; tokens: number; truncated: boolean }> {
  if (large([text])) return runCpuJob('truncate-tokens', { text, maxTokens }, { urgent: true });
  return truncateWith(await loadEncoder(), text, maxTokens);
}
