import { keywords } from './retrieval/fts-query.js';
import { queryTopics, termsOf } from './query-analysis.js';
import { isProse } from './writer-text.js';
import { pointsBack, statementsOf } from '../text/statements.js';
import { definedTerms } from '../text/units.js';
import { isFlag } from '../text/terms.js';

/**
 * The local grounded model's outline: a Markdown mindmap written from the passages a call brings
 * (their titles become branches, their sentences most about the question become points, and a list
 * inside a sentence becomes sub-points). Deterministic, offline, and a pure function of its input,
 * like the extractive answer writer it sits beside.
 */
export interface OutlineRequest {
  query: string;
  passages: Array<{ title: string; content: string }>;
}

const MAX_BRANCHES = 7;
const POINTS_PER_BRANCH = 4;
/** Points of a branch the question names that lists definitions (a man page's options): a list, not a sample. */
const DEFINITIONS_PER_BRANCH = 8;
const MAX_POINT = 90;

/**
 * Whole sentences and list items of a passage as inline Markdown (the outline is Markdown: code
 * spans and characters such as `*` survive into the labels), never code blocks, tables or badges.
 */
function sentencesOf(text: string, leads: Map<string, string>): string[] {
  // A definition (a man page's option, an exit code) is one point that keeps its term: its first
  // sentence led by the term ("**-r number** — X and Y resolution…", a dash: a colon would read as a list), never the description alone.
  const termOf = definedTerms(text);
  const led = new Set<string>();
  const out: string[] = [];
  for (const s of statementsOf(text, 600)) {
    // A point stands alone: one pointing back ("This option is the default…") needs the one before it.
    if (pointsBack(s.text)) continue;
    const term = termOf.get(s.text);
    if (!term) out.push(s.markdown);
    else if (!led.has(term)) {
      led.add(term);
      const point = `${term} — ${s.markdown}`;
      leads.set(point, term);
      out.push(point);
    }
  }
  return out;
}

/** "Make a mind map about X" -> "X", first line, first letter upper case (but for a name), cut at a word. */
export function topicOf(query: string): string {
  let t = query.trim().split(/\n/)[0];
  t = t.replace(
    /^(please\s+)?(make|create|draw|build|generate|give me)\s+(me\s+)?(a\s+)?(mind\s*map|mindmap|map|outline|overview)\s+(of|about|on|for)\s+/i,
    '',
  );
  t = t.replace(/[?.!]+$/, '').trim();
  // A name written with marks (quick-lru, p-map, node.js) keeps its case: "Quick-lru" is no name.
  const named = /^[^\s]*[-._/@\d][^\s]*/.test(t);
  return wholeTitle(named ? t : t.charAt(0).toUpperCase() + t.slice(1)) || 'Mind map';
}

const MAX_TITLE = 120;
/** A title is the whole subject ("Options, exit codes and defaults"), never its first clause; a very long one is cut at a word. */
function wholeTitle(t: string): string {
  if ([...t].length <= MAX_TITLE) return t;
  const cut = [...t].slice(0, MAX_TITLE).join('');
  const word = cut.replace(/\s+\S*$/, '');
  return `${word.length >= MAX_TITLE / 2 ? word : cut}…`;
}

/**
 * A point's label: the sentence, or its first clause, cut at a word boundary. A definition's term is
 * kept whole before its description, which is shortened on its own: a cut at the term's dash would
 * leave the term alone ("-jpegopt jpeg-options"), the very label that says nothing.
 */
function pointLabel(s: string, leads: Map<string, string>): string {
  const term = leads.get(s);
  return term ? `${term} — ${shorten(s.slice(term.length + 3))}` : shorten(s);
}

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * "tail, tee and head options": when each topic opens with a source's name and only the last says
 * what of it, the others ask the same ("tail options", "tee options").
 */
function sharedNoun(topics: string[], passages: OutlineRequest['passages']): string[] {
  const sources = new Set(passages.flatMap((p) => wordsOf(p.title)));
  const last = topics.at(-1)?.split(/\s+/) ?? [];
  const named = (t: string) => sources.has(t.split(/\s+/)[0].toLowerCase());
  if (topics.length < 2 || last.length < 2 || !topics.every(named)) return topics;
  const what = last.slice(1).join(' ');
  return topics.map((t, i) => (i < topics.length - 1 && !/\s/.test(t) ? `${t} ${what}` : t));
}

/** A clause that closes every bracket it opens: "log formatting (see" is no clause to show. */
const balanced = (s: string) => (s.match(/[([{（]/g) ?? []).length === (s.match(/[)\]}）]/g) ?? []).length;

/** Words that open a clause which cannot stand alone. */
const SUBORDINATE = /^(?:if|when|unless|although|though|because|while|as|once|until|before|after)\b/i;

const PREPOSITION = /^(?:with|without|for|in|on|by|at|from|after|before|during|under|unlike|like|to|of)\b/i;

/** What follows a comma when the part before it is the subject of a verb, not a clause of its own. */
const VERB_FIRST = /^(?:is|are|was|were|has|have|had|can|cannot|could|will|would|must|should|may|might|does|do|did)\b/i;

