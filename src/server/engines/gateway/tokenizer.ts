import type { Tiktoken } from 'js-tiktoken/lite';

/**
 * A real BPE tokenizer (o200k_base, the ranks ship inside js-tiktoken: offline, no download). Loading
 * the ranks takes a few hundred milliseconds, so it happens on the first count, once per process.
 */
let encoder: Promise<Tiktoken> | undefined;

function load(): Promise<Tiktoken> {
  encoder ??= (async () => {
    const [{ Tiktoken }, ranks] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/o200k_base')]);
    return new Tiktoken(ranks.default);
  })();
  return encoder;
}

export async function countTokens(text: string): Promise<number> {
  if (text === '') return 0;
  return (await load()).encode(text).length;
}

/** Per-message framing, as chat formats add a few tokens around each message. */
const PER_MESSAGE = 3;
const PER_REQUEST = 3;

export async function countPromptTokens(parts: { system?: string; messages: Array<{ role: string; content: string }> }): Promise<number> {
  const enc = await load();
  let n = PER_REQUEST;
  if (parts.system) n += PER_MESSAGE + enc.encode(parts.system).length;
  for (const m of parts.messages) n += PER_MESSAGE + enc.encode(m.content).length;
  return n;
}

/**
 * Cuts text to at most maxTokens tokens, for local models that honour max tokens. A cut that lands
 * inside a multi-byte character drops the partial character.
 */
export async function truncateToTokens(text: string, maxTokens: number): Promise<{ text: string; tokens: number; truncated: boolean }> {
  const enc = await load();
  const tokens = enc.encode(text);
  if (tokens.length <= maxTokens) return { text, tokens: tokens.length, truncated: false };
  const cut = enc.decode(tokens.slice(0, maxTokens)).replace(/\uFFFD+$/, '');
  return { text: cut, tokens: maxTokens, truncated: true };
}
