import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import {
  countPromptTokens,
  countTokens,
  promptTokensAtMost,
  truncateToTokens,
} from '../../../src/server/engines/gateway/tokenizer.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
// js-tiktoken's own encoder is the reference: the counts must not move for ordinary text.
const reference = new Tiktoken(o200k);

const ordinary = [
  'Hello, world! This is a test.',
  "It's   a  test\n\n\twith   spaces   \n and they'll say 'you're right'",
  'def foo(x):\n    return x ** 2  # comment\n',
  '日本語のテキストです。これはテストです。',
  '😀😃😄😁 emoji 👩‍👩‍👧‍👦 family',
  'Ünïcödé façade naïve café 12345678 3.14159',
  'Привет мир, как дела? 你好世界 مرحبا بالعالم',
  '     \n\n\n   x   \r\n\r\n  ',
  'a'.repeat(300),
  '😀'.repeat(200),
  readFileSync(path.join(ROOT, 'README.md'), 'utf8'),
  readFileSync(path.join(ROOT, 'src/server/engines/gateway/gateway.ts'), 'utf8'),
];

/** A seeded generator, so a failure names a string that can be replayed. */
function* randomTexts(seed: number, n: number): Generator<string> {
  const alphabet = [
    'a',
    'b',
    'A',
    ' ',
    '\n',
    '日',
    '本',
    '😀',
    'é',
    '1',
    '2',
    '.',
    ',',
    "'",
    's',
    'll',
    '-',
    '\t',
    '👩‍👧',
    'ing',
    'The',
  ];
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648);
  for (let k = 0; k < n; k++) {
    let s = '';
    const len = next() % 300;
    for (let i = 0; i < len; i++) s += alphabet[next() % alphabet.length];
    yield s;
  }
}

describe('token counting', () => {
  it('gives js-tiktoken’s counts for ordinary text: English, code, CJK, emoji, mixed', async () => {
    for (const text of [...ordinary, ...randomTexts(7, 200)])
      expect(await countTokens(text), JSON.stringify(text.slice(0, 60))).toBe(reference.encode(text).length);
  });

  it('counts a prompt with the same framing as before: 3 per request, 3 per message', async () => {
    const parts = {
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'What is BPE?' },
        { role: 'assistant', content: '' },
      ],
    };
    const expected = 3 + 3 * 3 + reference.encode('Be brief.').length + reference.encode('What is BPE?').length;
    expect(await countPromptTokens(parts)).toBe(expected);
    expect(promptTokensAtMost(parts)).toBeGreaterThanOrEqual(expected);
  });

  it('truncates to the same text as before, reading no further than the cut', async () => {
    for (const text of ordinary) {
      const tokens = reference.encode(text);
      const max = Math.max(1, Math.floor(tokens.length / 2));
      const cut = await truncateToTokens(text, max);
      expect(cut).toEqual({
        text: reference.decode(tokens.slice(0, max)).replace(/\uFFFD+$/, ''),
        tokens: max,
        truncated: true,
      });
    }
    expect(await truncateToTokens('short text', 100)).toEqual({ text: 'short text', tokens: 2, truncated: false });
  });

  it('counts a special-token string as the plain text it is instead of failing', async () => {
    const text = 'the marker <|endoftext|> in a prompt';
    expect(() => reference.encode(text)).toThrow();
    // encode(text, [], []): nothing allowed, nothing refused, which is tiktoken's encode_ordinary.
    expect(await countTokens(text)).toBe(reference.encode(text, [], []).length);
  });

  // Pieces merged once are looked up the next time (markup repeats them): the tokens must be the
  // same from the lookup as from the merge, also once the bounded table was emptied and refilled.
  it('gives the same tokens for a repeated piece, before and after its merge table was emptied', async () => {
    const { loadEncoder } = await import('../../../src/server/engines/gateway/encoder.js');
    const enc = await loadEncoder();
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="192"><rect x="12.5" y="40" fill="#1a2b3c" stroke-width="1.25"/></svg>';
    const markup = `${svg}\n`.repeat(50) + 'Ünïcödé façade naïve 日本語 😀 ' + svg;
    for (let round = 0; round < 2; round++) expect(enc.encode(markup)).toEqual(reference.encode(markup));
    // 20,000 distinct words of several tokens each: more than the table keeps.
    const word = (i: number) =>
      ' zq' + [...i.toString(26)].map((c) => String.fromCharCode(97 + Number.parseInt(c, 26))).join('') + 'xv';
    const many = Array.from({ length: 20_000 }, (_, i) => word(i)).join('');
    expect(enc.count(many)).toBe(reference.encode(many).length);
    expect(enc.encode(markup)).toEqual(reference.encode(markup));
    expect(enc.encode(word(7) + word(19_999))).toEqual(reference.encode(word(7) + word(19_999)));
  });

  // The old merge loop rescanned the whole piece after each merge: 2,000 emoji took about 10 s and
  // 200 KB never finished. The bounds are loose (a loaded CI machine); bench/event-loop has figures.
  it.each([
    ['CJK', '日本語の文章'.repeat(34_000)],
    ['emoji', '😀🎉'.repeat(25_000)],
    ['a run of one letter', 'a'.repeat(200_000)],
    ['spaces', ' '.repeat(200_000) + 'x'],
  ])('counts 200 KB of %s in linear time', async (_name, text) => {
    await countTokens('warm up');
    const started = performance.now();
    const n = await countTokens(text);
    expect(n).toBeGreaterThan(1000);
    expect(performance.now() - started).toBeLessThan(5_000);
    // A prefix's tokens are the whole text's, so the cut is exact even inside one long piece.
    const cut = await truncateToTokens(text, 100);
    expect(cut.tokens).toBe(100);
    expect(await countTokens(cut.text)).toBe(100);
  });
});

describe('loading the ranks', () => {
  it('gives the event loop turns while it reads them, and encodes as js-tiktoken does', async () => {
    const { BytePairEncoder } = await import('../../../src/server/engines/gateway/bpe.js');
    // Read all at once, the 200,000 ranks held the loop a quarter of a second: no other request
    // (a /healthz, a stream's next event) ran meanwhile. Turns are counted, not milliseconds.
    let turns = 0;
    let loading = true;
    const tick = () => {
      turns++;
      if (loading) setImmediate(tick);
    };
    setImmediate(tick);
    const enc = await BytePairEncoder.load(o200k);
    loading = false;
    expect(turns).toBeGreaterThanOrEqual(10);
    for (const text of ordinary) expect(enc.count(text)).toBe(reference.encode(text).length);
  });
});
