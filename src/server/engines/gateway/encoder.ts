import { BytePairEncoder } from './bpe.js';

/**
 * The o200k_base encoder, loaded once per thread (the ranks ship inside js-tiktoken: offline, no
 * download; parsing them takes a few hundred milliseconds, a batch at a time, on first use).
 */
let encoder: Promise<BytePairEncoder> | undefined;

export function loadEncoder(): Promise<BytePairEncoder> {
  encoder ??= import('js-tiktoken/ranks/o200k_base').then((ranks) => BytePairEncoder.load(ranks.default));
  return encoder;
}

/** Per-message framing, as chat formats add a few tokens around each message. */
export const PER_MESSAGE = 3;
export const PER_REQUEST = 3;

/**
 * The first maxTokens tokens of a text. Pre-tokenized pieces are encoded independently, so the
 * encoder stops at the first piece past the limit: the work is bounded by the cut, not the text.
 * A cut inside a multi-byte character drops the partial character.
 */
export function truncateWith(
  enc: BytePairEncoder,
  text: string,
  maxTokens: number,
): { text: string; tokens: number; truncated: boolean } {
  const tokens = enc.encode(text, maxTokens + 1);
  if (tokens.length <= maxTokens) return { text, tokens: tokens.length, truncated: false };
  const cut = enc.decode(tokens.slice(0, maxTokens)).replace(/\uFFFD+$/, '');
  return { text: cut, tokens: maxTokens, truncated: true };
}
