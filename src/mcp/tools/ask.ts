import type { McpApi } from '../api.js';
import { PlatformOutcomeError } from '../errors.js';

export interface Answer {
  answer: string;
  citations: Array<{ n: number; title: string; link: string }>;
  livedoc_id: string;
  thread_id: string;
}

/** The footer the platform appends to a conversation answer: "\n\nSources:\n[n] title — link" lines. */
const FOOTER = '\n\nSources:\n';

/**
 * A grounded answer over one LiveDoc: a conversation started on it and its stream read to the end.
 * The answer's sources arrive as the footer the platform writes after the text; each of its lines is
 * one citation, split into its number, title and link.
 */
export async function askLiveDoc(
  api: McpApi,
  livedocId: string,
  question: string,
  signal: AbortSignal,
): Promise<Answer> {
  const started = await api.conversations.start({ query: question, live_doc_short_id: livedocId });
  let text = '';
  for await (const ev of api.conversations.stream(started.stream_key, { signal })) {
    if (ev.event === 'message') text += ev.data.content;
    else if (ev.event === 'error') throw new PlatformOutcomeError('CONVERSATION_QUERY_FAILED', ev.data.message);
  }
  return { ...splitAnswer(text), livedoc_id: started.live_doc_short_id, thread_id: started.thread_short_id };
}

/** The answer's text and its citations, from the footer the platform wrote after it (if any). */
export function splitAnswer(text: string): Pick<Answer, 'answer' | 'citations'> {
  const at = text.lastIndexOf(FOOTER);
  if (at === -1) return { answer: text, citations: [] };
  return {
    answer: text.slice(0, at),
    citations: text
      .slice(at + FOOTER.length)
      .split('\n')
      .flatMap(citationOf),
  };
}

function citationOf(line: string): Answer['citations'] {
  if (!line.startsWith('[')) return [];
  const close = line.indexOf('] ');
  const n = Number(line.slice(1, close));
  if (close < 0 || !Number.isInteger(n)) return [];
  const rest = line.slice(close + 2);
  const dash = rest.lastIndexOf(' — ');
  const link = dash === -1 ? '' : rest.slice(dash + 3);
  // A title may hold " — " itself: only a tail that is a URL is the link.
  return URL.canParse(link) ? [{ n, title: rest.slice(0, dash), link }] : [{ n, title: rest, link: '' }];
}
