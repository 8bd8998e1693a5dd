/**
 * A simple token count for metering the local engines: words, numbers and punctuation marks each
 * count one, and long words one per four characters, close to what BPE tokenizers give for English.
 * Upstream calls are metered by the gateway with the provider's own counts.
 */
export function countTokens(text: string): number {
  let n = 0;
  for (const piece of text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? []) n += Math.max(1, Math.ceil(piece.length / 4));
  return n;
}
