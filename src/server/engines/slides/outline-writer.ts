import { queryTopics, subjectOf, termsOf } from '../query-analysis.js';
import { isProse } from '../writer-text.js';
import { markdownToPlainText } from '../../text/markdown.js';
import { pointsBack, statementsOf } from '../../text/statements.js';
import { definedTerms } from '../../text/units.js';
import type { Outline } from './model.js';

/**
 * The local grounded model's slide outline: extractive and deterministic. Passages are grouped by
 * the section they come from. The query's topics come first, in its order, each taking the section
 * that speaks of it most; supporting sections follow until the deck has the slides it was asked
 * for, and a long section is split when there are too few. Points are the sentences that answer
 * best, each shown once in the deck; the takeaways are strong sentences no slide already shows.
 */
export interface OutlinePassage {
  ref: number;
  title: string;
  content: string;
  /** The resource the passage comes from (its link in the call's context). */
  source?: string;
}

const POINTS = 4;
const CJK = /[\u3400-\u9fff]/;
/** The longest point, in characters (a CJK character is one): a sentence longer is left out, never cut. */
const MAX_POINT = { latin: 180, cjk: 80 };

const overlap = (terms: string[], want: Set<string>) => terms.reduce((n, t) => n + (want.has(t) ? 1 : 0), 0);

interface Item {
  text: string;
  /** The statement as inline Markdown: the slide shows its bold and code as such (slides/runs.ts). */
  markdown: string;
  ref: number;
  terms: string[];
  order: number;
}
interface Group {
  title: string;
  titleTerms: string[];
  items: Item[];
  first: number;
  zh: boolean;
}
interface Slide {
  title: string;
  items: Item[];
  want: Set<string>;
}

/**
 * The statements of each passage (whole sentences and list items: never code, tables, badges or
 * link lists), grouped under the heading they sit under in the passage, or the passage's title.
 */
function groupsOf(passages: OutlinePassage[], short = false): Group[] {
  const groups = new Map<string, Group>();
  let order = 0;
  for (const p of passages) {
    // A chunk's title is its heading as written: the slide shows what a reader sees (no backticks or stars).
    const fallback = markdownToPlainText(p.title).trim() || `Source ${p.ref}`;
    const max = CJK.test(p.content) ? MAX_POINT.cjk : MAX_POINT.latin;
    // A sentence of a definition (a man page's option) names the term it describes, as the mindmap's do.
    const defined = definedTerms(p.content);
    // Each definition is one point, its first sentence under its term, as in the mindmap: a later
    // one ("If -f is not given, gzip prompts…") under the term reads as what the option does.
    const led = new Set<string>();
    for (const st of statementsOf(p.content, max, undefined, short)) {
      // A point stands alone: one pointing back ("These are used when…") needs the one before it.
      if (!isProse(st.text) || (!short && pointsBack(st.text))) continue;
      const term = defined.get(st.text);
      if (term && led.has(term)) continue;
      if (term) led.add(term);
      const key = st.section[st.section.length - 1] || fallback;
      const g = groups.get(key) ?? { title: key, titleTerms: termsOf(key), items: [], first: order, zh: CJK.test(key) };
      const text = term ? `${markdownToPlainText(term).trim()} — ${st.text}` : st.text;
      const markdown = term ? `${term} — ${st.markdown}` : st.markdown;
      g.items.push({ text, markdown, ref: p.ref, terms: termsOf(st.text), order: order++ });
      groups.set(key, g);
    }
  }
  // A section with a single sentence joins another section of the same source, so that no slide
  // carries one lonely point (a heading over a table, a closing remark).
  const sourceOf = new Map(passages.map((p) => [p.ref, p.source ?? p.title]));
  const list = [...groups.values()];
  for (const g of list.filter((x) => x.items.length < 2)) {
    const src = sourceOf.get(g.items[0].ref);
    const host = list.find(
      (h) => h !== g && groups.has(h.title) && h.items.length >= 2 && h.items.some((i) => sourceOf.get(i.ref) === src),
    );
    if (!host) continue;
    host.items.push(...g.items);
    groups.delete(g.title);
  }
  return [...groups.values()];
}

/** How much a section speaks of `want`: its heading counts three times a sentence. */
const groupScore = (g: Group, want: Set<string>) =>
  3 * overlap(g.titleTerms, want) + g.items.reduce((n, i) => n + Math.min(2, overlap(i.terms, want)), 0);

