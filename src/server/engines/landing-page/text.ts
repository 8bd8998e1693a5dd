import type { IconName, KeyNumber } from './plan.js';
import { isProse } from '../writer-text.js';
import { markdownBlocks } from '../../text/markdown.js';
import { statementsOf } from '../../text/statements.js';
import { FRAME_OPENINGS } from '../answer-frames.js';

/**
 * Text helpers of the landing-page composer: pure functions over the passages and the model's
 * answers, so the same LiveDoc and query always give the same page.
 */

/** A retrieved excerpt as the engine sees it: `ref` numbers the resource it came from (1-based). */
export interface PagePassage {
  ref: number;
  resourceId: string;
  /** The resource's title. */
  title: string;
  /** The heading of the chunk inside the resource (may equal the title). */
  section: string;
  content: string;
  link: string;
}

/**
 * The sources' own description of what they are about: the opening prose of the best-ranked
 * resource (its passage under no heading of its own), furniture left out; null when it has none.
 */
export function ownDescription(passages: PagePassage[], max: number): { text: string; ref: number } | null {
  const top = passages.filter((p) => p.ref === passages[0]?.ref);
  // Only an opening under no heading of its own describes the whole; a first section ("How it works") does not.
  const opening = top.find((p) => !p.section.trim() || p.section.trim() === p.title.trim());
  if (!opening) return null;
  // Whole sentences that fit: a longer one is left out, never cut.
  const lead = sentences(opening.content, max);
  let text = '';
  for (const s of lead) {
    if (text && text.length + s.length > max) break;
    text = text ? `${text} ${s}` : s;
  }
  return text ? { text, ref: opening.ref } : null;
}

/**
 * Sentences and list items of a passage as inline Markdown (code spans and links kept; the page
 * renders them): never code blocks, tables, badges or furniture, never a sentence cut.
 */
export function sentences(text: string, maxChars = 400): string[] {
  return statementsOf(text, maxChars)
    .filter((st) => isProse(st.text))
    .map((st) => st.markdown);
}

/** Cuts at a word boundary with an ellipsis when longer than `max` characters. */
export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const at = cut.lastIndexOf(' ');
  return `${(at > max * 0.6 ? cut.slice(0, at) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/**
 * The model's answer as page prose: the local grounded model opens with a phrase addressed to a
 * chatter ("According to your sources:") and may add a "Sources:" list; a page shows neither (its
 * sources have their own block).
 */
export function pageProse(answer: string): string {
  const text = answer
    .replace(/\n\s*Sources:\n[\s\S]*$/, '')
    .replace(/^\s*According to the sources:\s*/i, '')
    .replace(/^\s*The closest source I found does not answer this directly\.\s*/i, '')
    .trim();
  // The local writer's opening in the question's language ("According to your sources:", "根据你的资料：").
  const opening = FRAME_OPENINGS.find((o) => text.startsWith(o));
  return opening ? text.slice(opening.length).trim() : text;
}

/** Without its [n] citation markers (a tagline or a title reads better without them). */
export const withoutCitations = (text: string) => text.replace(/\s*\[\d+\]/g, '').trim();

const PAGE_ASK =
  /^(?:please\s+)?(?:make|create|build|write|generate|design|draft)\s+(?:me\s+)?(?:a|an|the|our|my)?\s*(?:landing\s+page|web\s*page|page|site|website|one-pager)\s+(?:for|about|on|of|that\s+explains|explaining|describing)\s+/i;

/** A headline from the query: the ask ("make a landing page about …") removed, first letter up. */
export function titleFromQuery(query: string): string {
  const topic =
    query
      .trim()
      .replace(PAGE_ASK, '')
      .replace(/[?.!\s]+$/, '')
      .trim() || query.trim();
  return topic.charAt(0).toUpperCase() + topic.slice(1);
}

/** zh-Hans when the query is written in Chinese script, ja/ko for kana/hangul, else en. */
export function languageOf(query: string): string {
  if (/[\u3040-\u30ff]/.test(query)) return 'ja';
  if (/[\uac00-\ud7af]/.test(query)) return 'ko';
  if (/[\u4e00-\u9fff]/.test(query)) return 'zh-Hans';
  return 'en';
}

const ICON_WORDS: Array<[IconName, RegExp]> = [
  ['chart', /\b(revenue|growth|sales|market|price|cost|percent|data|metric|number|figure|result|performance|share)/i],
  ['shield', /\b(secur|safe|privacy|risk|complian|protect|trust|warrant)/i],
  ['clock', /\b(time|schedule|history|timeline|year|month|deadline|launch|roadmap|plan)/i],
  ['globe', /\b(world|global|country|region|international|travel|location|europe|asia|america)/i],
  ['layers', /\b(feature|product|component|architecture|system|platform|stack|module|design)/i],
  ['book', /\b(guide|learn|how|tutorial|document|research|study|overview|introduction|background)/i],
  ['check', /\b(benefit|advantage|why|result|outcome|success|quality|best)/i],
];

/** An icon that fits the section's words; the fallbacks rotate so neighbours differ. */
export function iconFor(text: string, index: number): IconName {
  for (const [icon, re] of ICON_WORDS) if (re.test(text)) return icon;
  const rotate: IconName[] = ['spark', 'layers', 'book', 'check'];
  return rotate[index % rotate.length];
}

const NUMBER =
  /(?:[$€£¥]\s?)?\d{1,3}(?:[,\u202f]\d{3})+(?:\.\d+)?(?:\s?(?:%|percent\b|k\b|K\b|M\b|million\b|billion\b|bn\b|x\b|×))?|(?:[$€£¥]\s?)?\d+(?:\.\d+)?(?:\s?(?:%|percent\b|k\b|K\b|M\b|million\b|billion\b|bn\b|x\b|×|ms\b|s\b|GB\b|MB\b|TB\b|kg\b|km\b|kW\b|kWh\b|MW\b|hours\b|days\b|years\b|users\b|customers\b))?/g;

/** A figure worth showing: a unit, a currency or a decimal, or at least two digits and not a year. */
function notable(value: string): boolean {
  const v = value.trim();
  if (/^(19|20)\d{2}$/.test(v)) return false;
  if (/[%$€£¥]|percent|million|billion|bn|[kKM]$|x$|×|-(year|month|week|day|hour|minute)s?$/.test(v)) return true;
  if (/\d\.\d/.test(v)) return true;
  return /\d{2,}/.test(v.replace(/\D/g, '')) && !/^0+$/.test(v.replace(/\D/g, ''));
}

/**
 * Whether the figure at `at` in a sentence is a quantity: not part of a longer token (a version
 * "0.11.14", a date "2024-10-26", an id "sha256", a host "localhost:3000"), not a port, not a
 * version named as one ("the 6.1 release", "Node.js 18"), and not a run of seven or more bare
 * digits (a timestamp or an id such as 1531171082399).
 */
export function isQuantity(sentence: string, at: number, value: string): boolean {
  let start = at;
  let end = at + value.length;
  while (start > 0 && !/\s/.test(sentence[start - 1])) start--;
  while (end < sentence.length && !/\s/.test(sentence[end])) end++;
  const token = sentence
    .slice(start, end)
    .replace(/^[("'“‘[]+/, '')
    .replace(/[)"'”’\].,;:!?]+$/, '');
  const v = value.trim();
  if (/\d{7,}/.test(v) && !/[,\u202f]/.test(v)) return false;
  if (token !== v && !/^-(year|month|week|day|hour|minute)s?$/.test(token.slice(v.length))) {
    // "(8 to 10 years)" and "$14.50/month" are quantities; "v1.2.3", "8.x", "2024-10-26", "x64" are not.
    if (!/^[/]\p{L}+$/u.test(token.slice(token.indexOf(v) + v.length)) || token.indexOf(v) > 0) return false;
  }
  if (/\bports?\s*$|:\s*$/i.test(sentence.slice(Math.max(0, start - 12), start))) return false;
  // "the 6.1 release", "version 2.3", "Node.js 18": a version names a release, it measures nothing.
  if (/^\s+(?:releases?|versions?|branch|line|series)\b/i.test(sentence.slice(end))) return false;
  if (/\b(?:versions?|releases?|v|node(?:\.js)?)\s*$/i.test(sentence.slice(Math.max(0, start - 12), start)))
    return false;
  return true;
}

/** Prose of a sentence in inline Markdown without its code spans: figures in code are not facts to show. */
const proseOf = (markdown: string) => markdown.replace(/(`+)[\s\S]*?\1/g, (m) => ' '.repeat(m.length));

