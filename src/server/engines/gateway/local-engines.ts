import type { StopReason } from '../gateway-types.js';
import { streamText, type Backend, type BackendCall, type BackendResult } from './backend.js';
import { truncateToTokens } from './tokenizer.js';

/** Where the grounded model finds the caller's knowledge when a call brings no passages itself. */
export type GroundingSource = (query: string, signal?: AbortSignal) => Promise<NonNullable<BackendCall['context']>>;

function lastUserText(call: BackendCall): string {
  for (let i = call.messages.length - 1; i >= 0; i--) if (call.messages[i].role === 'user') return call.messages[i].content;
  return '';
}

/** Applies stop sequences, then the token limit, the way an upstream would report them. */
async function finish(text: string, call: BackendCall): Promise<BackendResult> {
  let stopReason: StopReason = 'end';
  for (const s of call.stop ?? []) {
    const at = s ? text.indexOf(s) : -1;
    if (at >= 0) {
      text = text.slice(0, at);
      stopReason = 'stop_sequence';
    }
  }
  const cut = await truncateToTokens(text, call.maxTokens);
  // usage null: the gateway counts both sides with the tokenizer.
  return { text: cut.text, stopReason: cut.truncated ? 'max_tokens' : stopReason, usage: null };
}

/** The reply is the last user message, verbatim: a pure function of the request, for CI tests. */
export function echoEngine(): Backend {
  const generate = (call: BackendCall) => finish(lastUserText(call), call);
  return { generate, stream: (call) => streamGenerated(generate, call) };
}

async function* streamGenerated(generate: (c: BackendCall) => Promise<BackendResult>, call: BackendCall) {
  yield* streamText(await generate(call), call.signal);
}

const WORD = /[\p{L}\p{N}]+/gu;
const STOP_WORDS = new Set(
  'a an and are as at be but by can do does for from has have how i in is it its of on or so that the their them there these this to was what when where which who why will with you your'.split(' '),
);

function terms(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
}

/**
 * Extractive and deterministic: scores every sentence of the passages by how many of the question's
 * terms it holds, and answers with the best few, each cited [n] to its passage.
 */
export function groundedAnswer(question: string, passages: NonNullable<BackendCall['context']>): string {
  if (passages.length === 0) {
    return 'I have no documents to ground an answer on. Add resources to a LiveDoc, or use an upstream model, to get an answer to: ' + question.trim();
  }
  const wanted = new Set(terms(question));
  const scored: Array<{ sentence: string; source: number; score: number; order: number }> = [];
  passages.forEach((p, source) => {
    const sentences = p.content.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+/);
    sentences.forEach((sentence, i) => {
      const words = terms(sentence);
      const score = new Set(words.filter((w) => wanted.has(w))).size;
      if (sentence.trim()) scored.push({ sentence: sentence.trim(), source, score, order: source * 10_000 + i });
    });
  });
  const hits = scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score || a.order - b.order).slice(0, 3);
  if (hits.length === 0) {
    const titles = passages.map((p, i) => `[${i + 1}] ${p.title}`).join('; ');
    return `The available documents do not answer this directly. They cover: ${titles}.`;
  }
  const body = hits.sort((a, b) => a.order - b.order).map((h) => `${h.sentence} [${h.source + 1}]`).join(' ');
  const cited = [...new Set(hits.map((h) => h.source))].sort((a, b) => a - b);
  const sources = cited.map((i) => `[${i + 1}] ${passages[i].title}${passages[i].link ? ` (${passages[i].link})` : ''}`).join('\n');
  return `${body}\n\nSources:\n${sources}`;
}

export function groundedEngine(grounding?: GroundingSource): Backend {
  const generate = async (call: BackendCall) => {
    const question = lastUserText(call);
    const passages = call.context ?? (grounding ? await grounding(question, call.signal) : []);
    return finish(groundedAnswer(question, passages), call);
  };
  return { generate, stream: (call) => streamGenerated(generate, call) };
}