export function localOutline(input: { query: string; passages: OutlinePassage[]; maxSlides: number }): Outline {
  const target = Math.max(1, input.maxSlides);
  const zh = CJK.test(input.query);
  const all = new Set(termsOf(input.query));
  // A text with no whole sentence of three words (a short note) still makes its slide from what it says.
  const strict = groupsOf(input.passages);
  const groups = strict.length > 0 ? strict : groupsOf(input.passages, true);
  const slides: Slide[] = [];
  const used = new Set<Group>();
  // The query's topics first, in its order: each takes the section that speaks of it most.
  for (const topic of queryTopics(input.query)) {
    if (slides.length >= target) break;
    const want = new Set(termsOf(topic));
    const best = groups
      .filter((g) => !used.has(g))
      .map((g) => ({ g, score: groupScore(g, want) }))
      .sort((a, b) => b.score - a.score || a.g.first - b.g.first)[0];
    if (!best || best.score === 0) continue;
    used.add(best.g);
    slides.push({ title: best.g.title, items: best.g.items, want });
  }
  // Then supporting material in the query's language: what matches the whole query first, then source order.
  const rest = groups
    .filter((g) => !used.has(g))
    .sort((a, b) => groupScore(b, all) - groupScore(a, all) || a.first - b.first);
  for (const g of rest)
    if (slides.length < target && g.zh === zh) slides.push({ title: g.title, items: g.items, want: all });
  // Too few sections for the slides asked: the longest splits in two, each half a slide of its own.
  // Sections in another language come in only when the sources have nothing in the query's: a
  // shorter deck reads better than an English deck that ends on a Chinese slide.
  // Sources with nothing in the query's language give their own sections before any is split: a
  // Chinese deck on English documents shows their sections, not one section over six slides.
  const foreign = !groups.some((g) => g.zh === zh);
  const other = slides.length === 0 || foreign ? rest.filter((g) => g.zh !== zh) : [];
  while (slides.length < target) {
    const i = slides.reduce((at, s, j) => (s.items.length > (slides[at]?.items.length ?? 0) ? j : at), 0);
    const s = slides[i];
    if (!s || s.items.length < 4 || (foreign && other.length > 0)) {
      const g = other.shift();
      if (!g) break;
      slides.push({ title: g.title, items: g.items, want: all });
      continue;
    }
    const half = Math.ceil(s.items.length / 2);
    slides.splice(i, 1, { ...s, items: s.items.slice(0, half) }, { ...s, items: s.items.slice(half) });
  }
  numberRepeatedTitles(slides, zh);
  const shown = new Set<string>();
  const outSlides = slides.map((s) => {
    const picked = s.items
      .filter((i) => !shown.has(i.text))
      .map((i) => ({ i, score: 2 * overlap(i.terms, s.want) + overlap(i.terms, all) - i.ref * 0.05 }))
      .sort((a, b) => b.score - a.score || a.i.order - b.i.order)
      .filter((x, k, arr) => arr.findIndex((y) => y.i.text === x.i.text) === k)
      .slice(0, POINTS)
      .map((x) => x.i)
      .sort((a, b) => a.order - b.order);
    picked.forEach((i) => shown.add(i.text));
    return {
      title: s.title,
      points: picked.map((i) => i.markdown),
      sources: [...new Set(picked.map((i) => i.ref))],
    };
  });
  // A takeaway is a sentence on the query, from a source the slides cite, that no slide already
  // shows: the closing slide repeats nothing (and is left out when nothing is left to say).
  const cited = new Set(outSlides.flatMap((s) => s.sources));
  const takeaways = groups
    .flatMap((g) => g.items)
    .filter((i) => !shown.has(i.text) && cited.has(i.ref) && overlap(i.terms, all) > 0)
    .sort((a, b) => overlap(b.terms, all) - overlap(a.terms, all) || a.order - b.order)
    .filter((x, k, arr) => arr.findIndex((y) => y.text === x.text) === k)
    .slice(0, 3)
    .map((i) => i.markdown);
  // The sources the slides rest on, not every passage retrieved: the subtitle says what the deck cites.
  const sourceOf = new Map(input.passages.map((p) => [p.ref, p.source ?? p.title]));
  const sources = new Set(outSlides.flatMap((s) => s.sources).map((r) => sourceOf.get(r))).size || 1;
  const subject = subjectOf(input.query);
  return {
    title: subject.charAt(0).toUpperCase() + subject.slice(1),
    subtitle: zh ? `基于 ${sources} 个来源` : sources === 1 ? 'Based on 1 source' : `Based on ${sources} sources`,
    slides: outSlides.filter((s) => s.points.length > 0),
    takeaways,
  };
}

/**
 * Slides that share a section's title (a long section split over several) are numbered once each,
 * "Schedule (1/2)", "Schedule (2/2)": never a title repeated, never "(continued) (continued)".
 */
function numberRepeatedTitles(slides: Array<{ title: string }>, zh: boolean): void {
  const total = new Map<string, number>();
  for (const s of slides) total.set(s.title, (total.get(s.title) ?? 0) + 1);
  const seen = new Map<string, number>();
  for (const s of slides) {
    const n = total.get(s.title)!;
    if (n < 2) continue;
    const k = (seen.get(s.title) ?? 0) + 1;
    seen.set(s.title, k);
    s.title = zh ? `${s.title}（${k}/${n}）` : `${s.title} (${k}/${n})`;
  }
}

/** A slide's section: its title without the part number numberRepeatedTitles gave it ("Schedule"). */
export const sectionOf = (title: string) => title.replace(/\s*[（(]\d+\s*\/\s*\d+\s*[)）]$/, '');
