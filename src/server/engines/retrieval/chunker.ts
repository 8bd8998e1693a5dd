/** A piece of a resource's text, small enough to be a useful excerpt and a fair bm25 document. */
export interface TextChunk {
  ordinal: number;
  page: number | null;
  title: string;
  content: string;
}

const TARGET_WORDS = 120;
const MAX_WORDS = 220;

/** Paragraphs, each with the nearest Markdown heading above it (kept as the chunk's title). */
function paragraphs(text: string): Array<{ heading: string; text: string }> {
  const out: Array<{ heading: string; text: string }> = [];
  let heading = '';
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const trimmed = block.trim();
    if (!trimmed) continue;
    const h = /^#{1,6}\s+(.+)$/m.exec(trimmed);
    if (h && trimmed.split('\n').length === 1) {
      heading = h[1].trim();
      continue;
    }
    out.push({ heading, text: trimmed });
  }
  return out;
}

function words(s: string): number {
  return s.split(/\s+/).filter(Boolean).length;
}

/** Splits a long paragraph on sentence ends so no chunk outgrows MAX_WORDS. */
function splitLong(text: string): string[] {
  if (words(text) <= MAX_WORDS) return [text];
  const sentences = text.match(/[^.!?\n]+(?:[.!?]+|\n|$)/g) ?? [text];
  const parts: string[] = [];
  let cur = '';
  for (const s of sentences) {
    if (cur && words(cur) + words(s) > MAX_WORDS) {
      parts.push(cur.trim());
      cur = '';
    }
    cur += s;
  }
  if (cur.trim()) parts.push(cur.trim());
  // A single run-on "sentence" longer than the limit is cut by words.
  return parts.flatMap((p) => {
    const w = p.split(/\s+/);
    if (w.length <= MAX_WORDS) return [p];
    const out: string[] = [];
    for (let i = 0; i < w.length; i += MAX_WORDS) out.push(w.slice(i, i + MAX_WORDS).join(' '));
    return out;
  });
}

/**
 * Packs paragraphs into chunks of about TARGET_WORDS words, never across a heading change, so an
 * excerpt reads as one passage about one topic.
 */
export function chunkText(
  text: string,
  options: { page?: number | null; defaultTitle?: string; startOrdinal?: number } = {},
): TextChunk[] {
  const chunks: TextChunk[] = [];
  let ordinal = options.startOrdinal ?? 0;
  let cur: string[] = [];
  let curHeading = '';
  const flush = () => {
    if (cur.length === 0) return;
    chunks.push({
      ordinal: ordinal++,
      page: options.page ?? null,
      title: curHeading || options.defaultTitle || '',
      content: cur.join('\n\n'),
    });
    cur = [];
  };
  for (const p of paragraphs(text)) {
    for (const piece of splitLong(p.text)) {
      if (cur.length > 0 && (p.heading !== curHeading || words(cur.join(' ')) + words(piece) > TARGET_WORDS)) flush();
      curHeading = p.heading;
      cur.push(piece);
    }
  }
  flush();
  return chunks;
}
