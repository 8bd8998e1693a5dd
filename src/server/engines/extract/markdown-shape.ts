import { checkTextLength, DOCUMENT_LIMITS, overLimit } from './limits.js';

/**
 * One linear pass over a text before the Markdown parser reads it (every text is read as Markdown
 * when it is chunked): micromark and the tree built from it cost time that grows with the square of
 * a block's nesting and of the emphasis and bracket marks in one paragraph, so a few kilobytes of
 * `- - - … x`, `>>>…` or `*x*x…` held a CPU worker for a minute. Over markdownMaxDepth or
 * markdownMaxInlineMarks the text is refused at once (413, naming the limit). Long lines need no
 * bound: markdown-pieces.ts cuts a line longer than a piece, so its cost stays linear.
 */
export function checkMarkdownShape(text: string): void {
  const maxDepth = DOCUMENT_LIMITS.markdownMaxDepth;
  const maxMarks = DOCUMENT_LIMITS.markdownMaxInlineMarks;
  // Content columns of the list items still open (a line indented to one continues it).
  const open: number[] = [];
  let fence: string | null = null;
  let marks = 0;
  let lineNo = 0;
  let at = 0;
  while (at <= text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    lineNo++;
    const fenceMark = fenceOf(text, at, end);
    if (fence !== null) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = null;
    } else if (fenceMark) fence = fenceMark;
    else {
      const line = { items: 0 };
      const depth = containerDepth(text, at, end, open, line);
      // A list item starts a paragraph of its own.
      if (line.items > 0) marks = 0;
      if (depth > maxDepth)
        throw overLimit(
          'markdownMaxDepth',
          `line ${lineNo} nests lists and block quotes ${depth} deep, deeper than the parser reads in time`,
        );
      if (isBlank(text, at, end)) marks = 0;
      else {
        for (let i = at; i < end; i++) if (INLINE_MARKS.has(text.charCodeAt(i))) marks++;
        if (marks > maxMarks)
          throw overLimit(
            'markdownMaxInlineMarks',
            `the paragraph ending on line ${lineNo} has more than ${maxMarks.toLocaleString('en-US')} emphasis and bracket marks (* _ ~ [ ])`,
          );
      }
    }
    at = end + 1;
  }
}

/** The text checks made before a text is chunked and indexed: its length, then its shape. */
export function checkDocumentText(text: string, what?: string): void {
  checkTextLength(text, what);
  checkMarkdownShape(text);
}

/** `*`, `_`, `~`, `[`, `]`: the marks micromark pairs up within a paragraph. */
const INLINE_MARKS = new Set([0x2a, 0x5f, 0x7e, 0x5b, 0x5d]);

const SPACE = 0x20;
const TAB = 0x09;

function isBlank(text: string, at: number, end: number): boolean {
  for (let i = at; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== 0x0d) return false;
  }
  return true;
}

/** The fence a line opens or closes (```` ``` ```` or `~~~`, up to three spaces in), else null. */
function fenceOf(text: string, at: number, end: number): string | null {
  let i = at;
  while (i < end && i - at < 3 && text.charCodeAt(i) === SPACE) i++;
  const c = text[i];
  if (c !== '`' && c !== '~') return null;
  let j = i;
  while (j < end && text[j] === c) j++;
  return j - i >= 3 ? text.slice(i, j) : null;
}

/**
 * How many lists and block quotes a line sits in: the quote and list markers it starts with, plus
 * the open list items whose content column its indentation reaches (nesting by indentation).
 */
function containerDepth(text: string, at: number, end: number, open: number[], line: { items: number }): number {
  let i = at;
  let column = 0;
  const skipSpace = () => {
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === SPACE) column++;
      else if (c === TAB) column += 4 - (column % 4);
      else break;
      i++;
    }
  };
  skipSpace();
  if (i >= end) return 0; // a blank line closes nothing by itself
  while (open.length && open[open.length - 1] > column) open.pop();
  let depth = open.length;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x3e /* > */) {
      i++;
      column++;
      depth++;
    } else {
      let j = i;
      if (c === 0x2d || c === 0x2a || c === 0x2b) j = i + 1;
      else {
        while (j < end && j - i < 9 && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x39) j++;
        if (j === i || (text[j] !== '.' && text[j] !== ')')) break;
        j++;
      }
      const after = text.charCodeAt(j);
      if (j < end && after !== SPACE && after !== TAB) break;
      column += j - i;
      i = j;
      depth++;
      line.items++;
      open.push(column + 1);
    }
    skipSpace();
    if (i >= end) break;
  }
  return depth;
}
