/**
 * A simple, deterministic token count for metering local engines: words, numbers and each
 * punctuation mark count as one token. The model gateway brings a real tokenizer; until then this
 * keeps usage figures stable and proportional to the text.
 */
export function countTokens(text: string): number {
  return text.match(/[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu)?.length ?? 0;
}
