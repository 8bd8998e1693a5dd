import { expect, it } from 'vitest';
import { chunkText } from '../../../src/server/engines/retrieval/chunker.js';

/**
 * A list stays in one excerpt with the sentence leading into it, while it fits the largest chunk:
 * Valgrind's FAQ lists four kinds of leak in ~150 words, and the excerpt cut after the third, so
 * "which kinds of leak" was answered with three of them.
 */
it('keeps a list of long items with its lead-in in one chunk', () => {
  const item = (name: string) =>
    `- "${name}" means your program is leaking memory in some way that the user manual explains at length, with examples of how it happens and what to do about it in practice.`;
  const text = [
    '## Leaks',
    '',
    'The details are in the user manual. In short:',
    '',
    ...['definitely lost', 'indirectly lost', 'possibly lost', 'still reachable'].map(item),
  ].join('\n');
  const chunks = chunkText(text);
  const holding = chunks.filter((c) => /definitely lost|still reachable/.test(c.content));
  expect(holding).toHaveLength(1);
  expect(holding[0].content).toContain('In short:');
  expect(holding[0].content).toContain('"still reachable"');
});

it('still cuts a list longer than the largest chunk', () => {
  const items = Array.from({ length: 60 }, (_, i) => `- item ${i} has a few words of its own here`);
  const chunks = chunkText(['## Many', '', ...items].join('\n'));
  expect(chunks.length).toBeGreaterThan(1);
  expect(
    chunks
      .map((c) => c.content)
      .join('\n\n')
      .match(/^- item/gm),
  ).toHaveLength(60);
});

it('carries labels ending a chunk over to the chunk of what they name', () => {
  // About 112 words, then the label and its short fields, then the description that overflows the chunk.
  const long = Array.from({ length: 15 }, (_, i) => `Sentence ${i} of the example says it.`).join(' ');
  const text = [
    '## Options Examples',
    '',
    long,
    '',
    'options.expandRange',
    '',
    'Type: function',
    '',
    'Default: undefined',
    '',
    'Custom function for expanding ranges in brace patterns, or any custom code you need here.',
  ].join('\n');
  const chunks = chunkText(text);
  expect(chunks).toHaveLength(2);
  const label = chunks.find((c) => c.content.includes('options.expandRange'));
  expect(label?.content).toContain('Custom function for expanding ranges');
});
