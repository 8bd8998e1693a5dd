import { stemmer } from 'stemmer';
import { keywords } from '../retrieval/fts-query.js';
import type { Outline } from './model.js';

/**
 * The local grounded model's slide outline: extractive and deterministic. Passages are grouped by
 * the section they come from; the groups that answer the query best become slides, each with the
 * sentences that answer it best as points; the best point of each slide becomes a takeaway.
 */
export interface OutlinePassage {
  ref: number;
  title: string;
  content: string;
  /** The resource the passage comes from (its link in the call's context). */
  source?: string;
}

const MAX_POINT_WORDS = 28;

function sentences(text: string): string[] {
  return text
    .replace(/^\s*\|.*\|\s*$/gm, ' ') // table rows become charts, not points
    .replace(/^#{1,6}\s+.*$/gm, ' ')
    .replace(/[*_`>]+/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .split(/(?<=[.!?])\s+|(?<=[。！？])\s*|\n{2,}|\n(?=[-*]\s)/)
    .map((s) => s.replace(/\s+/g, ' ').replace(/^[-*]\s+/, '').trim())
    // A sentence of Chinese says in 6 characters what English needs 12 for.
    .filter((s) => (s.length >= 12 || (/[\u3400-\u9fff]/.test(s) && s.length >= 6)) && s.length <= 400 && !/^[\d\s,.;:|%-]+$/.test(s));
}

/** A long sentence cut at a clause boundary, or at MAX_POINT_WORDS words, so a point reads as one line or two. */
function tighten(s: string): string {
  const words = s.split(' ');
  if (words.length <= MAX_POINT_WORDS) return s;
  const head = words.slice(0, MAX_POINT_WORDS).join(' ');
  const clause = head.search(/[,;:—–](?=[^,;:—–]*$)/);
  const cut = clause > head.length * 0.5 ? head.slice(0, clause) : head;
  return cut.replace(/[\s,;:—–-]+$/, '') + '…';
}

function titleCase(query: string): string {
  const q = query.trim().replace(/[?？。.!！]+$/, '');
  return q.charAt(0).toUpperCase() + q.slice(1);
}

export function localOutline(input: { query: string; passages: OutlinePassage[]; maxSlides: number }): Outline {
  const want = new Set(keywords(input.query).map((w) => stemmer(w)));
  type Scored = { text: string; ref: number; score: number; order: number };
  const groups = new Map<string, { title: string; refs: Set<number>; items: Scored[]; best: number; first: number }>();
  let order = 0;
  for (const p of input.passages) {
    const key = p.title.trim() || `Source ${p.ref}`;
    const g = groups.get(key) ?? { title: key, refs: new Set<number>(), items: [], best: -Infinity, first: order };
    for (const s of sentences(p.content)) {
      const words = new Set(keywords(s).map((w) => stemmer(w)));
      let score = 0;
      for (const w of words) if (want.has(w)) score += 2;
      // Earlier passages ranked higher in retrieval; earlier sentences usually lead their passage.
      score -= p.ref * 0.05 + (order - g.first) * 0.001;
      g.items.push({ text: s, ref: p.ref, score, order: order++ });
    }
    if (g.items.length === 0) continue;
    g.refs.add(p.ref);
    g.best = Math.max(g.best, ...g.items.map((i) => i.score));
    groups.set(key, g);
  }
  // A section with a single sentence joins another section of the same source, so that no slide
  // carries one lonely point (a heading over a table, a closing remark).
  const sourceOf = new Map(input.passages.map((p) => [p.ref, p.source ?? p.title]));
  const list = [...groups.values()];
  for (const g of list.filter((x) => x.items.length < 2)) {
    const src = sourceOf.get([...g.refs][0]);
    const host = list.find((h) => h !== g && h.items.length >= 2 && [...h.refs].some((r) => sourceOf.get(r) === src));
    if (!host) continue;
    host.items.push(...g.items);
    g.refs.forEach((r) => host.refs.add(r));
    host.best = Math.max(host.best, g.best);
    groups.delete(g.title);
  }
  const chosen = [...groups.values()].sort((a, b) => b.best - a.best || a.first - b.first).slice(0, Math.max(1, input.maxSlides));
  // Slides keep the order of the sources, which is usually the order of the argument.
  chosen.sort((a, b) => a.first - b.first);
  const slides = chosen.map((g) => {
    const seen = new Set<string>();
    const picked = g.items
      .slice()
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .filter((i) => (seen.has(i.text) ? false : (seen.add(i.text), true)))
      .slice(0, 4)
      .sort((a, b) => a.order - b.order);
    return { title: g.title, points: picked.map((i) => tighten(i.text)), sources: [...new Set(picked.map((i) => i.ref))] };
  });
  const takeaways = chosen
    .map((g) => g.items.slice().sort((a, b) => b.score - a.score || a.order - b.order)[0])
    .filter((x): x is Scored => Boolean(x))
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .map((i) => tighten(i.text));
  const sources = new Set(input.passages.map((p) => p.source ?? p.title)).size;
  const zh = /[\u3400-\u9fff]/.test(input.query);
  return {
    title: titleCase(input.query),
    subtitle: zh ? `基于 ${sources} 个来源` : sources === 1 ? 'Based on 1 source' : `Based on ${sources} sources`,
    slides,
    takeaways,
  };
}
