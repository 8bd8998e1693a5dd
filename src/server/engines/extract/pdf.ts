import { DOCUMENT_LIMITS, overLimit } from './limits.js';
import { checkPdfStreams } from './pdf-streams.js';
import { joinParagraphLines, layoutPage, typeScale, type PositionedItem } from './pdf-layout.js';
import { cleanText, dropRunningLines, withoutBoilerplate } from './boilerplate.js';
import { RADICAL_IDEOGRAPHS } from './radical-ideographs.js';

/**
 * Text of each page of a PDF, through Mozilla's pdf.js (legacy build: runs on Node 20 without a
 * DOM), within DOCUMENT_LIMITS: its streams' inflated sizes checked first (pdf-streams.ts), its
 * page count read from the page tree before any page is, its text bounded as it grows. Lines are
 * rebuilt from item positions and fonts (aligned rows become Markdown tables, monospace lines fenced
 * code, type larger than the document's body headings: pdf-layout.ts); the running header and
 * footer a browser prints on every page, and other boilerplate, are left out.
 */
export async function pdfPages(data: Buffer): Promise<{ title: string | null; pages: string[] }> {
  checkPdfStreams(data);
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(data),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  try {
    if (doc.numPages > DOCUMENT_LIMITS.pdfMaxPages)
      throw overLimit('pdfMaxPages', `the PDF has ${doc.numPages.toLocaleString('en-US')} pages`);
    const pageItems: PositionedItem[][] = [];
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      // The fonts' names (whether a face is bold) are known once the page's drawing is read. Only a
      // page of several fonts has bold lines to tell apart, and reading a scan's drawing decodes its images.
      if (new Set(content.items.map((item) => ('fontName' in item ? item.fontName : ''))).size > 1)
        await page.getOperatorList();
      const faceOf = (name: string) => {
        const font: unknown = page.commonObjs.has(name) ? page.commonObjs.get(name) : undefined;
        return font && typeof font === 'object' && 'name' in font ? String(font.name) : '';
      };
      const bold = (name: string) => /bold|black|heavy|semibold/i.test(faceOf(name));
      // Link rectangles ([x1, y1, x2, y2] in the text's own coordinates): a row of nothing but links
      // above the text is badges or navigation (pdf-layout.ts).
      const links = (await page.getAnnotations()).filter(
        (a: { subtype?: string; rect?: number[] }) => a.subtype === 'Link' && Array.isArray(a.rect),
      ) as Array<{ rect: number[]; url?: string }>;
      const items: PositionedItem[] = [];
      // Without font faces pdf.js still names each font's generic family from its flags: 'monospace'
      // for code. A face's own name says it better where it is known: a CJK face is often flagged
      // fixed-pitch, and Noto Sans Mono CJK is not.
      const flagged = new Set(
        Object.entries(content.styles)
          .filter(([, st]) => st.fontFamily === 'monospace')
          .map(([name]) => name),
      );
      const isMono = (name: string) => {
        const face = faceOf(name);
        return face ? MONO_FACE.test(face) : flagged.has(name);
      };
      for (const item of content.items) {
        if (!('str' in item)) continue;
        chars += item.str.length + 1;
        if (chars > DOCUMENT_LIMITS.textMaxChars)
          throw overLimit(
            'textMaxChars',
            `the PDF's text runs past ${DOCUMENT_LIMITS.textMaxChars.toLocaleString('en-US')} characters (stopped at page ${n})`,
          );
        // pdf.js types the text matrix as any[]; it is [a, b, c, d, e, f] of numbers.
        const [, , , d, x, y] = item.transform as number[];
        const height = item.height || Math.abs(d);
        // An item lies in a link when the link's rectangle holds all of it: text running on past a
        // link (a sentence around its linked words) is not the link.
        const cy = y + height / 2;
        const link = links.findIndex(
          ({ rect: [x1, y1, x2, y2] }) => x >= x1 - 1 && x + item.width <= x2 + 1 && cy >= y1 && cy <= y2,
        );
        const href = link >= 0 && /^https?:\/\//.test(links[link].url ?? '') ? links[link].url : undefined;
        items.push({
          // A glyph the font maps to no character comes as NUL: no text, and PostgreSQL stores none.
          // A CJK face may map an ideograph to its radical (⾔ for 言, ⻚ for 页): the same character to a reader.
          str: item.str
            .replace(/\u0000/g, '')
            .replace(/[\u2f00-\u2fdf]/g, (c) => c.normalize('NFKC'))
            .replace(/[\u2e80-\u2eff]/g, (c) => RADICAL_IDEOGRAPHS[c] ?? c),
          x,
          y,
          width: item.width,
          height,
          mono: isMono(item.fontName),
          bold: bold(item.fontName),
          ...(link >= 0 ? { link } : {}),
          ...(href ? { href } : {}),
        });
      }
      pageItems.push(items);
      page.cleanup();
    }
    // Headings are measured against the whole document's body size: a page of code has no body of its own.
    const scale = typeScale(pageItems);
    const pages = pageItems.map((items) => layoutPage(items, scale));
    const meta = await doc.getMetadata().catch(() => null);
    const info: object | undefined = meta?.info;
    const title = info && 'Title' in info && typeof info.Title === 'string' ? info.Title.trim() || null : null;
    return { title, pages: joinCodeAcrossPages(cleanPages(dropRunningLines(pages), title)) };
  } finally {
    await doc.destroy();
  }
}

