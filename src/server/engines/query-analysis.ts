import { keywords } from './retrieval/fts-query.js';

/**
 * Query analysis of the chat surface (spec 2.7 `query_analysis.queries`): the question as search
 * queries. The whole question's keywords come first; a question with several parts ("X and Y",
 * "X? Y?", "X, Y") also gets one query per part, so each part finds its own sources. Thread context
 * (earlier questions of a conversation) adds its keywords to a follow-up that has few of its own.
 */
export function analyzeQuery(query: string, context: string[] = []): string[] {
  const main = keywords(query);
  const queries: string[] = [];
  const push = (words: string[]) => {
    const q = words.join(' ');
    if (q && !queries.includes(q)) queries.push(q);
  };
  if (context.length > 0 && main.length < 4) {
    const extra = keywords(context.join(' ')).filter((w) => !main.includes(w)).slice(0, 6);
    push([...main, ...extra]);
  }
  push(main);
  const parts = query.split(/\?|;|,|\band\b|\bversus\b|\bvs\.?\b|\bor\b/i).map((p) => keywords(p)).filter((k) => k.length > 0);
  if (parts.length > 1) for (const p of parts) push(p);
  if (queries.length === 0) push(query.trim().toLowerCase().split(/\s+/).slice(0, 8));
  return queries.slice(0, 4);
}
