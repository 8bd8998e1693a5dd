import {
  headingTexts,
  inlineMarkdown,
  markdownBlocks,
  withoutNavigation,
  type Block,
  type Cell,
} from '../../text/markdown.js';
import { indexText, inlineSentenceRanges, sliceInline, words } from '../../text/segment.js';
import { isLabel, isTerm } from '../../text/term-paragraph.js';

/** A piece of a resource's text, small enough to be a useful excerpt and a fair bm25 document. */
export interface TextChunk {
  ordinal: number;
  page: number | null;
  title: string;
  /** The headings the chunk sits under, outermost first (its title last, when a heading gives it). */
  headings?: string[];
  /** Markdown: code verbatim in fences, tables as tables, inline code and links kept. */
  content: string;
  /**
   * The content's words for the full-text index when its script has no spaces (segment.ts's
   * indexText), found where the chunk is cut (a CPU worker) rather than on the event loop.
   */
  searchContent?: string | null;
}

const TARGET_WORDS = 120;
const MAX_WORDS = 220;

const wordCount = (s: string) => words(s).length;

/** A piece of a chunk: Markdown and its word count (each counted once: segmenting is the costly step). */
interface Piece {
  markdown: string;
  words: number;
}

const counted = (markdown: string): Piece => ({ markdown, words: wordCount(markdown) });

/** A block as Markdown pieces of at most MAX_WORDS words: a long table repeats its header, long code is cut at lines. */
function pieces(block: Block): Piece[] {
  return block.kind === 'table' || block.kind === 'code' ? blockPieces(block).map(counted) : prosePieces(block);
}

/** A table or code block as Markdown pieces (see pieces). */
function blockPieces(block: Block): string[] {
  if (block.kind === 'table') {
    // Compact rows (`| a | b |`, no padding): what extraction writes and what a reader searches for.
    if (wordCount(block.text) <= MAX_WORDS) return [tableMarkdown(block.header, block.rows)];
    const out: string[] = [];
    let rows: Cell[][] = [];
    const flush = () => {
      if (rows.length) out.push(tableMarkdown(block.header, rows));
      rows = [];
    };
    for (const row of block.rows) {
      if (
        rows.length &&
        wordCount(
          [...rows, row]
            .flat()
            .map((c) => c.text)
            .join(' '),
        ) > MAX_WORDS
      )
        flush();
      rows.push(row);
    }
    flush();
    return out;
  }
  if (block.kind === 'code') {
    if (wordCount(block.value) <= MAX_WORDS) return [block.markdown];
    const out: string[] = [];
    let lines: string[] = [];
    for (const line of block.value.split('\n')) {
      if (lines.length && wordCount([...lines, line].join('\n')) > MAX_WORDS) {
        out.push(fence(lines.join('\n'), block.lang));
        lines = [];
      }
      lines.push(line);
    }
    if (lines.length) out.push(fence(lines.join('\n'), block.lang));
    return out;
  }
  return [block.markdown];
}

/** Past this many characters a prose block is taken to be long, and its sentences are counted first. */
const LONG_CHARS = 20 * MAX_WORDS;

/**
 * A prose block as Markdown pieces (see pieces). Its Markdown has every word of its text (and a
 * link's address besides): when that fits, the text does, and one count serves both. A long block
 * is counted by its sentences, once, and cut between them.
 */
