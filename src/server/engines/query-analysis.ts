import { letterSymbols, keywords, searchWords } from './retrieval/fts-query.js';
import { stemmer } from 'stemmer';
import { maskQuoted } from '../text/quoted.js';
import { separatorWords } from '../text/separator-words.js';

/**
 * Query analysis of the chat surface (spec 2.7 `query_analysis.queries`): the question as search
 * queries. The whole question's keywords come first; a question with several parts ("X and Y",
 * "X? Y?", "X, Y") also gets one query per part, so each part finds its own sources. Thread context
 * (earlier questions of a conversation) adds its keywords to a follow-up that has few of its own.
 */
export function analyzeQuery(query: string, context: string[] = []): string[] {
  // The search words: keywords and single digits ("pino 9.x" must find the 9.x row).
  const main = searchWords(query);
  const queries: string[] = [];
  // A one-letter option stays written as one ("-a", "%i"): searched again, a bare "a" is a common word.
  const symbols = new Map(letterSymbols(query).map((s) => [s.slice(1), s]));
  const push = (words: string[]) => {
    const q = words.map((w) => symbols.get(w) ?? w).join(' ');
    if (q && !queries.includes(q)) queries.push(q);
  };
  if (context.length > 0 && main.length < 4) {
    const extra = keywords(context.join(' '))
      .filter((w) => !main.includes(w))
      .slice(0, 6);
    push([...main, ...extra]);
  }
  push(main);
  const pieces = withSettings(splitOutsideQuotes(query, PART_SEPARATOR))
    .map((p) => ({ p, words: searchWords(p) }))
    .filter((k) => k.words.length > 0);
  // A later part that only names another subject ("How do I install p-limit and concurrently?")
  // asks what the first asks of it: the first part's words, its own name in place of the name the
  // first part ends with.
  const firstName = new Set(searchWords(pieces[0]?.p.trim().split(/\s+/).at(-1) ?? ''));
  const asked = (pieces[0]?.words ?? []).filter((w) => !firstName.has(w));
  const named = ({ p, words }: { p: string; words: string[] }) =>
    words.length <= 2 && asked.length > 0 && !NOT_A_NAME.test(p) ? [...asked, ...words] : words;
  if (pieces.length > 1) for (const [i, piece] of pieces.entries()) push(i > 0 ? named(piece) : piece.words);
  if (queries.length === 0) push(query.trim().toLowerCase().split(/\s+/).slice(0, 8));
  return queries.slice(0, 4);
}

const PART_SEPARATOR = new RegExp(`\\?|;|,|${separatorWords('and', 'versus', 'vs\\.?', 'or')}`, 'gi');

const TOPIC_SEPARATOR = new RegExp(
  `\\s*(?:[,;，；、]|${separatorWords('and', 'vs\\.?', 'versus', 'then')}|&|和|与|及|以及)\\s*`,
  'i',
);

/** A piece that asks a question of its own, or sets a scene ("with arg", "for hex digits"): no subject's name. */
const NOT_A_NAME =
  /^\s*(?:what|when|where|which|who|why|how|is|are|was|were|does|do|did|can|could|should|will|would|with|without|for|in|on|from|by|to|of|at|under|within|via)\b/i;

/**
 * Pieces where one that only sets the scene ("In the bytes README (under …)", "For gzip") is read
 * with the piece after it: it says where to look, not a part to look for.
 */
function withSettings(pieces: string[]): string[] {
  const out: string[] = [];
  let setting = '';
  for (const p of pieces) {
    if (/^\s*(?:in|under|for|on|from|within|according to)\b/i.test(p) && !/[?？]\s*$/.test(p)) setting += `${p} `;
    else {
      out.push(setting + p);
      setting = '';
    }
  }
  if (setting) out.push(setting);
  return out;
}

/**
 * The text cut at each separator that is not inside quotes or brackets: a section named
 * "createError([status], [message])" is one name, not three parts of the question.
 */
function splitOutsideQuotes(text: string, separator: RegExp): string[] {
  const masked = maskQuoted(text, true);
  const out: string[] = [];
  let from = 0;
  for (const m of masked.matchAll(separator)) {
    out.push(text.slice(from, m.index));
    from = m.index + m[0].length;
  }
  out.push(text.slice(from));
  return out;
}

/**
 * What a document request asks about, in its order: "a deck on prices, weights and the refund
 * policy" -> ["prices", "weights", "refund policy"]. The ask ("make a deck about", "compare",
 * "总结") goes; the rest splits at commas, "and", "vs", and Chinese 、，和 与 及. The writers of
 * decks and mindmaps put these first, in this order.
 */
export function queryTopics(query: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of subjectOf(query).split(TOPIC_SEPARATOR)) {
    let p = part
      .replace(/^(?:the|a|an|our|its|their|how|what|why)\s+/i, '')
      .replace(/(?:的)?(?:演示文稿|幻灯片|思维导图)$/, '')
      .trim();
    // "铸铁水壶的保养方法": what follows 的 is the topic, what precedes it only qualifies it.
    const head = /的([^的]{2,})$/.exec(p);
    if (head) p = head[1];
    if (termsOf(p).length === 0 || seen.has(p.toLowerCase())) continue;
    seen.add(p.toLowerCase());
    out.push(p);
  }
  return out.slice(0, 8);
}

/** The request without its ask: "Make a 5-slide deck about X and Y?" -> "X and Y". */
export function subjectOf(query: string): string {
  const ask =
    /^\s*(?:please\s+)?(?:(?:make|create|build|write|generate|draw|give\s+me|prepare)\s+(?:me\s+)?(?:an?\s+|the\s+)?(?:\d+[- ]slides?\s+)?(?:slide\s*deck|deck|presentation|slides|mind\s*map|mindmap|map|outline|overview|landing\s+page|page)\s+(?:of|about|on|for|covering)\s+|(?:compare|summari[sz]e|explain|describe|list|cover|present|outline)\s+)/i;
  const body = query
    .trim()
    .split('\n')[0]
    .replace(ask, '')
    .replace(/^(?:请|帮我)?(?:做|制作|生成|写)?(?:一[份个张])?(?:关于)?/, '')
    .replace(/[?？.。!！]+$/, '')
    .trim();
  return body || query.trim();
}

const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff]+/g;

/**
 * Match terms of a text: its keywords stemmed, and for Chinese (written without spaces) every
 * pair of adjacent characters, so "退款政策" meets "退款" in a source sentence.
 */
export function termsOf(text: string): string[] {
  const out = new Set<string>();
  for (const w of keywords(text.replace(CJK_RUN, ' '))) out.add(stemmer(w));
  for (const run of text.match(CJK_RUN) ?? []) {
    const chars = [...run];
    if (chars.length === 1) out.add(run);
    for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i] + chars[i + 1]);
  }
  return [...out];
}
