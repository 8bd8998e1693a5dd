import { stemmer } from 'stemmer';
import { keywords } from './retrieval/fts-query.js';

/**
 * The local grounded writer: one implementation, used by the gateway's local grounded model (for
 * chat, conversations and /api/v1 alike) and by the answer writer when no gateway exists.
 */

/** A retrieved passage the answer may cite as [ref]. */
export interface Passage {
  ref: number;
  title: string;
  link: string;
  content: string;
}

export interface ExtractiveRequest {
  query: string;
  passages: Passage[];
  /** Earlier questions of a thread: their words weigh a little, so a follow-up stays on topic. */
  history: Array<{ query: string; answer: string | null }>;
}

function sentences(text: string): string[] {
  return text
    .replace(/^#{1,6}\s+.*$/gm, ' ')
    .replace(/[*_`>]+/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .split(/(?<=[.!?])\s+|\n{2,}|\n(?=[-*]\s)/)
    .map((s) => s.replace(/\s+/g, ' ').replace(/^[-*]\s+/, '').trim())
    .filter((s) => s.length >= 10 && s.length <= 600);
}

/** Deterministic: the same sources and question give the same answer. */
export function extractiveAnswer(req: ExtractiveRequest): string {
  const want = new Set(keywords(req.query));
  const context = new Set(keywords(req.history.map((h) => h.query).join(' ')));
  if (req.passages.length === 0) {
    return `I found nothing about "${req.query.trim()}" in your LiveDocs. Add pages or documents that cover it, then ask again.`;
  }
  // Porter stems, as the FTS5 index uses: "live" and "lives" are one word.
  const stem = (w: string) => stemmer(w);
  const wantStems = new Set([...want].map(stem));
  const contextStems = new Set([...context].map(stem));
  const scored: Array<{ s: string; ref: number; score: number; order: number }> = [];
  let order = 0;
  for (const p of req.passages) {
    for (const s of sentences(p.content)) {
      const words = keywords(s).map(stem);
      let score = 0;
      for (const w of new Set(words)) score += wantStems.has(w) ? 2 : contextStems.has(w) ? 0.5 : 0;
      // Earlier passages ranked higher in retrieval; a small bonus keeps their order on ties.
      scored.push({ s, ref: p.ref, score: score - p.ref * 0.01, order: order++ });
    }
  }
  const picked = scored
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, 4)
    .sort((a, b) => a.ref - b.ref || a.order - b.order);
  if (picked.length === 0) {
    const first = req.passages[0];
    const lead = sentences(first.content)[0] ?? first.content.slice(0, 300);
    return `The closest source I found does not answer this directly. ${first.title} says: ${lead} [${first.ref}]`;
  }
  const body = picked.map((x) => `${/[.!?]$/.test(x.s) ? x.s : x.s + '.'} [${x.ref}]`).join(' ');
  return `According to your sources: ${body}`;
}