/** A monospace face by its name: Noto Sans Mono, Liberation Mono, Courier, Consolas, Menlo, Fira Code. */
const MONO_FACE = /mono|courier|consol|menlo|code/i;

/**
 * Each page's text without boilerplate, and without paragraphs an earlier page already had (a
 * notice printed on every page is read once). A line that is only the document's title (after a
 * date) at the top or bottom of a page is the print header's.
 */
function cleanPages(pages: string[][], title: string | null): string[] {
  const seen = new Set<string>();
  return pages.map((lines, p) => {
    // With the date the browser prints before it ("12/6/26, 8:13 PM strip-ansi"): on one page, no
    // line recurs for the running header to be found by.
    const header = (l: string) => l.trim() === title || l.trim().replace(PRINT_DATE, '') === title;
    const kept = title ? lines.filter((l, i) => !((i < 3 || i >= lines.length - 3) && header(l))) : lines;
    // A copyright footer is the document's first or last lines; one on every page is a running line.
    const edges = { top: p === 0, bottom: p === pages.length - 1 };
    return cleanText(joinParagraphLines(withoutBoilerplate(kept, edges)), seen, edges).trim();
  });
}

/** A date and time as a browser's print header writes them: "12/6/26, 8:13 PM ". */
const PRINT_DATE = /^\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4},?\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?\s+/i;

const FENCE = '```';

/**
 * A code block or a table a page break cut in two is one: a page that opens with code while the page
 * before ended with code continues that block, so its lines join it there (the block is on the page
 * it starts on), and a page that opens with the header of the table the page before ended with
 * continues that table. A page of nothing but code passes the block on to the next.
 */
export function joinCodeAcrossPages(pages: string[]): string[] {
  const out = [...pages];
  let last = -1;
  for (let n = 0; n < out.length; n++) {
    const next = out[n];
    const close = next.startsWith(`${FENCE}\n`) ? next.indexOf(`\n${FENCE}`, FENCE.length) : -1;
    if (
      last >= 0 &&
      out[last].endsWith(`\n${FENCE}`) &&
      close >= 0 &&
      next.slice(close + 1 + FENCE.length, close + 2 + FENCE.length).trim() === ''
    ) {
      const lines = next.slice(FENCE.length + 1, close);
      out[last] = `${out[last].slice(0, -FENCE.length)}${lines}\n${FENCE}`;
      out[n] = next.slice(close + 1 + FENCE.length).trim();
    }
    // A table the break cut in two: the browser printed its header again on the next page.
    const head = /^(\|.*\|)\n(\|(?: *-+ *\|)+)\n/.exec(out[n]);
    if (last >= 0 && last !== n && head && out[last].endsWith(tailRow(out[last], head[1]))) {
      const rest = out[n].slice(head[0].length);
      const rows = /^(?:\|.*\|(?:\n|$))+/.exec(rest)?.[0] ?? '';
      out[last] = `${out[last]}\n${rows.trimEnd()}`;
      out[n] = rest.slice(rows.length).trim();
    }
    if (out[n]) last = n;
  }
  return out;
}

/**
 * The page's text ends with a table whose header is `header`: '\u0000' (never a suffix) otherwise,
 * else the table's last row (what the page ends with).
 */
function tailRow(page: string, header: string): string {
  const lines = page.split('\n');
  let k = lines.length - 1;
  while (k >= 0 && lines[k].startsWith('|')) k--;
  const table = lines.slice(k + 1);
  return table.length >= 3 && table[0] === header ? table[table.length - 1] : '\u0000';
}
