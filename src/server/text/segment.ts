import type { PhrasingContent } from 'mdast';
import { inlineMarkdown, phrasingText } from './markdown-tree.js';
import { isFalseStop } from './sentence-stops.js';

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

const WINDOW = 4096;

/** A segment as this module keeps it: V8's own segment objects are never held (see segmentsOf). */
interface Segment {
  segment: string;
  index: number;
  isWordLike: boolean;
}

/**
 * The segments of a text, found a window at a time: V8's segmenter slows with the length of the
 * string it walks (a quarter-megabyte paragraph took half a minute for its words). A window ends at
 * a space, or else after a CJK full stop (no word runs across either: a dictionary-segmented run is
 * never cut), and the next one starts again at the window's last segment, which may have been cut.
 * Each of V8's segment objects is read and dropped at once: kept (in an array, or spread), they
 * keep costly memory alive and the collector, not the segmenter, takes most of the time.
 */
function* segmentsOf(granularity: 'sentence' | 'word', text: string, locale?: string): Generator<Segment> {
  const seg = segmenter(granularity, locale);
  let from = 0;
  while (from < text.length) {
    const end = windowEnd(text, from);
    // One segment behind: the window's last one is carried into the next window when it may be cut.
    let last: Segment | undefined;
    let count = 0;
    for (const s of seg.segment(text.slice(from, end))) {
      if (last) yield last;
      last = { segment: s.segment, index: s.index + from, isWordLike: s.isWordLike === true };
      count++;
    }
    if (end < text.length && count > 1 && last) from = last.index;
    else {
      if (last) yield last;
      from = end;
    }
  }
}

/** Where the window from `from` ends: after the last space (or CJK full stop) in its second half. */
function windowEnd(text: string, from: number): number {
  const end = from + WINDOW;
  if (end >= text.length) return text.length;
  for (const stops of [/\s/, /[。！？]/])
    for (let i = end - 1; i > from + WINDOW / 2; i--) if (stops.test(text[i])) return i + 1;
  return end;
}

/** Scripts written without spaces between words, which only word segmentation can split. */
const SPACELESS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

export const isSpaceless = (text: string) => SPACELESS.test(text);

/**
 * The text a full-text index reads: in scripts without spaces, the words segmentation finds,
 * separated by spaces (a tokenizer that splits at spaces then sees words, not whole sentences).
 * A name segmentation keeps whole across a dot (`Chinese.t2s`, `JapaneseHolidays.isHolidayAt`)
 * is its names: PostgreSQL's parser would read it as one host name, and find neither.
 * Null when the text needs nothing (no such script), so the index reads the text itself.
 */
export function indexText(text: string, locale?: string): string | null {
  if (!SPACELESS.test(text)) return null;
  return words(text, locale)
    .flatMap((w) => w.split(DOT_BEFORE_NAME))
    .join(' ');
}

const DOT_BEFORE_NAME = /(?<=[\p{L}\p{N}_$])\.(?=[\p{L}_$])/u;

/**
 * The words of a text in any script, as Unicode word segmentation sees them (dictionary-based for
 * Chinese, Japanese and Thai, which have no spaces): punctuation and spaces are not words.
 */
export function words(text: string, locale?: string): string[] {
  const out: string[] = [];
  for (const seg of segmentsOf('word', text, locale)) if (seg.isWordLike) out.push(seg.segment);
  return out;
}

interface Range {
  start: number;
  end: number;
}

/** A full stop (not an ellipsis) and the space after it, before a word in lower case. */
const LOWER_START = /(?<![.…])\.["')\]’”]*\s+(?=\p{Ll})/gu;

/** Sentence boundaries of a text (offsets > 0), none inside a protected range. */
function boundaries(text: string, protectedRanges: readonly Range[], locale?: string): number[] {
  const out: number[] = [];
  const cuts = new Set<number>();
  for (const seg of segmentsOf('sentence', text, locale)) if (seg.index > 0) cuts.add(seg.index);
  // Unicode's rules never cut before a word in lower case; in technical text a name written so
  // opens a sentence ("… will be enabled. postgresql-common makes use of…"). Not after a letter
  // alone ("E. g. if") or "etc.", which a sentence goes on after.
  for (const m of text.matchAll(LOWER_START))
    if (!/(?:^|[^\p{L}\p{N}])(?:\p{L}|etc)\.$/iu.test(text.slice(Math.max(0, m.index - 5), m.index + 1)))
      cuts.add(m.index + m[0].length);
  for (let b of [...cuts].sort((x, y) => x - y)) {
    // A straight quote after the stop opens the next sentence when this one has none for it to
    // close: `"A"は冗長な表現です。"B"を省き…` ends at 。, not at the quote after it.
    const before = text.slice(out.at(-1) ?? 0, b).trimEnd();
    const mark = before.at(-1);
    if ((mark === '"' || mark === "'") && [...before].filter((c) => c === mark).length % 2 === 1)
      b = (out.at(-1) ?? 0) + before.length - 1;
    if (protectedRanges.some((r) => r.start < b && b < r.end)) continue;
    // A stop inside code, closed by a bracket after it ("句点（`。`）などで…"), ends no sentence.
    let stop = b - 1;
    while (stop > 0 && /[\s)）\]」』"'”’]/u.test(text[stop])) stop--;
    if (protectedRanges.some((r) => r.start <= stop && stop < r.end)) continue;
    if (isFalseStop(text.slice(Math.max(0, b - 40), b), text.slice(b, b + 1))) continue;
    // A mark quoted alone ("replaced with '?' (U+003F)") is named, not a stop.
    const opens = /['"“‘(（「]/u.test(text[stop - 1] ?? '') && (stop < 2 || /\s/.test(text[stop - 2]));
    if (opens && /['"”’)）」]/u.test(text[stop + 1] ?? '')) continue;
    // A stop with a letter or digit right after it is inside a token ("1.1.X", "a.out"), not an end.
    if (/[.!?]/.test(text[b - 1]) && /[\p{L}\p{N}]/u.test(text[b] ?? '')) continue;
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
  return inlineSentenceRanges(nodes, locale).map((r) => ({
    text: r.text,
    markdown: inlineMarkdown(sliceInline(nodes, r.start, r.end)),
  }));
}

/**
 * Where the sentences of a run of inline nodes lie, as plain-text offsets (see inlineSentences),
 * for a caller that writes Markdown once for several sentences together: writing it costs far more
 * than finding the sentences.
 */
export function inlineSentenceRanges(
  nodes: readonly PhrasingContent[],
  locale?: string,
): Array<Range & { text: string }> {
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
  const out: Array<Range & { text: string }> = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    let start = cuts[i];
    let end = cuts[i + 1];
    const inAtomic = (at: number) => atomic.some((r) => r.start <= at && at < r.end);
    while (start < end && /\s/.test(plain[start]) && !inAtomic(start)) start++;
    while (end > start && /\s/.test(plain[end - 1]) && !inAtomic(end - 1)) end--;
    if (start === end) continue;
    out.push({ start, end, text: plain.slice(start, end) });
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
