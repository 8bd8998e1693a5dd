import type { Block } from './markdown.js';
import { inlineSentences, sentences, type Sentence } from './segment.js';

/** Length as a reader counts it: code points, so a CJK character is one. */
export function textLength(text: string): number {
  return [...text].length;
}

/**
 * The longest run of whole units from the start whose joined length fits `maxChars`. Never a cut
 * unit: when even the first is longer, the answer is empty and the caller picks something shorter.
 */
export function fitWhole<T>(units: readonly T[], maxChars: number, length: (unit: T) => number, joiner = 1): T[] {
  const out: T[] = [];
  let total = 0;
  for (const unit of units) {
    const add = length(unit) + (out.length ? joiner : 0);
    if (total + add > maxChars) break;
    out.push(unit);
    total += add;
  }
  return out;
}

/** Plain text shortened to the whole sentences that fit; '' when the first sentence alone is longer. */
export function shortenToSentences(text: string, maxChars: number, locale?: string): string {
  if (textLength(text) <= maxChars) return text;
  return fitWhole(sentences(text, locale), maxChars, textLength).join(' ');
}

/**
 * A prose block (paragraph, list item, heading, blockquote) shortened to whole sentences, in both
 * forms; null when even its first sentence is longer than `maxChars` or the block is not prose.
 */
export function shortenBlock(block: Block, maxChars: number, locale?: string): Sentence | null {
  if (!block.text) return null;
  if (block.kind === 'code' || block.kind === 'table' || block.kind === 'html') return null;
  if (textLength(block.text) <= maxChars) return { text: block.text, markdown: block.markdown };
  // Only blocks with inline nodes can be cut into sentences that keep their Markdown.
  if (!block.inline) return null;
  const kept = fitWhole(inlineSentences(block.inline, locale), maxChars, (s) => textLength(s.text));
  if (kept.length === 0) return null;
  return { text: kept.map((s) => s.text).join(' '), markdown: kept.map((s) => s.markdown).join(' ') };
}
