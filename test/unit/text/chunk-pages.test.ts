import fc from 'fast-check';
import { expect, it } from 'vitest';
import { chunkPages } from '../../../src/server/engines/retrieval/chunker.js';

const word = fc.stringMatching(/^[a-z]{3,8}$/);
const sentence = fc.array(word, { minLength: 3, maxLength: 8 }).map((w) => `${w.join(' ')}.`);

it('a page that opens mid-section keeps its heading, wherever the page breaks fall', () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(sentence, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }),
      fc.array(fc.nat(), { maxLength: 4 }),
      (sections, cuts) => {
        // Blocks in order: each section's heading, then its paragraphs; pages cut between any two blocks.
        const blocks = sections.flatMap((paras, s) => [`## Section ${s + 1}`, ...paras.map((p) => `${p} (${s + 1})`)]);
        const at = [...new Set(cuts.map((c) => 1 + (c % blocks.length)))].sort((a, b) => a - b);
        const pages = [0, ...at].map((from, k) => blocks.slice(from, at[k] ?? blocks.length).join('\n\n'));
        for (const chunk of chunkPages(pages.filter(Boolean))) {
          const owner = /\((\d+)\)/.exec(chunk.content)?.[1];
          expect(chunk.title).toBe(`Section ${owner}`);
        }
      },
    ),
    { numRuns: 60 },
  );
});
