/* Numbers and compounds a question names: answered only from a source that names them as asked. */
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

/**
 * Nzh's README (dev split) converts between Chinese and Arabic numerals, never Roman ones: 罗马数字
 * was answered with its sentence about 阿拉伯数字, which shares 数字.
 */
it('a Chinese compound whose first word the source never writes is not covered', () => {
  const content = readFileSync(path.join(BENCH_DOCS, 'nzh-readme.md'), 'utf8');
  const nzh = (query: string) =>
    extractiveAnswer({ query, passages: [{ ref: 1, title: 'Nzh', link: '', content }], history: [] });
  expect(nzh('Nzh 如何把阿拉伯数字转换成罗马数字？')).toMatch(/^你的资料没有涉及这个问题/);
  expect(nzh('Nzh 如何把中文数字转换成阿拉伯数字？')).toMatch(/^根据你的资料：.*阿拉伯数字/);
});

/**
 * "Which uuid function…": a row whose key is written as a call (`uuid.v4()`) is about a function,
 * though its text never says the word; the options table's "a `Function` that returns…" answered.
 */
it('a question asking which function answers with the function, not a row that says "Function"', () => {
  expect(ask('Which uuid function creates a random UUID?')).toContain('uuid.v4()');
});
