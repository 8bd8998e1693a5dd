import { DOCUMENT_LIMITS, overLimit } from './limits.js';
import { readZip } from './zip-guard.js';
import { elementsOf } from './xml-scan.js';

const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');

const SLIDE = /^ppt\/slides\/slide(\d+)\.xml$/;

/**
 * The text of each slide of a .pptx deck, in slide order: one entry per slide, one string per text
 * paragraph (the first is usually the slide title). A .pptx is a zip of DrawingML XML files, read
 * within the ZIP limits (zip-guard.ts) and at most pptxMaxSlides slides.
 */
export async function pptxSlides(data: Uint8Array): Promise<string[][]> {
  const parts = await readZip(data, 'a .pptx deck', (name) => SLIDE.test(name));
  if (parts.size > DOCUMENT_LIMITS.pptxMaxSlides)
    throw overLimit('pptxMaxSlides', `the deck has ${parts.size.toLocaleString('en-US')} slides`);
  const names = [...parts.keys()].sort((a, b) => Number(SLIDE.exec(a)![1]) - Number(SLIDE.exec(b)![1]));
  const slides: string[][] = [];
  for (const name of names) {
    const xml = parts.get(name)!.toString('utf8');
    const paragraphs: string[] = [];
    for (const p of elementsOf(xml, 'a:p')) {
      const text = elementsOf(p, 'a:t').map(decode).join('');
      if (text.trim()) paragraphs.push(text.trim());
    }
    slides.push(paragraphs);
  }
  return slides;
}
