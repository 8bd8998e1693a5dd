import JSZip from 'jszip';

const decode = (s: string) =>
  s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n))).replace(/&amp;/g, '&');

/**
 * The text of each slide of a .pptx deck, in slide order: one entry per slide, one string per text
 * paragraph (the first is usually the slide title). A .pptx is a zip of DrawingML XML files.
 */
export async function pptxSlides(data: Buffer): Promise<string[][]> {
  const zip = await JSZip.loadAsync(data);
  const names = Object.keys(zip.files)
    .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]));
  const slides: string[][] = [];
  for (const name of names) {
    const xml = await zip.file(name)!.async('string');
    const paragraphs: string[] = [];
    for (const p of xml.match(/<a:p>[\s\S]*?<\/a:p>|<a:p [\s\S]*?<\/a:p>/g) ?? []) {
      const text = (p.match(/<a:t>([\s\S]*?)<\/a:t>/g) ?? []).map((t) => decode(t.replace(/<\/?a:t>/g, ''))).join('');
      if (text.trim()) paragraphs.push(text.trim());
    }
    slides.push(paragraphs);
  }
  return slides;
}
