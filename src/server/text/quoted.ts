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