/** Words a clause cannot end with: it goes on past the cut. */
const OPEN_END = /\b(?:via|to|by|with|for|of|in|at|from|on|into|the|an?|and|or)$/i;

/** A sentence, or its first clause, cut at a word boundary. */
function shorten(s: string, max = MAX_POINT): string {
  // A label is one line of the outline: a hard break (`\` or two spaces before a newline) is a space,
  // never a line of its own that the outline would read as another node.
  // A hard break already joined to its next line ("Type: `number`\ Default: …") is a space too.
  const clean = s
    .replace(/(?:\\|[ \t]{2,})?\n\s*/g, ' ')
    .replace(/(?<!\\)\\[ \t]+/g, ' ')
    .replace(/[.。;；,，]$/, '')
    .trim();
  if ([...clean].length <= max) return clean;
  // A clause that stands alone: up to a semicolon or dash first; a comma only when no part of what
  // it keeps opens with "If", "When"… ("For example, if file names are limited to 14 characters"):
  // a condition without what follows from it says something untrue.
  const strong = /^(.{25,}?)[;—–](\s|$)/.exec(clean);
  if (strong && [...strong[1]].length <= max && balanced(strong[1])) return strong[1].trim();
  const clause = /^(.{25,}?)[,:](\s|$)/.exec(clean);
  // A phrase opening with a preposition ("With --follow (-f)", "In most cases") says when or how, not what.
  const dependent = (c: string) => PREPOSITION.test(c) || c.split(/,\s*/).some((part) => SUBORDINATE.test(part));
  // Nor when the cut leaves a subject whose verb comes after it ("The default operation when X is
  // not specified, is to exit…") or a preposition without its object ("available locally via: info").
  const torn = (c: string, rest: string) => VERB_FIRST.test(rest) || OPEN_END.test(c);
  if (
    clause &&
    [...clause[1]].length <= max &&
    balanced(clause[1]) &&
    !dependent(clause[1]) &&
    !torn(clause[1], clean.slice(clause[0].length))
  )
    return clause[1].trim();
  const cut = [...clean].slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '') + '…';
}

/**
 * "Head: a, b and c" or "Options are a, b and c" -> a head and its items, when the items are short
 * enough to be labels; the head is what comes before the colon or the verb that opens the list.
 */
function listItems(s: string): { head: string; items: string[] } | null {
  const text = s.replace(/[.。]$/, '');
  const colon = /^([^:]{3,60}):\s*(.+)$/.exec(text);
  // "X is a, b and c" is rarely a list ("Every batch is 12 kg of iron, poured … and finished …"): plural verbs only.
  const lead = colon
    ? null
    : /^(.{3,60}?)\s+(?:are|were|include|includes|including|such as|covers?|consists? of)\s+(.+)$/i.exec(text);
  const found = colon ?? lead;
  if (!found) return null;
  const items = found[2]
    .split(/,\s*(?:and\s+|or\s+)?|;\s*|\s+and\s+|\s+or\s+|、/)
    .map((x) => x.trim())
    .filter(Boolean);
  if (items.length < 3 || items.some((x) => [...x].length > 48)) return null;
  // After a verb, a list is of short names ("lithium-ion batteries, pumped hydro and flow batteries"),
  // not the clauses of a sentence ("are accepted for any reason, as long as …").
  if (lead && items.some((x) => x.split(/\s+/).length > 3)) return null;
  return { head: found[1].trim(), items: items.slice(0, 5) };
}

