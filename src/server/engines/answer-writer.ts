import type { GatewayMessage, MeterScope, ModelGateway } from './gateway-types.js';
import { extractiveAnswer, type Passage } from './grounded-writer.js';
import { countTokens } from './gateway/tokenizer.js';

export type { Passage };

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

/** The catalog's local grounded model: what the gateway runs by default, and the fallback's name. */
export const LOCAL_MODEL = 'facet-grounded';

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
      question: req.query,
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
    inputTokens: await countTokens(SYSTEM + req.query + contextBlock(req.passages) + req.history.map((h) => h.query + (h.answer ?? '')).join('')),
    outputTokens: await countTokens(text),
  });
  for (const piece of text.match(/\S+\s*/g) ?? []) yield piece;
  return text;
}
