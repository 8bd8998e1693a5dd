import type { PhrasingContent } from 'mdast';
import type { Block } from './markdown.js';
import { symbolsOf } from './terms.js';

/** Longest paragraph read as a term: longer, it is a sentence. */
const MAX_TERM = 80;

/**
 * What may join a label's marked-up parts: spaces and separators (`-i, --ignore-initial=SKIP`), and
 * an argument groff leaves unmarked beside its bracket (`**--lines**=_[_+]NUM`) or a choice of
 * words in braces (`**--follow[=**{name|descriptor}]`).
 */
export const LABEL_JOINER =
  /^[\s,=|/:[\]+]*(?:(?:\p{Lu}[\p{Lu}\p{N}_]*|\{[\p{L}\p{N}_-]+(?:\|[\p{L}\p{N}_-]+)+\})[\s,=|/:[\]+]*)?$/u;

/**
 * Phrasing that is markup around a label: strong, emphasis, code, and the spaces or separators
 * between them (a man page's `**-d**, **--dictionary-order**`, `**--sort**=_WORD_`).
 */
function labelOnly(nodes: readonly PhrasingContent[]): boolean {
  const meaningful = nodes.filter((n) => !(n.type === 'text' && LABEL_JOINER.test(n.value)));
  if (meaningful.length === 0) return false;
  const first = meaningful[0];
  if (first.type !== 'strong' && first.type !== 'inlineCode') return false;
  return meaningful.every((n) => n.type === 'strong' || n.type === 'emphasis' || n.type === 'inlineCode');
}

/**
 * A short line naming what follows, not a sentence: no end mark, a few words ("options.expandRange",
 * a heading a PDF printed as a line).
 */
export function isLabel(text: string): boolean {
  const t = text.trim();
  return t.length <= 80 && !/[.!?。！？:：]$/.test(t) && t.split(/\s+/).length <= 6;
}

/**
 * A paragraph that names what the next paragraphs describe: a man page's option (`**-r** _number_`)
 * or exit code (`2`, often unmarked), a `<dl>` term: bold or code only, or a bare number or flag;
 * short, not a sentence.
 */
export function isTerm(b: Block): boolean {
  return (
    b.kind === 'paragraph' &&
    b.inline !== undefined &&
    b.text.length > 0 &&
    b.text.length <= MAX_TERM &&
    !/[.!?。！？:：]$/.test(b.text.trim()) &&
    // A label ending in a colon before its value ("**Default:** `/`") states a value; it names nothing.
    !/^[^:：]+[:：]\s+\S/.test(b.text) &&
    ((labelOnly(b.inline) && !isNote(b.text)) ||
      /^(?:\d{1,4}|--?\p{L}[\p{L}\p{N}-]*)$/u.test(b.text.trim()) ||
      isSymbol(b.text.trim()))
  );
}

/** A bold phrase noting where a section applies ("**Only for `pMap` and `pMapKeyed`**"): no name. */
const isNote = (text: string) => {
  // An aside in brackets is no note: "/usr/share/groff/site-tmac (symlink to /etc/groff)" names a path.
  const words = text
    .replace(/\([^)]*\)/g, ' ')
    .trim()
    .split(/\s+/);
  return words.length >= 3 && words.some((w) => NOTE_WORDS.has(w));
};
const NOTE_WORDS = new Set('for and the of to in with only not from'.split(' '));

/** One code-like token alone (`%s` of date's format table, `parse()`), not a link. */
const isSymbol = (t: string) => /^\S{1,40}$/.test(t) && !/^[a-z]+:\/\//i.test(t) && symbolsOf(t).length > 0;
