import { keywords } from './retrieval/fts-query.js';
import { answerIntent, comparedSubjects, FORM_WORDS, type AnswerIntent } from './answer-intent.js';
import { asksForFigure, cite, introOf, scoreUnit, stemsOf, tableAnswer, unitsOf, type Unit } from './answer-units.js';

/**
 * The local grounded writer: one implementation, used by the gateway's local grounded model (for
 * chat, conversations and /api/v1 alike) and by the answer writer when no gateway exists. It
 * answers in the form the question asks for (answer-intent.ts), says each thing once and cites
 * each sentence with its source's marker.
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

const MAX_SENTENCES = 4;
const MAX_POINTS = 6;

/** Deterministic: the same sources and question give the same answer. */
export function extractiveAnswer(req: ExtractiveRequest): string {
  if (req.passages.length === 0) {
    return `I found nothing about "${req.query.trim()}" in your LiveDocs. Add pages or documents that cover it, then ask again.`;
  }
  const intent = answerIntent(req.query);
  const want = new Set(
    stemsOf(
      keywords(req.query)
        .filter((w) => !FORM_WORDS.has(w))
        .join(' '),
    ),
  );
  const context = new Set(stemsOf(req.history.map((h) => h.query).join(' ')));
  const units = unitsOf(req.passages);
  const wantsFigure = asksForFigure(req.query);
  const scored = units
    .map((u) => ({ u, score: scoreUnit(u, want, context, wantsFigure) - u.ref * 0.01 }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.u.order - b.u.order);
  // What matches less than half as well as the best is beside the point.
  const ranked = scored.filter((x) => x.score >= scored[0]?.score / 2);
  const writers: Record<AnswerIntent, () => string | null> = {
    summary: () =>
      summary(
        units,
        ranked.map((x) => x.u),
        req.passages,
        want,
      ),
    list: () =>
      list(
        units,
        ranked.map((x) => x.u),
        want,
        req.passages,
      ),
    compare: () => compare(units, req.query, context),
    answer: () =>
      answer(
        units,
        ranked.map((x) => x.u),
        want,
      ),
  };
  const written =
    writers[intent]() ??
    (intent === 'answer'
      ? null
      : answer(
          units,
          ranked.map((x) => x.u),
          want,
        ));
  if (written) return written;
  const first = units.find((u) => u.kind === 'sentence');
  if (!first) return `Your sources have nothing I can quote about "${req.query.trim()}".`;
  const title = req.passages.find((p) => p.ref === first.ref)?.title ?? 'Your source';
  return `The closest source I found does not answer this directly. ${title} says: ${cite(first.text, first.ref)}`;
}

/** The best few units in the sources' order; a table among the best answers as the table. */
function answer(units: Unit[], best: Unit[], want: Set<string>): string | null {
  if (best.length === 0) return null;
  const top = best[0];
  if (top.kind === 'table') return tableAnswer(top, want, introOf(units, top));
  const picked = best
    .filter((u) => u.kind === 'sentence')
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.order - b.order);
  return `According to your sources: ${picked.map((u) => cite(u.text, u.ref)).join(' ')}`;
}

/** The main points: the lead sentence of each section, matching ones first, one source after another. */
function summary(units: Unit[], best: Unit[], passages: Passage[], want: Set<string>): string | null {
  // "Summarise the refund policy": the sources whose titles name what is asked about, when some do.
  const named = new Map(passages.map((p) => [p.ref, stemsOf(p.title).filter((w) => want.has(w)).length]));
  const most = Math.max(0, ...named.values());
  const inFocus = (u: Unit) => most === 0 || named.get(u.ref) === most;
  const leads = units.filter((u) => u.kind === 'sentence' && u.lead && inFocus(u));
  const matching = most > 0 ? [] : best.filter((u) => u.kind === 'sentence');
  const points = [...new Set([...matching, ...leads])].slice(0, MAX_POINTS).sort((a, b) => a.order - b.order);
  if (points.length === 0) return null;
  // The sources list names where each point comes from: the lead-in need not.
  return `In short:\n\n${points.map((u) => `- ${cite(u.text, u.ref)}`).join('\n')}`;
}

/** A list: the sources' own list items or table rows when they match, else the matching sentences, one per line. */
function list(units: Unit[], best: Unit[], want: Set<string>, passages: Passage[]): string | null {
  const table = best.find((u) => u.kind === 'table');
  if (table && best[0] === table) return tableAnswer(table, want, introOf(units, table));
  // "List the exceptions to the refund policy": the section titled with what is asked for (the words
  // that are not the document's own title) is the list.
  const titleWords = new Set(stemsOf(passages.map((p) => p.title).join(' ')));
  const focus = [...want].filter((w) => !titleWords.has(w));
  let section: Unit | undefined;
  let hits = 0;
  for (const u of units) {
    const n = u.sectionStems.filter((w) => focus.includes(w)).length;
    if (n > hits) [section, hits] = [u, n];
  }
  if (section) {
    const under = units.filter((u) => u.ref === section.ref && u.section === section.section);
    const table = under.find((u) => u.kind === 'table');
    if (table) return tableAnswer(table, want, introOf(units, table));
    return under.map((u) => `- ${cite(u.text, u.ref)}`).join('\n');
  }
  const items = best.filter((u) => u.kind === 'sentence' && u.item);
  const sentences = best.filter((u) => u.kind === 'sentence');
  const chosen = (items.length >= 2 ? items : sentences).slice(0, MAX_POINTS + 2);
  const picked = chosen.length > 0 ? chosen : units.filter((u) => u.kind === 'sentence' && u.lead).slice(0, MAX_POINTS);
  if (picked.length === 0) return table ? tableAnswer(table, want) : null;
  return picked
    .sort((a, b) => a.order - b.order)
    .map((u) => `- ${cite(u.text, u.ref)}`)
    .join('\n');
}

/** A comparison: each subject's best sentences under its name; a table holding both subjects' rows answers as that table. */
function compare(units: Unit[], query: string, context: Set<string>): string | null {
  const subjects = comparedSubjects(query);
  if (subjects.length < 2) return null;
  const wants = subjects.map((s) => new Set(stemsOf(s)));
  const table = units.find(
    (u) =>
      u.kind === 'table' && wants.every((w) => (u.rows ?? []).some((r) => stemsOf(r.join(' ')).some((x) => w.has(x)))),
  );
  if (table) return tableAnswer(table, new Set(wants.flatMap((w) => [...w])), 'Side by side');
  const used = new Set<Unit>();
  const parts: string[] = [];
  subjects.forEach((subject, i) => {
    const best = units
      .filter((u) => u.kind === 'sentence' && !used.has(u))
      .map((u) => ({ u, score: scoreUnit(u, wants[i], context) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score || a.u.order - b.u.order)
      .slice(0, 2)
      .map((x) => x.u)
      .sort((a, b) => a.order - b.order);
    best.forEach((u) => used.add(u));
    parts.push(
      `**${subject[0].toUpperCase()}${subject.slice(1)}**: ${best.length ? best.map((u) => cite(u.text, u.ref)).join(' ') : 'your sources say nothing about it.'}`,
    );
  });
  if (used.size === 0) return null;
  return parts.map((p) => `- ${p}`).join('\n');
}