/** A point's terms; a flag's definition (`-a, --append — …`) is about an option, whether or not it says so. */
const pointTerms = (s: string, leads: Map<string, string>) =>
  termsOf(isFlag(leads.get(s)?.replace(/[*_`\\]/g, '') ?? '') ? `${s} option flag` : s);

const count = (terms: string[], want: Set<string>) => terms.reduce((n, t) => n + (want.has(t) ? 1 : 0), 0);
const label = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * The passages' sections, a heading inside a passage starting a section of its own; sentences are
 * prose, each once. A heading several sources share (every man page's DESCRIPTION) is a section of
 * each, named with its source: tee's options are not tail's.
 */
function sectionsOf(
  passages: OutlineRequest['passages'],
  leads: Map<string, string>,
): Array<{ title: string; source: string; sentences: string[] }> {
  const sections = new Map<string, { heading: string; source: string; sentences: string[] }>();
  const seen = new Set<string>();
  for (const p of passages) {
    const source = p.title.trim() || 'Notes';
    let heading = source;
    let text = '';
    const flush = () => {
      const list = sentencesOf(text, leads).filter((s) => isProse(s) && !seen.has(s) && (seen.add(s), true));
      const key = JSON.stringify([heading, source]);
      if (list.length > 0)
        sections.set(key, { heading, source, sentences: [...(sections.get(key)?.sentences ?? []), ...list] });
      text = '';
    };
    for (const line of p.content.split('\n')) {
      const h = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line.trim());
      if (h) {
        flush();
        heading = h[1];
      } else text += line + '\n';
    }
    flush();
  }
  const all = [...sections.values()];
  const shared = (heading: string) => all.filter((x) => x.heading === heading).length > 1;
  return all.map(({ heading, source, sentences }) => ({
    title: shared(heading) ? `${heading} (${source})` : heading,
    source,
    sentences,
  }));
}

export function extractiveOutline(req: OutlineRequest): string {
  const topic = topicOf(req.query);
  const lines = [`# ${topic}`, ''];
  if (req.passages.length === 0) {
    // Nothing to ground on: the question's own parts, and what is missing, rather than invented facts.
    const parts = req.query
      .split(/[,;?\n]|\s+and\s+|\s+vs\.?\s+/i)
      .map((p) => p.trim())
      .filter((p) => keywords(p).length > 0);
    const branches = parts.length > 1 ? parts.map((p) => shorten(p, 60)) : keywords(req.query).slice(0, 5);
    for (const b of branches.slice(0, MAX_BRANCHES)) {
      lines.push(`## ${b.charAt(0).toUpperCase() + b.slice(1)}`);
      lines.push(`- No source in this LiveDoc covers "${b}" yet`);
      lines.push('- Add documents or pages about it, then draw the map again');
    }
    return lines.join('\n') + '\n';
  }
  // Branches: the query's topics first, in its order, each on the section that speaks of it most;
  // then the other sections (headings inside a passage count as sections), in ranked order.
  const leads = new Map<string, string>();
  const sections = sectionsOf(req.passages, leads);
  const all = new Set(termsOf(req.query));
  const branches: Array<{ title: string; sentences: string[]; want: Set<string>; named?: boolean }> = [];
  const taken = new Set<number>();
  for (const topic of sharedNoun(queryTopics(req.query), req.passages)) {
    const want = new Set(termsOf(topic));
    // A topic naming a source ("tee options") is drawn from that source's sections only.
    const named = new Set(sections.map((sec) => sec.source).filter((src) => termsOf(src).some((t) => want.has(t))));
    const scored = sections.map((sec, i) => ({
      i,
      score:
        taken.has(i) || (named.size > 0 && !named.has(sec.source))
          ? -1
          : 3 * count(termsOf(sec.title), want) +
            sec.sentences.reduce((n, x) => n + Math.min(1, count(pointTerms(x, leads), want)), 0),
    }));
    const best = scored.sort((a, b) => b.score - a.score || a.i - b.i)[0];
    if (!best || best.score <= 0) continue;
    taken.add(best.i);
    branches.push({ ...sections[best.i], want, named: true });
  }
  // So is the rest of a map whose query names one source: "ora options" draws no boxen section.
  const namedByQuery = new Set(sections.map((sec) => sec.source).filter((src) => termsOf(src).some((t) => all.has(t))));
  sections.forEach((sec, i) => {
    if (!taken.has(i) && (namedByQuery.size !== 1 || namedByQuery.has(sec.source)))
      branches.push({ ...sec, want: all });
  });
  // No label twice: a heading the root already says, or a point another branch already made, is left out.
  const used = new Set([label(topic)]);
  for (const b of branches.slice(0, MAX_BRANCHES + 3)) {
    if (lines.filter((l) => l.startsWith('## ')).length >= MAX_BRANCHES) break;
    // A heading is the document's own words: one too long for a branch is shown whole up to a point's length, not cut.
    const short = shorten(b.title, 60);
    const head = short.endsWith('…') ? shorten(b.title) : short;
    // A section headed like the map itself ("Storage" in a map of storage): its points are the branches.
    const flat = used.has(label(head));
    const [point, item] = flat ? ['## ', '- '] : ['- ', '  - '];
    // The branch a question names ("gzip options": OPTIONS) shows its definitions first, and more of them.
    const definitions = b.named && b.sentences.filter((s) => leads.has(s)).length > POINTS_PER_BRANCH;
    const picked = b.sentences
      .map((s, order) => ({
        s,
        order,
        score: 2 * count(termsOf(s), b.want) + count(termsOf(s), all) + (definitions && leads.has(s) ? 10 : 0),
      }))
      // A point is a whole sentence or a clause that stands alone: one that would have to be cut is left out.
      .filter((x) => !pointLabel(x.s, leads).endsWith('…') && !used.has(label(pointLabel(x.s, leads))))
      .sort((a, b2) => b2.score - a.score || a.order - b2.order)
      .slice(0, definitions ? DEFINITIONS_PER_BRANCH : POINTS_PER_BRANCH)
      .sort((a, b2) => a.order - b2.order);
    if (picked.length === 0) continue;
    if (!flat) {
      used.add(label(head));
      lines.push(`## ${head}`);
    }
    for (const { s } of picked) {
      const list = listItems(s);
      if (list && !used.has(label(list.head))) {
        used.add(label(list.head));
        lines.push(`${point}${list.head}`);
        for (const x of list.items) {
          const l = shorten(x, 48);
          if (l.endsWith('…') || used.has(label(l))) continue;
          used.add(label(l));
          lines.push(`${item}${l}`);
        }
      } else {
        used.add(label(pointLabel(s, leads)));
        lines.push(`${point}${pointLabel(s, leads)}`);
      }
    }
  }
  return lines.join('\n') + '\n';
}
