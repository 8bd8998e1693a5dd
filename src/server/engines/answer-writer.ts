import type { GatewayMessage, MeterScope, ModelGateway } from './gateway-types.js';
import { keywords } from './retrieval/fts-query.js';
import { countTokens } from './tokens.js';

/** A retrieved passage the answer may cite as [ref]. */
export interface Passage {
  ref: number;
  title: string;
  link: string;
  content: string;
}

export interface AnswerRequest {
  query: string;
  /** Earlier turns of a conversation, oldest first. */
  history: Array<{ query: string; answer: string | null }>;
  passages: Passage[];
  scope: MeterScope;
  signal?: AbortSignal;
}

export interface AnswerDeps {
  gateway?: ModelGateway;
  /** Records a local generation; upstream generations are metered by the gateway itself. */
  meter(input: { model: string; inputTokens: number; outputTokens: number }): Promise<void>;
}

export const LOCAL_MODEL = 'facet-local-extractive';

const SYSTEM = `You answer questions using only the numbered sources given. Cite every claim with the source's
marker in square brackets, like [1] or [2][3]. If the sources do not contain the answer, say so plainly.`;

function contextBlock(passages: Passage[]): string {
  return passages.map((p) => `[${p.ref}] ${p.title}${p.link ? ` (${p.link})` : ''}\n${p.content}`).join('\n\n');
}

/**
 * Writes a grounded answer as a stream of text chunks. With a model gateway, the model writes it from
 * the retrieved passages (and the thread's history); without one, the local extractive writer picks
 * the passages' sentences that best match the question and cites each with its marker.
 */
export async function* writeAnswer(deps: AnswerDeps, req: AnswerRequest): AsyncGenerator<string, string> {
  if (deps.gateway) {
    const messages: GatewayMessage[] = [];
    for (const turn of req.history) {
      messages.push({ role: 'user', content: turn.query });
      if (turn.answer) messages.push({ role: 'assistant', content: turn.answer });
    }
    messages.push({ role: 'user', content: `Sources:\n\n${contextBlock(req.passages) || '(no sources found)'}\n\nQuestion: ${req.query}` });
    let text = '';
    for await (const ev of deps.gateway.stream({
      messages,
      system: SYSTEM,
      context: req.passages.map((p) => ({ id: String(p.ref), title: p.title, content: p.content, link: p.link })),
      scope: req.scope,
      signal: req.signal,
    })) {
      if (ev.type === 'delta' && ev.text) {
        text += ev.text;
        yield ev.text;
      } else if (ev.type === 'done') text = ev.result.text || text;
    }
    return text;
  }
  const text = extractiveAnswer(req);
  await deps.meter({
    model: LOCAL_MODEL,
    inputTokens: countTokens(SYSTEM + req.query + contextBlock(req.passages) + req.history.map((h) => h.query + (h.answer ?? '')).join('')),
    outputTokens: countTokens(text),
  });
  for (const piece of text.match(/\S+\s*/g) ?? []) yield piece;
  return text;
}

function sentences(text: string): string[] {
  return text
    .replace(/^#{1,6}\s+.*$/gm, ' ')
    .replace(/[*_`>]+/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .split(/(?<=[.!?])\s+|\n{2,}|\n(?=[-*]\s)/)
    .map((s) => s.replace(/\s+/g, ' ').replace(/^[-*]\s+/, '').trim())
    .filter((s) => s.length >= 20 && s.length <= 600);
}

/** Deterministic: the same sources and question give the same answer. */
export function extractiveAnswer(req: Pick<AnswerRequest, 'query' | 'passages' | 'history'>): string {
  const want = new Set(keywords(req.query));
  const context = new Set(keywords(req.history.map((h) => h.query).join(' ')));
  if (req.passages.length === 0) {
    return `I found nothing about "${req.query.trim()}" in your LiveDocs. Add pages or documents that cover it, then ask again.`;
  }
  const stem = (w: string) => w.replace(/(ing|ed|es|s)$/, '');
  const wantStems = new Set([...want].map(stem));
  const contextStems = new Set([...context].map(stem));
  const scored: Array<{ s: string; ref: number; score: number; order: number }> = [];
  let order = 0;
  for (const p of req.passages) {
    for (const s of sentences(p.content)) {
      const words = keywords(s).map(stem);
      let score = 0;
      for (const w of new Set(words)) score += wantStems.has(w) ? 2 : contextStems.has(w) ? 0.5 : 0;
      // Earlier passages ranked higher in retrieval; a small bonus keeps their order on ties.
      scored.push({ s, ref: p.ref, score: score - p.ref * 0.01, order: order++ });
    }
  }
  const picked = scored
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, 4)
    .sort((a, b) => a.ref - b.ref || a.order - b.order);
  if (picked.length === 0) {
    const first = req.passages[0];
    const lead = sentences(first.content)[0] ?? first.content.slice(0, 300);
    return `The closest source I found does not answer this directly. ${first.title} says: ${lead} [${first.ref}]`;
  }
  const body = picked.map((x) => `${/[.!?]$/.test(x.s) ? x.s : x.s + '.'} [${x.ref}]`).join(' ');
  return `According to your sources: ${body}`;
}
