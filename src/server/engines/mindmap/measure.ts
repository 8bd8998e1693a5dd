import type * as fontkit from 'fontkit';
import { LRUCache } from 'lru-cache';
import { mapFontFiles, openFace } from '../fonts.js';
import { breakLines } from '../../text/line-break.js';

/**
 * Label widths for the layouts, measured with fontkit from the very files resvg sets the labels
 * with (engines/fonts.ts), so a label measured to fit its box is drawn inside it.
 */
type Face = fontkit.Font;

let faces: { regular: Face | null; bold: Face | null; cjk: Face | null } | undefined;

function loaded() {
  if (!faces) {
    const f = mapFontFiles();
    faces = { regular: openFace(f.regular), bold: openFace(f.bold), cjk: openFace(f.cjk) };
  }
  return faces;
}

/**
 * The runs of one line, each set in one face, as resvg sets a line: in the primary face; when that
 * lacks a character and the CJK face has every one of the line's, the whole line in the CJK face
 * (Latin included); otherwise only the missing characters in it.
 */
function runsOf(text: string, bold: boolean): Array<{ face: Face | null; text: string }> {
  const f = loaded();
  const primary = (bold ? f.bold : f.regular) ?? f.regular;
  const chars = [...text].map((ch) => ({ ch, cp: ch.codePointAt(0)! }));
  const missing = primary ? chars.some((c) => !primary.hasGlyphForCodePoint(c.cp)) : false;
  if (missing && f.cjk && chars.every((c) => f.cjk!.hasGlyphForCodePoint(c.cp))) return [{ face: f.cjk, text }];
  const runs: Array<{ face: Face | null; text: string }> = [];
  for (const { ch, cp } of chars) {
    const face = !primary?.hasGlyphForCodePoint(cp) && f.cjk?.hasGlyphForCodePoint(cp) ? f.cjk : primary;
    const last = runs[runs.length - 1];
    if (last && last.face === face) last.text += ch;
    else runs.push({ face, text: ch });
  }
  return runs;
}

const widths = new LRUCache<string, number>({ max: 20_000 });

/**
 * The width of `text` set at `size`: runs of characters the primary face has are shaped with its
 * kerning, the others with the CJK face, as resvg sets them. Without any font file, a rough
 * estimate (0.6 em, 1 em for wide characters) keeps layouts non-overlapping all the same.
 */
export function textWidth(text: string, size: number, bold: boolean): number {
  const key = `${bold ? 'b' : 'r'}${size}|${text}`;
  const hit = widths.get(key);
  if (hit !== undefined) return hit;
  let pen = 0;
  for (const run of runsOf(text, bold)) {
    if (!run.face) {
      for (const ch of run.text) pen += (isWide(ch) ? 1 : 0.6) * size;
      continue;
    }
    const laid = run.face.layout(run.text);
    pen += (laid.advanceWidth * size) / run.face.unitsPerEm;
  }
  widths.set(key, pen);
  return pen;
}

/** Characters that break anywhere and take a full em: CJK ideographs, kana, hangul, full-width forms. */
export function isWide(ch: string): boolean {
  return /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(
    ch,
  );
}

/**
 * Characters written two ways that fonts rarely both have: Japanese writes 〜 (WAVE DASH) where
 * Windows writes ～ (FULLWIDTH TILDE). WenQuanYi has only the second; a character no face has is
 * not drawn at all (resvg set the kana around it as empty boxes).
 */
const SAME_CHARACTER: Record<string, string> = { '\u301c': '\uff5e', '\uff5e': '\u301c' };

/** The label with each character no face has in the other form it is written in, when a face has that. */
export function drawable(text: string): string {
  const f = loaded();
  const has = (ch: string) =>
    [f.regular, f.cjk].some((face) => face?.hasGlyphForCodePoint(ch.codePointAt(0)!) ?? false);
  if (!f.regular && !f.cjk) return text;
  return [...text]
    .map((ch) => (!has(ch) && SAME_CHARACTER[ch] && has(SAME_CHARACTER[ch]) ? SAME_CHARACTER[ch] : ch))
    .join('');
}

/**
 * Wraps a label into lines no wider than `max` pixels, with explicit breaks (SVG text does not wrap).
 * A word longer than a line is cut by characters. At most `maxLines`; the last one then ends in "…".
 */
export function wrapText(text: string, size: number, bold: boolean, max: number, maxLines = 6): string[] {
  const lines = breakLines(drawable(text), (line) => textWidth(line, size, bold) <= max);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    let last = kept[maxLines - 1];
    while (last.length > 1 && textWidth(last + '…', size, bold) > max) last = [...last].slice(0, -1).join('').trimEnd();
    kept[maxLines - 1] = last + '…';
    return kept;
  }
  return lines.length > 0 ? lines : [''];
}
