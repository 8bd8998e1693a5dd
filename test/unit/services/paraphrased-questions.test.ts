import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { BENCH_DOCS } from '../../helpers/answers-over-docs.js';

/**
 * A question in other words than its source's. debug's README says "By default debug will log to
 * stderr": asked where debug "writes" its output, the engine said the sources do not cover it, since
 * the question's own verb weighed as a word no source holds. The passages are those retrieval gives
 * for it over bench/content's dev documents.
 */
const section = (file: string, heading: string) => {
  const text = readFileSync(path.join(BENCH_DOCS, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  const end = text.indexOf('\n## ', start + heading.length + 2);
  return text.slice(start + 1, end < 0 ? undefined : end).trim();
};
const passages = [
  ...[
    '##### PowerShell (VS Code default)',
    '## Namespace Colors',
    '## Conventions',
    '## Environment Variables',
    '## Output streams',
  ].map((h) => ({ ref: 1, title: 'debug', link: '', content: section('debug-readme.md', h) })),
  {
    ref: 2,
    title: 'Commander.js',
    link: '',
    content: section('commander-readme.md', '### Override exit and output handling'),
  },
];
const ask = (query: string) => extractiveAnswer({ query, passages, history: [] });

it('Where does debug write its output by default? is answered from debug: stderr', () => {
  const answer = ask('Where does debug write its output by default?');
  expect(answer).toMatch(/debug.* will log to stderr/);
  // A sentence of another section, about the question only by its heading, is no part of it.
  expect(answer).not.toMatch(/run the program/);
});

it('a question whose subject no source holds is still not covered', () => {
  expect(ask('Where does debug write its crash dumps on Windows?')).toMatch(/^Your sources do not cover this question/);
});

// "whether" is a function word: as a key term no source holds, it left semver's satisfies() below
// the coverage a question needs, and "How do I check whether a version satisfies a range?" was refused.
it('How do I check whether a version satisfies a range? is answered by satisfies()', () => {
  const answer = extractiveAnswer({
    query: 'How do I check whether a version satisfies a range with semver?',
    passages: [
      {
        ref: 1,
        title: 'semver(1) -- The semantic versioner for npm',
        link: '',
        content: [
          '## Ranges',
          '',
          "- `validRange(range)`: Return the valid range or null if it's not valid.",
          '- `satisfies(version, range)`: Return true if the version satisfies the range.',
          '- `outside(version, range, hilo)`: Return true if the version is outside the bounds of the range.',
          '',
          '## Functions',
          '',
          "- `valid(v)`: Return the parsed version, or null if it's not valid.",
          '- `major(v)`: Return the major version number.',
          '- `clean(version)`: Clean a string to be a valid semver if possible.',
        ].join('\n'),
      },
    ],
    history: [],
  });
  expect(answer).toMatch(/`satisfies\(version, range\)`/);
});
