import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { qualifiedNumbers } from '../../../src/server/engines/answer/rank.js';
import { BENCH_DOCS } from '../../helpers/answers-over-docs.js';

it('a number named with the word before it is a pair of terms (stemmed); a count or a bound is not', () => {
  expect(qualifiedNumbers('How do I generate a version 7 UUID?')).toEqual([['version', '7']]);
  expect(qualifiedNumbers('What does exit code 2 mean? And status 418?')).toEqual([
    ['code', '2'],
    ['statu', '418'],
  ]);
  expect(qualifiedNumbers('List the first 3 options over 100 bytes, for pino 9.x and uuid@7.x')).toEqual([]);
});

/**
 * uuid's README (bench/content's dev split) was written before version 7 UUIDs: "As of uuid@7.x
 * this library now provides ECMAScript modules builds" holds a 7 and "uuid", and answered how to
 * generate a version 7 UUID. A version it does describe is still answered.
 */
const ask = (query: string) =>
  extractiveAnswer({
    query,
    passages: [
      {
        ref: 1,
        title: 'uuid',
        link: '',
        content: htmlToMarkdown(readFileSync(path.join(BENCH_DOCS, 'uuid-readme.html'), 'utf8')),
      },
    ],
    history: [],
  });

it('a version the sources never name with its number is not covered', () => {
  expect(ask('How do I generate a version 7 UUID with the uuid package?')).toMatch(
    /^Your sources do not cover this question/,
  );
  expect(ask('What does uuid.v5() create?')).toMatch(/version 5/);
});
