import { maskQuoted } from '../text/quoted.js';
import { words } from '../text/segment.js';
import { separatorWords } from '../text/separator-words.js';
/**
 * What form a question asks its answer in: a summary, a comparison, a list, or a plain answer.
 * "Summarise the refund policy" wants the policy's main points, not sentences that happen to
 * contain the word "summarise"; the words that name the form are not searched for.
 */
export type AnswerIntent = 'summary' | 'compare' | 'list' | 'answer';

const SUMMARY =
  /\b(summari[sz]e|summari[sz]ing|summary|overview|recap|tl;?dr|gist|main points|key points|in short|brief(ly)?)\b/i;
const COMPARE = /\b(compare|compared|comparing|comparison|versus|vs\.?|differences?|differ|contrast)\b|比较|对比|比べ/i;
const LIST =
  /^\s*(please\s+)?(list|enumerate|name)\b|\b(list (of|all|the|every)|what are all the)\b|列出|列举|一覧|列挙|挙げ/i;

/** "How do I compare two files?" asks how to do a task whose verb is compare, not for a comparison. */
const HOW_TO = /\b(?:how\s+(?:do|can|could|should|would)\s+(?:i|we|you|one)|how\s+to)\s+(?:compare|contrast)\b/i;

/** "Is there a difference between binary and text mode?" asks yes or no, which one sentence may say. */
const WHETHER_DIFFERENT = /^\s*(?:is|are)\s+there\s+(?:a|any)\s+differences?\b/i;

export function answerIntent(query: string): AnswerIntent {
  // Words the question quotes are what it looks for, not what it asks: 'described as "takes a list
  // of options"' asks which option, not for a list.
  const own = maskQuoted(query);
  if (COMPARE.test(own) && !HOW_TO.test(own) && !WHETHER_DIFFERENT.test(own)) return 'compare';
  if (SUMMARY.test(own)) return 'summary';
  // "Where is the list of outstanding bugs?" asks where it is, not for its items.
  if (LIST.test(own) && !/^\s*where\b/i.test(own)) return 'list';
  return 'answer';
}

/**
 * Words that name the answer's form, or point at the sources themselves rather than at a subject
 * ("the items under the heading given in the README"): they say what to write or where to look,
 * not what to find.
 */
export const FORM_WORDS = new Set(
  'summarise summarize summarising summarizing summary overview recap tldr gist main key points short brief briefly compare compared comparing comparison versus vs difference differences differ contrast list enumerate name give show livedoc livedocs document documents source sources readme docs documentation section heading under item items given described describe describes mentioned stated says according'.split(
    ' ',
  ),
);

/**
 * The subjects of a comparison: "compare A and B", "A vs B", "difference between A and B", "A
 * compared with B" (where A is what precedes "compared": "What is Pino's average compared with
 * Winston's?" compares "Pino's average" and "Winston's").
 */
export function comparedSubjects(query: string): string[] {
  const q = query.replace(/[?？.。!！]+\s*$/, '').trim();
  const after = /\b(?:compared|as opposed)\s+(?:with|to)\b/i.exec(q);
  const body = after
    ? `${q.slice(0, after.index).replace(/^\s*(?:what|how|which)\s+(?:is|are|was|were|does|do)\s+/i, '')} and ${q.slice(after.index + after[0].length)}`
    : q.replace(/^.*?\b(compare|comparing|comparison of|differences? between|contrast)\b/i, '');
  const subjects = body
    .split(SUBJECT_SEPARATOR)
    .map((s) =>
      s
        .trim()
        .replace(/^(the|a|an)\s+/i, '')
        .replace(/(?:'s|’s)$/i, '')
        .trim(),
    )
    .filter((s) => s.length > 1)
    .slice(0, 4);
  // Subjects are things named in a few words. A question or a clause where one should be ("which
  // option makes cmp compare at most N bytes, and which…") is no comparison of subjects.
  // Words as segmentation finds them: a Japanese clause has no spaces ("VS Code で使うにはどう設定しますか").
  return subjects.every(namesSubject) ? subjects : [];
}

const SUBJECT_SEPARATOR = new RegExp(
  `\\s*(?:${separatorWords('versus', 'vs\\.?', 'and', 'with', 'to', 'or')}|,|和|与|跟)\\s*`,
  'i',
);

/** Whether a piece of a question names a subject in a few words, rather than asking a question of its own. */
export const namesSubject = (s: string) => !PART_START.test(s) && words(s).length <= MAX_SUBJECT_WORDS;

/** The most words a compared subject is named in ("Pino's average", "the Team plan's price"). */
const MAX_SUBJECT_WORDS = 5;

const PART_START =
  /^(?:what|when|where|which|who|whom|whose|why|how|is|are|was|were|does|do|did|can|could|should|will|would|list|name)\b|^(?:什么|如何|怎么|哪|为什么|多少|是否|何|どう|いつ|なぜ)/i;

/**
 * The parts of a question, in order: "When was 7.x released and when did its LTS end?" is two
 * questions, each answered; "Compare A and B" or "the cost and the weight of X" is one (the part
 * after "and" must start a question of its own).
 */
export function questionParts(query: string): string[] {
  const pieces = query
    .split(/(?<=[?？])\s*|\s*(?:[;；]|,?\s+\band\b\s+|，|、|并且|以及)\s*/i)
    .map((p) => p.trim())
    .filter(Boolean);
  const parts: string[] = [];
  for (const p of pieces) {
    if (parts.length > 0 && !PART_START.test(p)) parts[parts.length - 1] += ` and ${p}`;
    else parts.push(p);
  }
  return parts.length ? parts : [query];
}
