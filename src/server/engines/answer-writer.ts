import type { GatewayMessage, MeterScope, ModelGateway } from './gateway-types.js';
import type { Passage } from './grounded-writer.js';

export type { Passage };

export interface AnswerRequest {
  query: string;
  /** Earlier turns of a conversation, oldest first. */
  history: Array<{ query: string; answer: string | null }>;
  passages: Passage[];
  scope: MeterScope;
  signal?: AbortSignal;
}

/**
 * What an upstream model is asked to do: the rules the local grounded writer follows, so an answer
 * reads the same whoever writes it.
 */
const SYSTEM = `You answer questions using only the numbered sources given. Cite every claim with the source's
marker in square brackets, like [1] or [2][3]. Answer each part of the question, in order. A fact in a
table is answered from its cell (the row the question names, the column it asks for). Quote commands,
options, code and figures exactly as the sources write them, commands and code as Markdown code. If the
sources do not contain the answer, say that the sources do not cover the question and name what they do
cover; never answer from anything else. Answer in the language of the question.`;

function contextBlock(passages: Passage[]): string {
  return passages.map((p) => `[${p.ref}] ${p.title}${p.link ? ` (${p.link})` : ''}\n${p.content}`).join('\n\n');
}

/**
 * Writes a grounded answer as a stream of text chunks through the model gateway, which meters it.
 * The platform's default model gets the numbered passages twice over: in the prompt, for an
 * upstream model that reads it, and as `context`, which the local grounded model writes from.
 */
export async function* writeAnswer(gateway: ModelGateway, req: AnswerRequest): AsyncGenerator<string, string> {
  const messages: GatewayMessage[] = [];
  for (const turn of req.history) {
    messages.push({ role: 'user', content: turn.query });
    if (turn.answer) messages.push({ role: 'assistant', content: turn.answer });
  }
  messages.push({
    role: 'user',
    content: `Sources:\n\n${contextBlock(req.passages) || '(no sources found)'}\n\nQuestion: ${req.query}`,
  });
  let text = '';
  for await (const ev of gateway.stream({
    messages,
    system: SYSTEM,
    context: req.passages.map((p) => ({
      id: String(p.ref),
      title: p.title,
      content: p.content,
      link: p.link,
      opening: p.opening,
    })),
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
