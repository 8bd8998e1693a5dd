import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownBlocks } from '../../../src/server/text/markdown.js';
import { sentences, words } from '../../../src/server/text/segment.js';
import { chunkText } from '../../../src/server/engines/retrieval/chunker.js';

/**
 * What Intl.Segmenter finds walking the whole string at once (the reference the windows must match),
 * each segment read as it comes: V8's segment objects held in an array make the collector crawl.
 */
const wholeSegments = (granularity: 'word' | 'sentence', text: string) => {
  const out: Array<{ segment: string; isWordLike: boolean }> = [];
  for (const s of new Intl.Segmenter(undefined, { granularity }).segment(text))
    out.push({ segment: s.segment, isWordLike: s.isWordLike === true });
  return out;
};
const wholeWords = (text: string) =>
  wholeSegments('word', text)
    .filter((s) => s.isWordLike)
    .map((s) => s.segment);
/** Unicode's sentences, each also cut before a word in lower case after a full stop (segment.ts). */
const wholeSentences = (text: string) =>
  wholeSegments('sentence', text)
    .flatMap((s) => s.segment.split(/(?<=(?:^|[^\p{L}\p{N}.…])(?!etc\.)[\p{L}\p{N}]{2,}\.)\s+(?=\p{Ll})/u))
    .map((s) => s.trim())
    .filter(Boolean);

describe('long texts are segmented a window at a time, with the same result', () => {
  const piece = fc.constantFrom(
    'Harbour words in a long paragraph. ',
    'Set DEBUG=* to see everything! ',
    'e.g. the v8.x line ends soon? ',
    '退货政策说明了如何退货。',
    'ピノは速いロガーです。',
    'no full stop here ',
    '\n\n',
  );
  it('words and sentences of texts spanning many windows match one walk of the whole string (property)', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 200, maxLength: 600 }), (parts) => {
        const text = parts.join('');
        expect(words(text)).toEqual(wholeWords(text));
        expect(sentences(text)).toEqual(wholeSentences(text));
      }),
      { numRuns: 40 },
    );
  });
});

describe('a Markdown text past the size parsed whole', () => {
  it('is parsed in pieces: sections carry over, a fence cut in two stays code, every word is kept', () => {
    const code = Array.from({ length: 12_000 }, (_, i) => `line ${i} = "*_not emphasis_*"`).join('\n');
    const prose = 'Harbour words in a long paragraph. '.repeat(12_000);
    const text = `# Notes\n\n${prose}\n\n## Code\n\n\`\`\`js\n${code}\n\`\`\`\n\nAfter the code, DEBUG=* still reads as written.\n`;
    expect(text.length).toBeGreaterThan(600_000);
    const blocks = markdownBlocks(text);
    const codeBlocks = blocks.filter((b) => b.kind === 'code');
    expect(codeBlocks.length).toBeGreaterThan(1);
    expect(codeBlocks.map((b) => (b.kind === 'code' ? b.value : '')).join('\n')).toBe(code);
    expect(codeBlocks.every((b) => b.section.join('/') === 'Notes/Code')).toBe(true);
    const last = blocks.at(-1)!;
    expect(last.text).toBe('After the code, DEBUG=* still reads as written.');
    expect(last.section).toEqual(['Notes', 'Code']);
    const paragraphs = blocks.filter((b) => b.kind === 'paragraph' && b.section.length === 1);
    expect(
      paragraphs
        .map((b) => b.text)
        .join(' ')
        .split(' ')
        .filter(Boolean).length,
    ).toBe(6 * 12_000);
  });

  it('a single paragraph of a million characters is chunked with every sentence kept', () => {
    const text = `# Long notes\n\n${'Harbour words in a long paragraph. '.repeat(30_000)}`;
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(100);
    expect(chunks.every((c) => c.title === 'Long notes')).toBe(true);
    expect(
      chunks
        .map((c) => c.content)
        .join(' ')
        .match(/Harbour/g),
    ).toHaveLength(30_000);
  });
});

describe('a long text of Chinese without punctuation (issue 46)', () => {
  it('is chunked whole, each chunk carrying its words for the full-text index', () => {
    const base = '退货政策说明了如何退货我们的产品在三十天内可以退回商店并且需要保留收据和原包装';
    const text = base.repeat(Math.ceil(300_000 / base.length));
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(10);
    expect(chunks.map((c) => c.content).join('')).toBe(text);
    for (const c of chunks) {
      expect(c.searchContent).toBeTruthy();
      expect(c.searchContent!.split(' ')).toContain('政策');
    }
  });
});