/**
 * Key figures found in the passages, in ranking order: each figure with the whole sentence that
 * states it (as inline Markdown), taken from prose only: never from code, a code span, a log line
 * or a table of settings, never a timestamp, an id, a version, a date or a port. Table cells come
 * after, labelled by their row and column. At most `max`, never the same value or sentence twice;
 * furniture (cookie, copyright, page-count lines) is never a source of figures.
 */
export function keyNumbers(passages: PagePassage[], max: number): KeyNumber[] {
  const out: KeyNumber[] = [];
  const seen = new Set<string>();
  const add = (value: string, label: string, ref: number) => {
    const v = value.trim();
    const l = label.replace(/\s+/g, ' ').trim();
    // Two sources saying "a project costs $10,500" and "... $11,500" give one figure: the label without its figures is the key.
    const key = l
      .toLowerCase()
      .replace(/[\p{N}$€£¥%.,]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (out.length >= max || seen.has(v) || seen.has(key) || !notable(v) || l.length < 3) return;
    seen.add(v);
    seen.add(key);
    out.push({ value: v, label: l, ref });
  };
  for (const p of passages) {
    for (const s of sentences(p.content, 160)) {
      const prose = proseOf(s);
      for (const m of prose.matchAll(NUMBER)) {
        const at = m.index ?? 0;
        if (!notable(m[0]) || !isQuantity(prose, at, m[0])) continue;
        // A range ("8 to 10 years") is one figure, not its upper end.
        const range = /(\d+(?:\.\d+)?\s*(?:to|–|-)\s*)$/.exec(prose.slice(0, at));
        // "a 25-year warranty": the figure is "25-year", not a bare 25.
        const joined = /^-(?:year|month|week|day|hour|minute)s?\b/.exec(prose.slice(at + m[0].length))?.[0] ?? '';
        add((range ? range[1] + m[0] : m[0]) + joined, s, p.ref);
      }
    }
  }
  for (const p of passages) {
    for (const block of markdownBlocks(p.content)) {
      if (block.kind !== 'table' || block.rows.length < 1) continue;
      // The last row is usually the latest: each of its figures, labelled "<column> (<row>)".
      const last = block.rows[block.rows.length - 1];
      for (let col = 1; col < last.length; col++) {
        const cell = last[col].text;
        const m = /^\s*\S*\d\S*(?:\s\S+)?\s*$/.test(cell) ? NUMBER.exec(cell) : null;
        NUMBER.lastIndex = 0;
        if (m && isQuantity(cell, m.index, m[0]))
          add(m[0], `${block.header[col]?.markdown ?? ''} (${last[0]?.markdown ?? ''})`, p.ref);
      }
    }
  }
  return out;
}
