/**
 * What form a question asks its answer in: a summary, a comparison, a list, or a plain answer.
 * "Summarise the refund policy" wants the policy's main points, not sentences that happen to
 * contain the word "summarise"; the words that name the form are not searched for.
 */
export type AnswerIntent = 'summary' | 'compare' | 'list' | 'answer';

const SUMMARY =
  /\b(summari[sz]e|summari[sz]ing|summary|overview|recap|tl;?dr|gist|main points|key points|in short|brief(ly)?)\b/i;
const COMPARE = /\b(compare|comparing|comparison|versus|vs\.?|differences?|differ|contrast)\b/i;
const LIST = /^\s*(please\s+)?(list|enumerate|name)\b|\b(list (of|all|the|every)|what are (all )?the|which are the)\b/i;

export function answerIntent(query: string): AnswerIntent {
  if (COMPARE.test(query)) return 'compare';
  if (SUMMARY.test(query)) return 'summary';
  if (LIST.test(query)) return 'list';
  return 'answer';
}

/** Words that name the answer's form (and the LiveDoc itself): they say what to write, not what to find. */
export const FORM_WORDS = new Set(
  'summarise summarize summarising summarizing summary overview recap tldr gist main key points short brief briefly compare comparing comparison versus vs difference differences differ contrast list enumerate name give show livedoc livedocs document documents source sources'.split(
    ' ',
  ),
);

/** The subjects of a comparison: "compare A and B", "A vs B", "difference between A and B". */
export function comparedSubjects(query: string): string[] {
  const body = query
    .replace(/\?+\s*$/, '')
    .replace(/^.*?\b(compare|comparing|comparison of|differences? between|contrast)\b/i, '')
    .trim();
  return body
    .split(/\s*(?:\bversus\b|\bvs\.?|\band\b|\bwith\b|\bto\b|,|\bor\b)\s*/i)
    .map((s) => s.replace(/^(the|a|an)\s+/i, '').trim())
    .filter((s) => s.length > 1)
    .slice(0, 4);
}
