/**
 * Boilerplate a page or a printed document carries around its content: navigation, cookie banners,
 * "Click here", copyright and "Privacy · Terms" lines, and the running header and footer a browser
 * prints on every PDF page. Removed from the text retrieval, answers and generators read; the stored
 * original file is never touched.
 */

/** Elements that are never the content of a page: navigation, cookie or consent banners, page footers. */
export const BOILERPLATE_SELECTOR = [
  'nav',
  '[role="navigation"]',
  '[role="contentinfo"]',
  'footer',
  '[aria-label*="cookie" i]',
  '[aria-modal="true"]',
  '[id*="cookie" i]',
  '[class*="cookie" i]',
  '[id*="consent" i]',
  '[class*="consent" i]',
  '[class*="breadcrumb" i]',
  '[class*="skip-link" i]',
  '[class*="newsletter" i]',
  '[class*="share" i]',
].join(', ');

const LINK_WORDS =
  /^(privacy( policy| notice)?|terms( of (use|service))?|terms( & | and )conditions|cookies?( policy| settings| preferences)?|contact( us)?|imprint|impressum|sitemap|about( us)?|accessibility|legal|careers|help|faq|home|blog|press|status|security)$/i;
const SEPARATORS = /\s*(?:[·•|‧∙⋅]|\s-\s|\s–\s|\s{2,}|\t)\s*/;

/** A line's words, its links' text for the links and its Markdown marks left out. */
const bare = (line: string) =>
  line
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^[\s>*_#-]+|[\s*_]+$/g, '')
    .trim();

/** A copyright notice: a footer's ("© 2025 Example Inc."), or a licence's holder ("Copyright (c) 2018 Yusuke Kawasaki"). */
const isCopyright = (line: string) => {
  const s = bare(line);
  return s.length <= 160 && (/^(©|\(c\)|copyright\b)/i.test(s) || /\ball rights reserved\b/i.test(s));
};

/** Lines that are boilerplate wherever they appear (never a table row). */
export function isBoilerplateLine(line: string): boolean {
  const s = bare(line);
  if (!s || line.trim().startsWith('|')) return false;
  if (s.length > 160) return false;
  if (
    /^(click|tap) here\b/i.test(s) ||
    /^(skip to (main )?content|back to top|read more|learn more|accept( all)?( cookies)?|reject all|manage (cookies|preferences))[.!]?$/i.test(
      s,
    )
  )
    return true;
  if (isCopyright(line)) return true;
  if (
    /\bcookies?\b/i.test(s) &&
    /\b(we use|this (site|website) uses|accept|consent|by continuing|browsing experience)\b/i.test(s)
  )
    return true;
  if (/^page \d+( of \d+)?$/i.test(s) || /^\d+\s*(\/|of)\s*\d+$/i.test(s)) return true;
  // A print footer's address with its page counter; an address alone is content (a link the text gives).
  if (/^(https?:\/\/|www\.)\S+\s+\d+\s*\/\s*\d+$/i.test(s)) return true;
  // A date or time stamp alone, as a print header writes it ("11/26/26, 4:38 PM").
  if (/^\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4},?(\s+\d{1,2}:\d{2}(:\d{2})?(\s*[AP]M)?)?$/i.test(s)) return true;
  const parts = s.split(SEPARATORS).filter(Boolean);
  if (parts.length >= 2 && parts.every((p) => LINK_WORDS.test(p.trim()))) return true;
  return false;
}

/** Whether a text's first lines are its document's top, and its last lines its bottom (a page's may be neither). */
interface Edges {
  top: boolean;
  bottom: boolean;
}

/**
 * Lines without their boilerplate. A copyright notice is a footer's only among the first or last
 * lines: further in, it names a licence's holder ("Copyright (c) 2018-2025 Yusuke Kawasaki" over
 * the MIT License's text), which is content.
 */
export function withoutBoilerplate(lines: string[], edges: Edges = { top: true, bottom: true }): string[] {
  const filled = lines.flatMap((l, i) => (l.trim() ? [i] : []));
  const edge = new Set([
    ...(edges.top ? filled.slice(0, EDGE_LINES) : []),
    ...(edges.bottom ? filled.slice(-EDGE_LINES) : []),
  ]);
  return lines.filter((l, i) => !isBoilerplateLine(l) || (isCopyright(l) && !edge.has(i)));
}

