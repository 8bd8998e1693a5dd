import LineBreaker from 'linebreak';

/**
 * THE line breaker for rendered text (slides, mindmaps, illustration captions): break opportunities
 * come from UAX #14 (`linebreak`: after spaces and hyphens, between CJK characters, never before
 * closing punctuation), and lines are filled greedily while `fits(line)` holds for the caller's own
 * measure (glyph advances, or a character count). A piece wider than a line on its own is cut by
 * characters; a newline in the text ends a line. Lines come back trimmed.
 */
export function breakLines(text: string, fits: (line: string) => boolean): string[] {
  const lines: string[] = [];
  let line = '';
  const push = () => {
    if (line.trim()) lines.push(line.trim());
    line = '';
  };
  for (const { piece, required } of pieces(text)) {
    if (fits((line + piece).trimEnd())) line += piece;
    else {
      push();
      if (fits(piece.trimEnd())) line = piece;
      else {
        // One piece wider than the line: cut it by characters.
        for (const ch of piece.trimEnd()) {
          if (line && !fits(line + ch)) push();
          line += ch;
        }
        if (piece.endsWith(' ')) line += ' ';
      }
    }
    if (required) push();
  }
  push();
  return lines;
}

/** The text between break opportunities, each with the whitespace that follows it. */
function* pieces(text: string): Generator<{ piece: string; required: boolean }> {
  const breaker = new LineBreaker(text);
  let last = 0;
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    const piece = text.slice(last, bk.position);
    last = bk.position;
    // A hard break's newline is the break itself, not text on the line.
    yield { piece: bk.required ? piece.replace(/[\r\n\u2028\u2029\v\f\u0085]+$/, '') : piece, required: bk.required };
  }
}