function prosePieces(block: Block): Piece[] {
  const markdown =
    block.kind === 'listItem'
      ? `${'  '.repeat(block.depth - 1)}${block.ordered ? '1.' : '-'} ${block.markdown}`
      : block.markdown;
  const whole = markdown.length <= LONG_CHARS ? counted(markdown) : null;
  if (whole && whole.words <= MAX_WORDS) return [whole];
  if (!block.inline) return [whole ?? counted(markdown)];
  // Cut between sentences, never inside one (nor inside a code span); Markdown is written once
  // per piece, not per sentence: writing it is the costly step.
  const inline = block.inline;
  const sentences = inlineSentenceRanges(inline).map((s) => ({ ...s, n: wordCount(s.text) }));
  if (sentences.reduce((sum, s) => sum + s.n, 0) <= MAX_WORDS) return [whole ?? counted(markdown)];
  const out: Piece[] = [];
  let from = -1;
  let to = 0;
  let words = 0;
  const cut = () => {
    if (from >= 0) out.push({ markdown: inlineMarkdown(sliceInline(inline, from, to)), words });
  };
  for (const s of sentences) {
    if (from >= 0 && words + s.n > MAX_WORDS) {
      cut();
      from = -1;
      words = 0;
    }
    if (from < 0) from = s.start;
    to = s.end;
    words += s.n;
  }
  cut();
  return out;
}

/** A fence longer than any run of backticks in the code, so the code is quoted verbatim. */
function fence(code: string, lang: string | null): string {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((r) => r.length));
  const mark = '`'.repeat(longest + 1);
  return `${mark}${lang ?? ''}\n${code}\n${mark}`;
}

function tableMarkdown(header: Cell[], rows: Cell[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(header.map((c) => c.markdown)),
    line(header.map(() => '---')),
    ...rows.map((r) => line(r.map((c) => c.markdown))),
  ].join('\n');
}

/** Where a term's description stands after `block`: led into a list, in it, or just after it. */
function listedAfter(
  listed: { term: Piece[]; at: 'description' | 'list' | 'after' } | undefined,
  block: Block,
  last: Block | undefined,
  terms: Piece[],
): typeof listed {
  if (isTerm(block)) return undefined;
  if (last && isTerm(last) && block.kind === 'paragraph' && /[:：]\s*$/.test(block.text))
    return { term: terms, at: 'description' };
  if (listed && listed.at !== 'after' && block.kind === 'listItem') return { ...listed, at: 'list' };
  if (listed?.at === 'list' && block.kind === 'paragraph') return { ...listed, at: 'after' };
  return undefined;
}

/** Blocks a reader reads as content: headings set the section; badges, images, empty HTML and a table of contents carry none. */
const isContent = (b: Block) =>
  b.kind !== 'heading' && b.kind !== 'badge' && b.kind !== 'image' && (b.kind !== 'html' || b.text.trim() !== '');

/** The headings a block sits under; a heading's own section ends with it. */
const sectionOf = (b: Block) => (b.kind === 'heading' ? [...b.section, b.text] : b.section);

/**
 * The chunks of a paged document (a PDF), each with its page: a page that opens in the middle of a
 * section (a table the break cut, a heading at the foot of the page before) is still under that
 * section's heading.
 */
export function chunkPages(pages: string[]): TextChunk[] {
  const chunks: TextChunk[] = [];
  let section: string | undefined;
  // The headings open at the page's end, with their levels: a page reads its own headings alone.
  let open: Array<{ depth: number; text: string }> = [];
  const paged = pages.map((text) => markdownBlocks(text));
  const headings = headingTexts(paged.flat());
  pages.forEach((text, i) => {
    const blocks = paged[i];
    const depths = new Map(blocks.flatMap((b) => (b.kind === 'heading' ? [[b.text, b.depth] as const] : [])));
    const carried = open.map((h) => h.text);
    for (const c of chunkText(text, {
      page: i + 1,
      startOrdinal: chunks.length,
      defaultTitle: section,
      defaultHeadings: carried,
      headings,
    })) {
      // Under a heading of this page, the headings still open above its level come first.
      const depth = c.headings !== carried && c.headings?.length ? depths.get(c.headings[0]) : undefined;
      if (depth !== undefined) c.headings = [...open.filter((h) => h.depth < depth).map((h) => h.text), ...c.headings!];
      chunks.push(c);
    }
    for (const b of blocks) {
      const heading = b.kind === 'heading' ? b.text : b.section.at(-1);
      if (heading) section = heading;
      if (b.kind !== 'heading') continue;
      open = [...open.filter((h) => h.depth < b.depth), { depth: b.depth, text: b.text }];
    }
  });
  return chunks;
}

