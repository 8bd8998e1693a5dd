import type { MeterScope, ModelGateway } from '../gateway-types.js';
import {
  ICONS,
  PLAN_LIMITS,
  PLAN_PROMPT,
  readModelPlan,
  triedJson,
  type FaqEntry,
  type IconName,
  type ModelPlan,
  type PagePlan,
  type PageSection,
  type PageSource,
} from './plan.js';
import { stemmer } from 'stemmer';
import { keywords } from '../retrieval/fts-query.js';
import { aboutNamedSources } from '../retrieval/named-sources.js';
import { subjectOf } from '../query-analysis.js';
import {
  clip,
  iconFor,
  keyNumbers,
  languageOf,
  ownDescription,
  pageProse,
  sentences,
  titleFromQuery,
  withoutCitations,
  type PagePassage,
} from './text.js';
import { isProse } from '../writer-text.js';
import { markdownBlocks } from '../../text/markdown.js';
import { looksLikeCode } from '../../text/statements.js';
import { answerItems, sectionTable } from './section-blocks.js';

export interface PlanRequest {
  query: string;
  passages: PagePassage[];
  gateway: ModelGateway;
  /** Who pays for the model calls (operation 'landing_page'). */
  scope: MeterScope;
  /** A catalog model id; omitted = the platform's default (the local grounded model). */
  model?: string;
  signal?: AbortSignal;
  log?: (line: string) => Promise<void> | void;
}

const contextOf = (passages: PagePassage[]) =>
  passages.map((p) => ({ id: String(p.ref), title: p.section || p.title, content: p.content, link: p.link }));

const sourceBlock = (passages: PagePassage[]) =>
  passages
    .map((p) => `[${p.ref}] ${p.title}${p.section && p.section !== p.title ? ` — ${p.section}` : ''}\n${p.content}`)
    .join('\n\n');

/** One resource, one source: citations number resources, in the order retrieval ranked them. */
function sourcesOf(passages: PagePassage[]): PageSource[] {
  const byRef = new Map<number, PageSource>();
  for (const p of passages)
    if (!byRef.has(p.ref)) byRef.set(p.ref, { ref: p.ref, title: p.title, resourceId: p.resourceId, link: p.link });
  return [...byRef.values()].sort((a, b) => a.ref - b.ref);
}

/**
 * Sentences of an answer with their citations kept: "A. [1] B. [2]" → ["A. [1]", "B. [2]"]. A
 * sentence ends at white space after . ! ? … 。！？ and any citations, before a word. One pass over the
 * text's tokens: the look-behind this replaces rescanned every citation before each space
 * (quadratic in a run of citations).
 */
