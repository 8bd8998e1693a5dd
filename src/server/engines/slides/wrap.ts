import { textWidth, type TextStyle } from './fonts.js';

/** Characters after which a line may break without a space: CJK ideographs, kana, full-width forms. */
const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/u;

/** Closing punctuation that may not begin a line (Chinese and Japanese line-breaking rules). */
const CLOSING = /[，。、！？：；）」』】》〉”’…\uff09\uff0c\uff0e\uff1a\uff1b\uff01\uff1f]/u;

/** Pieces a line may break between: words (with their trailing space) and single CJK characters. */
function tokens(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const ch of text.replace(/\s+/g, ' ').trim()) {
    if (CLOSING.test(ch) && !cur && out.length > 0) {
      // No line starts with a closing mark (kinsoku): it stays with the character before it.
      out[out.length - 1] += ch;
    } else if (CJK.test(ch)) {
      if (cur) out.push(cur);
      out.push(ch);
      cur = '';
    } else if (ch === ' ') {
      out.push(cur + ' ');
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out.filter((t) => t !== ' ');
}

/** A word wider than the line on its own is cut by characters. */
function cutLong(word: string, width: number, style: TextStyle): string[] {
  const parts: string[] = [];
  let cur = '';
  for (const ch of word) {
    if (cur && textWidth(cur + ch, style) > width) {
      parts.push(cur);
      cur = '';
    }
    cur += ch;
  }
  if (cur) parts.push(cur);
  return parts;
}

/**
 * Greedy line breaking with the real glyph advances: the lines a text takes in a box `width`
 * points wide. Each returned line, without its trailing space, is at most `width` wide.
 */
export function wrapLines(text: string, width: number, style: TextStyle): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const tok of tokens(text)) {
    const next = cur + tok;
    if (textWidth(next.trimEnd(), style) <= width) {
      cur = next;
      continue;
    }
    if (cur.trim()) lines.push(cur.trimEnd());
    cur = '';
    if (textWidth(tok.trimEnd(), style) > width) {
      const parts = cutLong(tok.trimEnd(), width, style);
      lines.push(...parts.slice(0, -1));
      cur = parts[parts.length - 1] + (tok.endsWith(' ') ? ' ' : '');
    } else cur = tok;
  }
  if (cur.trim()) lines.push(cur.trimEnd());
  return lines;
}

/**
 * The text cut to at most `maxLines` lines, ending with an ellipsis that fits: used when one
 * paragraph alone is taller than its frame (a title, a single long point).
 */
export function shortenToLines(text: string, width: number, style: TextStyle, maxLines: number): string[] {
  const lines = wrapLines(text, width, style);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1];
  // Drop whole words (or characters, for CJK) until the line and its ellipsis fit.
  while (last && textWidth(last + '…', style) > width) {
    const cut = last.includes(' ') ? last.slice(0, last.lastIndexOf(' ')) : [...last].slice(0, -1).join('');
    last = cut;
  }
  kept[maxLines - 1] = last.replace(/[\s,;:.\-–—]+$/u, '') + '…';
  return kept;
}
