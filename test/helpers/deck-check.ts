import JSZip from 'jszip';
import { textWidth, type FontFamily, type TextStyle } from '../../src/server/engines/slides/fonts.js';
import { wrapLines } from '../../src/server/engines/slides/wrap.js';

/**
 * Reads a written .pptx back and re-measures every text frame from its XML alone: the lines each
 * paragraph takes when wrapped as a renderer wraps it (at break opportunities, to the frame's
 * width; a hard <a:br/> ends a line), measured with the same font files, against the frame's size
 * less its insets and the paragraph's left margin; and the frame's height against its lines at
 * their exact pitch plus paragraph spacing. What the deck says, not what the engine meant.
 */
const EMU_PER_PT = 12700;

export interface FrameReport {
  slide: number;
  text: string;
  widestLine: number;
  available: number;
  height: number;
  frameHeight: number;
}

const attr = (xml: string, name: string) => {
  const m = new RegExp(`\\b${name}="(-?\\d+)"`).exec(xml);
  return m ? Number(m[1]) : undefined;
};
const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&amp;/g, '&');

export async function slideXmls(pptx: Buffer): Promise<{ zip: JSZip; slides: string[] }> {
  const zip = await JSZip.loadAsync(pptx);
  const names = Object.keys(zip.files)
    .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]));
  return { zip, slides: await Promise.all(names.map((n) => zip.file(n)!.async('string'))) };
}

export async function measureFrames(pptx: Buffer): Promise<FrameReport[]> {
  const { slides } = await slideXmls(pptx);
  const out: FrameReport[] = [];
  slides.forEach((xml, i) => {
    for (const sp of xml.match(/<p:sp>[\s\S]*?<\/p:sp>/g) ?? []) {
      const body = /<p:txBody>([\s\S]*?)<\/p:txBody>/.exec(sp)?.[1];
      if (!body) continue;
      const ext = /<a:ext cx="(\d+)" cy="(\d+)"/.exec(sp)!;
      const bodyPr = /<a:bodyPr[^>]*>/.exec(body)![0];
      const ins = (n: string, d: number) => (attr(bodyPr, n) ?? d) / EMU_PER_PT;
      const [l, t, r, b] = [ins('lIns', 91440), ins('tIns', 45720), ins('rIns', 91440), ins('bIns', 45720)];
      const w = Number(ext[1]) / EMU_PER_PT;
      const frameHeight = Number(ext[2]) / EMU_PER_PT;
      let height = t + b;
      let widest = 0;
      let available = w - l - r;
      const texts: string[] = [];
      for (const p of body.match(/<a:p>[\s\S]*?<\/a:p>/g) ?? []) {
        const pPr = /<a:pPr[^>]*>[\s\S]*?<\/a:pPr>|<a:pPr[^>]*\/>/.exec(p)?.[0] ?? '';
        const marL = (attr(pPr, 'marL') ?? 0) / EMU_PER_PT;
        const pitch = Number(/<a:lnSpc><a:spcPts val="(\d+)"/.exec(pPr)?.[1] ?? NaN) / 100;
        const after = Number(/<a:spcAft><a:spcPts val="(\d+)"/.exec(pPr)?.[1] ?? 0) / 100;
        // Lines: the paragraph wrapped to the width it has (runs between <a:br/> elements each start a line).
        const width = w - l - r - marL;
        for (const part of p.split(/<a:br>[\s\S]*?<\/a:br>|<a:br\/>/)) {
          let text = '';
          let style: TextStyle | null = null;
          for (const run of part.match(/<a:r>[\s\S]*?<\/a:r>/g) ?? []) {
            const rPr = /<a:rPr[^>]*>/.exec(run)![0];
            const size = (attr(rPr, 'sz') ?? 1800) / 100;
            const face = /<a:latin typeface="([^"]+)"/.exec(run)?.[1] ?? 'DejaVu Sans';
            // Code runs are set in a monospace face the deck's measure does not know: measured in the paragraph's.
            style ??= { family: face as FontFamily, bold: /\bb="1"/.test(rPr), size };
            text += decode(/<a:t>([\s\S]*?)<\/a:t>/.exec(run)?.[1] ?? '');
          }
          if (!text || !style) continue;
          if (Number.isNaN(pitch))
            throw new Error(`slide ${i + 1}: a paragraph without an exact line pitch ("${text}")`);
          texts.push(text);
          for (const line of wrapLines(text, width, style)) {
            height += pitch;
            widest = Math.max(widest, textWidth(line, style));
          }
          available = Math.min(available, width);
        }
        height += after;
      }
      if (texts.length)
        out.push({ slide: i + 1, text: texts.join(' / '), widestLine: widest, available, height, frameHeight });
    }
  });
  return out;
}
