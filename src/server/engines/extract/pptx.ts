import { DocumentRefused, DOCUMENT_LIMITS, overLimit } from './limits.js';
import { elementsNamed, parseXml, textOf, type XmlNode } from './xml.js';
import { readZip } from './zip-guard.js';

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
  return names.map((name) => {
    const paragraphs: string[] = [];
    for (const p of elementsNamed(slideXml(name, parts.get(name)!), 'a:p')) {
      const text = elementsNamed([p], 'a:t').map(textOf).join('').trim();
      if (text) paragraphs.push(text);
    }
    return paragraphs;
  });
}

function slideXml(name: string, part: Buffer): XmlNode[] {
  try {
    return parseXml(part.toString('utf8'));
  } catch (err) {
    throw new DocumentRefused('INVALID_PARAMETER', `${name} of the deck cannot be read: ${(err as Error).message}`);
  }
}