/**
 * Packs a document's blocks (parsed as Markdown) into chunks of about TARGET_WORDS words, never
 * across a heading change, so an excerpt reads as one passage about one topic. A table or a code
 * block stays whole (a very long one is cut at rows or lines), and list items keep their marks.
 */
export function chunkText(
  text: string,
  options: {
    page?: number | null;
    defaultTitle?: string;
    defaultHeadings?: string[];
    startOrdinal?: number;
    /** The whole document's headings, when the text is one page of it: a table of contents names them. */
    headings?: Set<string>;
  } = {},
): TextChunk[] {
  const chunks: TextChunk[] = [];
  let ordinal = options.startOrdinal ?? 0;
  let cur: string[] = [];
  let curWords = 0;
  let curHeading = '';
  let curPath: string[] = [];
  /** The last pieces pushed, while they are terms or labels: they go on to the next chunk with what they name. */
  let terms: Piece[] = [];
  /**
   * A term whose description leads into a list ("…the following arguments:"), and where its
   * description is: the paragraph after the list still describes it (as units.ts reads it).
   */
  let listed: { term: Piece[]; at: 'description' | 'list' | 'after' } | undefined;
  /** The last content block: a list item, or the sentence leading into a list ("… the following:"). */
  let last: Block | undefined;
  const flush = () => {
    if (cur.length === 0) return;
    const content = cur.join('\n\n');
    chunks.push({
      ordinal: ordinal++,
      page: options.page ?? null,
      title: curHeading || options.defaultTitle || '',
      headings: curHeading ? curPath : (options.defaultHeadings ?? []),
      content,
      searchContent: indexText(content),
    });
    cur = [];
    curWords = 0;
    terms = [];
  };
  const blocks = markdownBlocks(text);
  for (const block of withoutNavigation(blocks, options.headings ?? headingTexts(blocks))) {
    const heading = block.kind === 'heading' ? block.text : (block.section.at(-1) ?? '');
    if (heading !== curHeading) {
      flush();
      curHeading = heading;
    }
    curPath = sectionOf(block);
    if (!isContent(block)) continue;
    // A list's items stay together, with the sentence leading into them, up to MAX_WORDS rather
    // than TARGET_WORDS: an excerpt holding half a list answers "which kinds…" with half of them.
    const listGoesOn =
      block.kind === 'listItem' &&
      (last?.kind === 'listItem' || (last?.kind === 'paragraph' && /[:：]\s*$/.test(last.text)));
    const limit = listGoesOn ? MAX_WORDS : TARGET_WORDS;
    listed = listedAfter(listed, block, last, terms);
    last = block;
    for (const piece of pieces(block)) {
      // Terms and labels stay with the paragraph they name: an excerpt of `-r --recursive`'s
      // description that lost its term cannot say which option it describes.
      if (cur.length > terms.length && curWords + piece.words > limit) {
        const carried = terms;
        cur.splice(cur.length - carried.length);
        curWords -= carried.reduce((sum, p) => sum + p.words, 0);
        flush();
        // An excerpt opening in the middle of a description ("The default mail command is…", past
        // the list it leads into) names its term again, or it would describe nothing.
        for (const p of carried.length === 0 && listed?.at === 'after' ? listed.term : []) {
          cur.push(p.markdown);
          curWords += p.words;
        }
        for (const p of carried) {
          cur.push(p.markdown);
          curWords += p.words;
        }
        terms = carried;
      }
      cur.push(piece.markdown);
      curWords += piece.words;
      terms = isTerm(block) || (block.kind === 'paragraph' && isLabel(block.text)) ? [...terms, piece] : [];
    }
  }
  flush();
  return chunks;
}
