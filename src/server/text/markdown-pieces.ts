/**
 * A large Markdown text cut into pieces that parse on their own, so parsing costs memory in
 * proportion to a piece, not to the document (micromark holds every event of its input at once:
 * hundreds of bytes per character). A text under WHOLE_CHARS is one piece. Cuts fall at blank lines
 * outside fenced code; a run with no blank line for twice the piece size (a long list, table or
 * fence) is cut at a line, a fence closed there and opened again in the next piece; a line longer
 * than a piece is cut at a space; a list of more than LIST_ITEMS items is cut before a top-level item. What a cut costs: a link reference defined in another piece is
 * not resolved, and a table or list cut in two reads as two.
 */
export const WHOLE_CHARS = 256 * 1024;
const PIECE_CHARS = 64 * 1024;
/**
 * List item lines (at any level) a piece holds at most, at any size of text: micromark's time grows with the
 * square of a list's items when they hold lists (a few thousand lines of `- a` / `  - b` took
 * seconds), so a longer list is cut before a top-level item and reads as consecutive lists.
 */
export const LIST_ITEMS = 100;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ITEM = /^ {0,3}(?:>[ \t]?)*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const ANY_ITEM = /^[ \t]*(?:>[ \t]?)*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;

export function* markdownPieces(markdown: string): Generator<string> {
  const whole = markdown.length <= WHOLE_CHARS;
  if (whole && !hasLongList(markdown)) {
    yield markdown;
    return;
  }
  let lines: string[] = [];
  let size = 0;
  let fence: { line: string; marker: string } | null = null;
  let items = 0;
  const flush = function* (): Generator<string> {
    if (size === 0) return;
    yield (fence ? [...lines, fence.marker] : lines).join('\n');
    lines = fence ? [fence.line] : [];
    size = fence ? fence.line.length + 1 : 0;
    items = 0;
  };
  for (const line of markdown.split('\n')) {
    const open = FENCE.exec(line);
    if (fence) {
      if (
        open &&
        open[1][0] === fence.marker[0] &&
        open[1].length >= fence.marker.length &&
        !line.slice(open[0].length).trim()
      )
        fence = null;
    } else if (open) fence = { line, marker: open[1] };
    if (line.length > PIECE_CHARS) {
      yield* flush();
      for (const part of cutLine(line)) {
        lines.push(part);
        size += part.length + 1;
        yield* flush();
      }
      continue;
    }
    if (!fence && ANY_ITEM.test(line)) items++;
    const listBreak = !fence && items > LIST_ITEMS && ITEM.test(line);
    const blankBreak = !whole && !fence && !line.trim() && size >= PIECE_CHARS;
    if (listBreak || blankBreak || (!whole && size + line.length >= 2 * PIECE_CHARS)) yield* flush();
    if (listBreak) items = 1;
    lines.push(line);
    size += line.length + 1;
  }
  fence = null;
  yield* flush();
}

/** Whether a text has more list item lines than one piece holds (a cheap count before any cutting). */
function hasLongList(markdown: string): boolean {
  let items = 0;
  for (const line of markdown.split('\n')) if (ANY_ITEM.test(line) && ++items > LIST_ITEMS) return true;
  return false;
}

/** A line longer than a piece, in parts cut at the last space before each piece's end (or at the end). */
function cutLine(line: string): string[] {
  const parts: string[] = [];
  let start = 0;
  while (line.length - start > PIECE_CHARS) {
    const space = line.lastIndexOf(' ', start + PIECE_CHARS);
    const end = space > start ? space + 1 : start + PIECE_CHARS;
    parts.push(line.slice(start, end));
    start = end;
  }
  parts.push(line.slice(start));
  return parts;
}
