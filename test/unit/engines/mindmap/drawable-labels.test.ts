import { expect, it } from 'vitest';
import { mapFontFiles } from '../../../../src/server/engines/fonts.js';
import { drawable, wrapText } from '../../../../src/server/engines/mindmap/measure.js';

/**
 * textlint's Japanese README writes "〜かもしれない" with a WAVE DASH, which WenQuanYi Micro Hei
 * (the maps' CJK face) lacks: resvg drew that label's kana as empty boxes. The same character in
 * its other form (FULLWIDTH TILDE), which the face has, is drawn instead.
 */
const files = mapFontFiles();

it.skipIf(!files.cjk || !/wqy/i.test(files.cjk))(
  'draws a wave dash the CJK face lacks as the full-width tilde it has',
  () => {
    expect(drawable('〜かもしれない や 〜と思います')).toBe('～かもしれない や ～と思います');
    expect(wrapText('〜と思います', 14, false, 400).join('')).toBe('～と思います');
    // What a face has is left as written.
    expect(drawable('～ and ~ 漢字')).toBe('～ and ~ 漢字');
  },
);
