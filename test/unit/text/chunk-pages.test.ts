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

it('every chunk keeps the whole path of headings it sits under, across page breaks (generated)', () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(sentence, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }),
      fc.array(fc.integer({ min: 2, max: 4 }), { minLength: 5, maxLength: 5 }),
      fc.array(fc.nat(), { maxLength: 4 }),
      (sections, depths, cuts) => {
        // Under one title, sections at depths 2–4: each paragraph names its section, whose path is known.
        const blocks = ['# Guide'];
        const paths = new Map<string, string[]>();
        const open: string[] = ['Guide'];
        sections.forEach((paras, s) => {
          const depth = Math.min(depths[s], open.length + 1);
          open.splice(depth - 1, open.length, `Part ${s + 1}`);
          paths.set(String(s + 1), [...open]);
          blocks.push(`${'#'.repeat(depth)} Part ${s + 1}`, ...paras.map((p) => `${p} (${s + 1})`));
        });
        const at = [...new Set(cuts.map((c) => 1 + (c % blocks.length)))].sort((a, b) => a - b);
        const pages = [0, ...at].map((from, k) => blocks.slice(from, at[k] ?? blocks.length).join('\n\n'));
        for (const chunk of chunkPages(pages.filter(Boolean))) {
          const owner = /\((\d+)\)/.exec(chunk.content)?.[1];
          if (owner) expect(chunk.headings).toEqual(paths.get(owner));
        }
      },
    ),
    { numRuns: 60 },
  );
});
