import type { PhrasingContent } from 'mdast';
import { inlineMarkdown, phrasingText } from './markdown-tree.js';

/** A sentence as a reader sees it and as inline Markdown (code spans and links intact). */
export interface Sentence {
  text: string;
  markdown: string;
}

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(granularity: 'sentence' | 'word', locale?: string): Intl.Segmenter {
  const key = `${granularity}:${locale ?? ''}`;
  let s = segmenters.get(key);
  if (!s) {
    s = new Intl.Segmenter(locale, { granularity });
    segmenters.set(key, s);
  }
  return s;
}

/**
 * The words of a text in any script, as Unicode word segmentation sees them (dictionary-based for
 * Chinese, Japanese and Thai, which have no spaces): punctuation and spaces are not words.
 */
export function words(text: string, locale?: string): string[] {
  const out: string[] = [];
  for (const seg of segmenter('word', locale).segment(text)) if (seg.isWordLike) out.push(seg.segment);
  return out;
}

interface Range {
  start: number;
  end: number;
}

/** Sentence boundaries of a text (offsets > 0), none inside a protected range. */
function boundaries(text: string, protectedRanges: readonly Range[], locale?: string): number[] {
  const out: number[] = [];
  for (const seg of segmenter('sentence', locale).segment(text)) {
    const b = seg.index;
    if (b === 0) continue;
    if (protectedRanges.some((r) => r.start < b && b < r.end)) continue;
    out.push(b);
  }
  return out;
}

/** The sentences of plain text, trimmed, in order. */
export function sentences(text: string, locale?: string): string[] {
  const cuts = [0, ...boundaries(text, [], locale), text.length];
  const out: string[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const s = text.slice(cuts[i], cuts[i + 1]).trim();
    if (s) out.push(s);
  }
  return out;
}

/**
 * The sentences of a run of inline Markdown nodes. A code span or image is never split (`a.b` and
 * `e.g.` inside code stay in one sentence), and each sentence keeps its inline Markdown.
 */
export function inlineSentences(nodes: readonly PhrasingContent[], locale?: string): Sentence[] {
  const plain = nodes.map(phrasingText).join('');
  const atomic: Range[] = [];
  let pos = 0;
  const collect = (list: readonly PhrasingContent[]) => {
    for (const n of list) {
      const len = phrasingText(n).length;
      if (n.type === 'inlineCode' || n.type === 'image' || n.type === 'imageReference') {
        atomic.push({ start: pos, end: pos + len });
        pos += len;
      } else if ('children' in n) collect(n.children);
      else pos += len;
    }
  };
  collect(nodes);
  const cuts = [0, ...boundaries(plain, atomic, locale), plain.length];
  const out: Sentence[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    let start = cuts[i];
    let end = cuts[i + 1];
    const inAtomic = (at: number) => atomic.some((r) => r.start <= at && at < r.end);
    while (start < end && /\s/.test(plain[start]) && !inAtomic(start)) start++;
    while (end > start && /\s/.test(plain[end - 1]) && !inAtomic(end - 1)) end--;
    if (start === end) continue;
    const slice = sliceInline(nodes, start, end);
    out.push({ text: plain.slice(start, end), markdown: inlineMarkdown(slice) });
  }
  return out;
}

/** The inline nodes covering plain-text offsets [start, end): text is cut, wrappers kept, atoms whole. */
export function sliceInline(nodes: readonly PhrasingContent[], start: number, end: number): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let pos = 0;
  for (const n of nodes) {
    const len = phrasingText(n).length;
    const s = pos;
    const e = pos + len;
    pos = e;
    if (len === 0) {
      if (s >= start && s < end) out.push(n);
      continue;
    }
    if (e <= start || s >= end) continue;
    if (s >= start && e <= end) out.push(n);
    else if (n.type === 'text')
      out.push({ ...n, value: n.value.slice(Math.max(start - s, 0), Math.min(end - s, len)) });
    else if ('children' in n) {
      const kids = sliceInline(n.children, start - s, end - s);
      if (kids.length) out.push({ ...n, children: kids });
    } else if (s >= start) out.push(n);
  }
  return out;
}
