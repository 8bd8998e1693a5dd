import { textWidth, type TextStyle } from './fonts.js';
import { breakLines } from '../../text/line-break.js';

/**
 * The lines a text takes in a box `width` points wide, measured with the real glyph advances
 * (text/line-break.ts breaks it). Each line is at most `width` wide.
 */
export function wrapLines(text: string, width: number, style: TextStyle): string[] {
  return breakLines(text.replace(/\s+/g, ' ').trim(), (line) => textWidth(line, style) <= width);
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