/** Text without its boilerplate lines, and without the blank runs they leave. */
export function dropBoilerplateLines(text: string, edges?: Edges): string {
  return withoutBoilerplate(text.split('\n'), edges)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A line with its digits and spacing evened out: "Page 2 of 5" and "Page 3 of 5" compare equal. */
const shapeOf = (line: string) => line.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();

/** How many lines at the top and bottom of a page a running header or footer may take. */
const EDGE_LINES = 3;

/**
 * Pages (each a list of lines) without their running header and footer: a line near the top or
 * bottom of a page whose shape (digits aside) recurs near the edge of at least half of the pages,
 * two at the least. A one-page document keeps its lines, and so does one whose every line would go
 * (a document of short identical pages); pattern-matched boilerplate goes later.
 */
export function dropRunningLines(pages: string[][]): string[][] {
  if (pages.length < 2) return pages;
  const edges = (lines: string[]) => {
    const idx = new Set<number>();
    for (let i = 0; i < Math.min(EDGE_LINES, lines.length); i++) idx.add(i);
    for (let i = Math.max(0, lines.length - EDGE_LINES); i < lines.length; i++) idx.add(i);
    return idx;
  };
  const count = new Map<string, number>();
  for (const lines of pages) {
    const seen = new Set<string>();
    for (const i of edges(lines)) {
      const k = shapeOf(lines[i]);
      if (k && !seen.has(k)) {
        seen.add(k);
        count.set(k, (count.get(k) ?? 0) + 1);
      }
    }
  }
  const needed = Math.max(2, Math.ceil(pages.length / 2));
  const kept = pages.map((lines) => {
    const edge = edges(lines);
    const code = codeLineIndexes(lines);
    return lines.filter((l, i) => code.has(i) || !(edge.has(i) && (count.get(shapeOf(l)) ?? 0) >= needed));
  });
  // A header or footer frames other text: lines that are all a document has are its content.
  return kept.some((lines) => lines.some((l) => l.trim())) ? kept : pages;
}

/**
 * Lines of fenced code, fences included, and table rows: a page that starts or ends in code ("```",
 * "}") or in a table (whose header a browser prints again on each page) prints no running header there.
 */
function codeLineIndexes(lines: string[]): Set<number> {
  const out = new Set<number>();
  let fenced = false;
  lines.forEach((l, i) => {
    const fence = l.startsWith('```');
    if (fence || fenced || l.startsWith('|')) out.add(i);
    if (fence) fenced = !fenced;
  });
  return out;
}

/** Normalised text of a paragraph, for telling repeats apart from near-misses. */
export const paragraphKey = (p: string) =>
  p
    .replace(/[*_`>#]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/**
 * Paragraphs repeated within one document (a notice printed on every page, a block a page repeats)
 * kept once, at their first place; `seen` carries the paragraphs of a document's earlier pages.
 * Short lines (headings, table rows, "Yes") may repeat freely, and so may code: a fenced block is
 * one piece, blank lines and all (two examples ending in the same `regexp.exec("/test/route")`
 * lines had lost them and their closing fence).
 */
export function dropRepeatedParagraphs(text: string, seen = new Set<string>(), minChars = 40): string {
  return paragraphsOf(text)
    .filter((block) => {
      const k = paragraphKey(block);
      if (k.length < minChars || /^\s*(?:\||`{3,}|~{3,})/.test(block)) return true;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .join('\n\n');
}

/** A text's blocks between blank lines, a fenced code block whole. */
function paragraphsOf(text: string): string[] {
  const blocks: string[] = [];
  let lines: string[] = [];
  let fence = '';
  for (const line of text.split('\n')) {
    const mark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (!fence && !line.trim()) {
      if (lines.length) blocks.push(lines.join('\n'));
      lines = [];
      continue;
    }
    lines.push(line);
    if (fence && mark?.[0] === fence[0] && mark.length >= fence.length && !line.trim().slice(mark.length)) fence = '';
    else if (!fence && mark) fence = mark;
  }
  if (lines.length) blocks.push(lines.join('\n'));
  return blocks;
}

/**
 * All the text cleaning a document's readable text gets before it is stored and indexed; a page of
 * a paged document passes the paragraphs its earlier pages had (`seen`).
 */
export function cleanText(text: string, seen?: Set<string>, edges?: Edges): string {
  return dropRepeatedParagraphs(dropBoilerplateLines(text, edges), seen);
}
