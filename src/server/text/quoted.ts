/** Names a question quotes: "…", “…”, 「…」, 『…』, '…' (not an apostrophe inside a word). */
const QUOTED = /"([^"]{2,80})"|“([^”]{2,80})”|「([^」]{1,80})」|『([^』]{1,80})』|(?<!\p{L})'([^']{2,80})'(?!\p{L})/gu;

/** A heading as compared with a name quoted in a question: letters and digits, lower case. */
export const headingKey = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The names a text quotes, each as a heading key ("under 'Safari 8'" → "safari 8"). */
export function quotedNames(text: string): string[] {
  return [...text.matchAll(QUOTED)].map((m) => headingKey(m.slice(1).find(Boolean) ?? '')).filter(Boolean);
}

/** Spans a text quotes whole: "…", “…”, 「…」, 『…』 (an apostrophe cannot be told from a single quote here). */
const QUOTED_SPANS = /"[^"]*"|“[^”]*”|「[^」]*」|『[^』]*』/g;
/** Those spans, and spans in brackets: `bytes(value, [options])`. */
const ENCLOSED_SPANS = new RegExp(`${QUOTED_SPANS.source}|\\([^()]*\\)|\\[[^\\]]*\\]`, 'g');

/** The text with each quoted span replaced by spaces of its length: offsets stay, quoted words go. */
export const maskQuoted = (text: string, brackets = false) =>
  text.replace(brackets ? ENCLOSED_SPANS : QUOTED_SPANS, (m) => ' '.repeat(m.length));
