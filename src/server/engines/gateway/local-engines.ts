import type { MeterScope, StopReason } from '../gateway-types.js';
import { extractiveAnswer } from '../grounded-writer.js';
import { alignCitations } from '../citations.js';
import { extractiveOutline } from '../outline-writer.js';
import { streamText, type Backend, type BackendCall, type BackendResult } from './backend.js';
import { truncateToTokens } from './tokenizer.js';
import { localOutline } from '../slides/outline-writer.js';
import { OUTLINE_FORMAT_NAME } from '../slides/model.js';

/** Where the grounded model finds the caller's knowledge when a call brings no passages itself. */
export type GroundingSource = (
  query: string,
  scope: MeterScope,
  signal?: AbortSignal,
) => Promise<NonNullable<BackendCall['context']>>;

function lastUserText(call: BackendCall): string {
  for (let i = call.messages.length - 1; i >= 0; i--)
    if (call.messages[i].role === 'user') return call.messages[i].content;
  return '';
}

/** Applies stop sequences, then the token limit, the way an upstream would report them. */
export async function finish(text: string, call: BackendCall): Promise<BackendResult> {
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

/**
 * Answers from the passages a call brings (chat, conversations), else from the caller's own
 * knowledge through the grounding source (a plain /api/v1 call), with the local extractive writer.
 */
export function groundedEngine(grounding?: GroundingSource): Backend {
  const generate = async (call: BackendCall) => {
    const users = call.messages.filter((m) => m.role === 'user').map((m) => m.content);
    const question = call.question ?? users[users.length - 1] ?? '';
    const context = call.context ?? (grounding && call.scope ? await grounding(question, call.scope, call.signal) : []);
    const passages = context.map((p, i) => ({
      ref: Number(p.id) > 0 ? Number(p.id) : i + 1,
      title: p.title,
      link: p.link ?? '',
      content: p.content,
      opening: p.opening,
    }));
    if (call.artifact?.kind === 'mindmap_outline')
      return finish(extractiveOutline({ query: question, passages }), call);
    // A slide outline (engines/slides): the same passages, written as an outline.
    if (call.artifact?.kind === OUTLINE_FORMAT_NAME) {
      return finish(
        JSON.stringify(
          localOutline({
            query: question,
            passages: passages.map((p) => ({ ...p, source: p.link })),
            maxSlides: call.artifact.maxSlides,
          }),
        ),
        call,
      );
    }
    const history = users.slice(0, -1).map((query) => ({ query, answer: null }));
    let text = extractiveAnswer({ query: question, passages, history });
    // A caller that brought its passages lists its sources itself (chat's data.resources, the
    // conversation's footer); when the engine found them, the answer names them.
    // The sources listed are the ones cited, each once (several passages may come from one source).
    // They are numbered [1]..[k] in order of first citation.
    if (!call.context && passages.length > 0) {
      const byRef = Array.from({ length: Math.max(...passages.map((p) => p.ref)) }, (_, i) =>
        passages.find((p) => p.ref === i + 1),
      );
      const aligned = alignCitations(text, byRef);
      text = aligned.text;
      const listed = aligned.sources.map((p, i) => (p ? `[${i + 1}] ${p.title}${p.link ? ` (${p.link})` : ''}` : ''));
      if (listed.length > 0) text += '\n\nSources:\n' + listed.filter(Boolean).join('\n');
    }
    return finish(text, call);
  };
  return { generate, stream: (call) => streamGenerated(generate, call) };
}