export function citedSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let ended = false;
  for (const m of text.matchAll(/\s+|\[\d+\]|[^\s[]+|\[/g)) {
    const token = m[0];
    if (/^\s/.test(token)) {
      const next = text[m.index + token.length];
      if (ended && next !== undefined && next !== '[') {
        out.push(text.slice(start, m.index));
        start = m.index + token.length;
        ended = false;
      }
    } else if (!/^\[\d+\]$/.test(token)) {
      // A citation keeps the sentence's end; anything else decides it.
      ended = /[.!?…。！？]$/.test(token);
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

/**
 * Citations that point at no source are dropped: a page never links to a source it does not list.
 * A match starts only where a run of white space does ((?<!\s)): from every position inside a long
 * indentation, `\s*\[` rescanned the rest of the run (quadratic in its length).
 */
export function keepKnownCitations(text: string, refs: Set<number>): string {
  return text.replace(/(?<!\s)\s*\[(\d+)\]/g, (m, n: string) => (refs.has(Number(n)) ? m : ''));
}

/** The part of a model reply that is read (PLAN_LIMITS.replyChars). */
const bounded = (text: string) => (text.length > PLAN_LIMITS.replyChars ? text.slice(0, PLAN_LIMITS.replyChars) : text);

/**
 * Groups of passages a section is written from: one per heading, in rank order. Resources that share
 * a heading ("Costs" in several reports) make one section citing each of them, not several sections
 * of the same name.
 */
function sectionGroups(passages: PagePassage[]): Array<{ heading: string; passages: PagePassage[] }> {
  const groups = new Map<string, { heading: string; passages: PagePassage[] }>();
  for (const p of passages) {
    if (p.section.trim().endsWith('?')) continue; // a question heading belongs in the FAQ
    const heading = p.section.trim() || p.title;
    const key = heading.toLowerCase();
    const g = groups.get(key) ?? { heading, passages: [] };
    g.passages.push(p);
    groups.set(key, g);
  }
  return [...groups.values()].slice(0, PLAN_LIMITS.sections);
}

/**
 * The passages a page is written from (aboutNamedSources): a page about one thing takes no section,
 * figure, question or source from another document of its LiveDoc. The sources left are numbered
 * 1, 2, … again, in their order.
 */
function focusPassages(passages: PagePassage[], query: string): PagePassage[] {
  const kept = aboutNamedSources(passages, subjectOf(query), (p) => ({
    source: p.resourceId,
    title: p.title,
    text: p.content,
  }));
  if (kept === passages) return passages;
  const refs = new Map([...new Set(kept.map((p) => p.ref))].map((ref, i) => [ref, i + 1]));
  return kept.map((p) => ({ ...p, ref: refs.get(p.ref)! }));
}

/** FAQ entries the documents themselves hold: a question heading and the first sentences under it. */
function documentFaq(passages: PagePassage[]): FaqEntry[] {
  const out: FaqEntry[] = [];
  const seen = new Set<string>();
  for (const p of passages) {
    const q = p.section.trim();
    if (!q.endsWith('?') || seen.has(q.toLowerCase())) continue;
    const answer = sentences(p.content).slice(0, 2).join(' ');
    if (!answer) continue;
    seen.add(q.toLowerCase());
    out.push({ question: q, answer: `${clip(answer, 500)} [${p.ref}]` });
    if (out.length >= PLAN_LIMITS.faq) break;
  }
  return out;
}

/**
 * The sentence of the lead that shares the most words (stemmed) with the query becomes the tagline;
 * the extractive answer keeps its sentences in source order, so the first is not always the best.
 */
function splitLead(lead: string[], query: string): { tagline: string; rest: string[] } {
  const want = new Set(keywords(query).map((w) => stemmer(w)));
  let best = 0;
  let bestScore = -1;
  lead.forEach((s, i) => {
    const score = new Set(
      keywords(withoutCitations(s))
        .map((w) => stemmer(w))
        .filter((w) => want.has(w)),
    ).size;
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  return { tagline: lead[best] ?? '', rest: lead.filter((_, i) => i !== best) };
}

/**
 * A table row that the extractive writer took for a sentence (not prose, the key figures show it),
 * or code: a page's paragraphs are prose, and code (fenced, or flattened by a PDF) is never one.
 */
const isTableText = (s: string) =>
  (s.match(/\|/g) ?? []).length >= 2 || !isProse(withoutCitations(s)) || isCodeProse(withoutCitations(s));

/**
 * Code, whole or after an introduction ("…objects): var a = b.slice(…)" read as one sentence), or
 * only code spans (the writer quotes a block's `name: value` lines as spans): no words of its own.
 */
export function isCodeProse(sentence: string): boolean {
  if (!/[\p{L}\p{N}]/u.test(sentence.replace(/(`+)[^`]*?\1/g, ' '))) return /`/.test(sentence);
  const text = sentence.replace(/(`+)[^`]*?\1/g, ' code ');
  const [, ...after] = text.split(/[:：]\s+/);
  return looksLikeCode(text) || after.some((part) => part.trim().length >= 12 && looksLikeCode(part));
}

/**
 * A model's answer (Markdown) without its code blocks, tables, HTML and images: the prose a page
 * shows; without its list items too when the section shows them as a list (`lists: false`).
 */
function answerProse(answer: string, lists = true): string {
  return (
    markdownBlocks(answer)
      .filter((b) => b.kind === 'paragraph' || (lists && b.kind === 'listItem') || b.kind === 'blockquote')
      .map((b) => b.markdown.replace(/\\\[(\d+)\]/g, '[$1]')) // citation markers, which Markdown writes escaped
      // A code block's own citation ("[2]" after it) goes with the block.
      .filter((m) => !/^(?:\s*\[\d+\])+\s*$/.test(m))
      // A lead-in ("… to pass metadata overrides:") whose code or table is left out ends as a sentence.
      .map((m) =>
        m.replace(/([:：])((?:\s*\[\d+\])*)\s*$/, (_, c: string, refs: string) => `${c === '：' ? '。' : '.'}${refs}`),
      )
      .join('\n\n')
  );
}

/**
 * A sentence's words without citations, figures or punctuation: two sources saying "a project costs
 * $10,500" and "a project costs $14,500" say the same thing twice on a page, so the second is left out.
 */
const sentenceKey = (s: string) =>
  withoutCitations(s)
    .toLowerCase()
    .replace(/[\p{N}$€£¥%.,]+/gu, ' ')
    .replace(/[^\p{L}\s]+/gu, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Paragraphs of two cited sentences each; a sentence already on the page (`seen`) is not repeated.
 * A sentence that is an item of one of the sources' lists (`lists`) brings that whole list to the
 * section, shown as a list, so a list stays a list rather than items run into a paragraph.
 */
function paragraphs(prose: string, seen: Set<string>, lists: SourceList[] = []): { paras: string[]; items: string[] } {
  const s = citedSentences(prose).filter((x) => {
    const key = sentenceKey(x);
    if (isTableText(x) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const list = lists.find((l) => s.some((x) => l.keys.has(sentenceKey(x))));
  const rest = list ? s.filter((x) => !list.keys.has(sentenceKey(x))) : s;
  const paras: string[] = [];
  for (let i = 0; i < rest.length && paras.length < PLAN_LIMITS.paragraphsPerSection; i += 2)
    paras.push(clip(rest.slice(i, i + 2).join(' '), PLAN_LIMITS.paragraphChars));
  return { paras, items: list ? list.items.slice(0, PLAN_LIMITS.itemsPerSection) : [] };
}

interface SourceList {
  /** Each item's words (sentenceKey), to know a quoted item from prose. */
  keys: Set<string>;
  /** The items as the source wrote them, each citing its source. */
  items: string[];
}

/** The passages' lists of two or more top-level items (a run of items with nothing between them). */
function sourceLists(passages: PagePassage[]): SourceList[] {
  const out: SourceList[] = [];
  for (const p of passages) {
    let run: string[] = [];
    const end = () => {
      if (run.length >= 2)
        out.push({ keys: new Set(run.map(sentenceKey)), items: run.map((m) => clip(`${m} [${p.ref}]`, 240)) });
      run = [];
    };
    for (const b of markdownBlocks(p.content)) {
      if (b.kind === 'listItem' && b.depth === 1) run.push(b.markdown.trim());
      else if (b.kind !== 'listItem') end();
    }
    end();
  }
  return out;
}

/** The model's own JSON plan, bounded and checked against the sources (numbers must appear in them). */
function fromModelPlan(plan: ModelPlan, req: PlanRequest, sources: PageSource[]): PagePlan {
  const refs = new Set(sources.map((s) => s.ref));
  const text = (t: string) => keepKnownCitations(t, refs);
  const haystack = req.passages.map((p) => p.content).join('\n');
  const sections: PageSection[] = plan.sections.slice(0, PLAN_LIMITS.sections).map((s, i) => ({
    heading: clip(withoutCitations(s.heading), 100),
    paragraphs: (Array.isArray(s.body) ? s.body : [s.body])
      .map((b) => clip(text(b), PLAN_LIMITS.paragraphChars))
      .filter(Boolean)
      .slice(0, PLAN_LIMITS.paragraphsPerSection),
    icon: (ICONS as readonly string[]).includes(s.icon ?? '')
      ? (s.icon as IconName)
      : iconFor(`${s.heading} ${[s.body].flat().join(' ')}`, i),
  }));
  return {
    lang: languageOf(req.query),
    title: clip(withoutCitations(plan.title), PLAN_LIMITS.titleChars),
    tagline: clip(withoutCitations(plan.tagline), PLAN_LIMITS.taglineChars),
    summary: clip(text(plan.summary), PLAN_LIMITS.summaryChars),
    sections: sections.filter((s) => s.paragraphs.length > 0),
    // A figure the sources do not contain is the model's invention: left out.
    keyNumbers: plan.key_numbers
      .map((k) => ({
        value: String(k.value).trim(),
        label: clip(k.label, 64),
        ref: refs.has(k.source ?? -1) ? k.source! : 0,
      }))
      .filter((k) => k.value && haystack.includes(k.value))
      .slice(0, PLAN_LIMITS.keyNumbers),
    faq: plan.faq
      .slice(0, PLAN_LIMITS.faq)
      .map((f) => ({ question: clip(f.question, 200), answer: clip(text(f.answer), 800) })),
    sources,
    plannedBy: 'model',
  };
}

/**
 * Plans a landing page through the model gateway (every call metered to `scope`). The model is
 * first asked for a JSON plan; a model that gives one (an upstream) has its plan used, bounded and
 * checked. A model that answers in prose instead (the local grounded model, which writes extractive
 * answers with citations) has its answer used as the page's lead, and the composer asks it once
 * more per section, over that section's passages only, so every paragraph is the model's answer
 * from the LiveDoc's own text; key figures and FAQ entries come from the passages themselves.
 */
export async function planPage(req: PlanRequest): Promise<PagePlan> {
  const passages = focusPassages(req.passages, req.query);
  const sources = sourcesOf(passages);
  const refs = new Set(sources.map((s) => s.ref));
  const ask = (question: string, from: PagePassage[], prompt: string) =>
    req.gateway
      .generate({
        model: req.model,
        messages: [{ role: 'user', content: prompt }],
        context: contextOf(from),
        question,
        scope: req.scope,
        signal: req.signal,
        maxTokens: 2048,
      })
      .then((r) => ({ ...r, text: bounded(r.text) }));
  const planPrompt = `${PLAN_PROMPT}\n\nSources:\n\n${sourceBlock(passages) || '(none)'}\n\nRequest: ${req.query}`;
  // The local writer answers `question` from the passages and says when they do not cover it: it is
  // asked about the page's subject and each section as the sources word them, never the request's
  // own words ("make a landing page"), which no source holds.
  let first = await ask(titleFromQuery(req.query), passages, planPrompt);
  let read = readModelPlan(first.text);
  // A reply that set out to be the plan but cannot be used, even repaired, is asked for once more.
  if (!read.ok && triedJson(first.text)) {
    await req.log?.(`the model's plan could not be used (${read.problem}): asking once more`);
    first = await ask(
      titleFromQuery(req.query),
      passages,
      `${planPrompt}\n\nYour last reply could not be used: ${read.problem}. Answer with the one JSON object only.`,
    );
    read = readModelPlan(first.text);
    if (!read.ok) throw new Error(`the model's page plan could not be used, asked twice: ${read.problem}`);
  }
  if (read.ok) {
    await req.log?.(`the model (${first.model}) planned the page: ${read.value.sections.length} section(s)`);
    return fromModelPlan(read.value, { ...req, passages }, sources);
  }
  await req.log?.(`the model (${first.model}) answered in prose: composing the page from its answers`);
  // The lead states what the sources say: a sentence citing none ("your sources do not cover…") is not page text.
  const lead = citedSentences(keepKnownCitations(answerProse(pageProse(first.text)), refs)).filter(
    (x) => !isTableText(x) && /\[\d+\]/.test(x),
  );
  const sections: PageSection[] = [];
  const seen = new Set<string>();
  // The overview is the sources' own description of their subject; sections do not repeat it.
  const own = ownDescription(passages, PLAN_LIMITS.summaryChars / 2);
  for (const s of citedSentences(own?.text ?? '')) seen.add(sentenceKey(s));
  for (const [i, g] of sectionGroups(passages).entries()) {
    req.signal?.throwIfAborted();
    const answer = await ask(
      g.heading,
      g.passages,
      `Sources:\n\n${sourceBlock(g.passages)}\n\nWrite the "${g.heading}" section of a page about: ${req.query}`,
    );
    const prose = pageProse(answer.text);
    const own = answerItems(prose)
      .map((m) => keepKnownCitations(m, refs))
      .filter((m) => !isTableText(m));
    const listed = own.length >= 2;
    const { paras: body, items: quoted } = paragraphs(
      keepKnownCitations(answerProse(prose, !listed), refs),
      seen,
      sourceLists(g.passages),
    );
    const items = listed ? own : quoted;
    // A section states what its sources say: an answer that cites none ("your sources have nothing…") is no section.
    // A section whose sources hold a table shows it, citing its source, even when the answer had no prose.
    const cites = [...body, ...items].some((para) => /\[\d+\]/.test(para));
    const table = sectionTable(g.passages);
    if (cites || table) {
      sections.push({
        heading: clip(g.heading, 100),
        paragraphs: cites ? body : [],
        ...(items.length > 0 ? { items } : {}),
        ...(table ? { table } : {}),
        icon: iconFor(`${g.heading} ${[...body, ...items].join(' ')}`, i),
      });
    }
  }
  await req.log?.(`composed ${sections.length} section(s) from ${sources.length} source(s)`);
  // The tagline says what neither the overview nor a key figure already says.
  const figures = keyNumbers(passages, PLAN_LIMITS.keyNumbers);
  const said = new Set([...citedSentences(own?.text ?? ''), ...figures.map((k) => k.label)].map(sentenceKey));
  const fresh = lead.filter((s) => ![...said].some((k) => k && sentenceKey(s).startsWith(k)));
  const { tagline, rest } = splitLead(fresh.length > 0 ? fresh : lead, req.query);
  return {
    lang: languageOf(req.query),
    title: clip(titleFromQuery(req.query), PLAN_LIMITS.titleChars),
    tagline: clip(withoutCitations(tagline), PLAN_LIMITS.taglineChars),
    // The overview says what the sections do not already say.
    summary: own
      ? `${own.text} [${own.ref}]`
      : clip(rest.filter((s) => !seen.has(sentenceKey(s))).join(' '), PLAN_LIMITS.summaryChars),
    sections,
    keyNumbers: figures,
    faq: documentFaq(passages),
    sources,
    plannedBy: 'composer',
  };
}
