import { expect, it } from 'vitest';
import { answerIntent, comparedSubjects } from '../../../src/server/engines/answer-intent.js';

/**
 * "compare" in a question is not always a comparison asked for: "How do I compare two directories
 * with cmp?" asks how to do a task, and "Which option makes cmp compare at most N bytes?" names
 * what an option does. Both were split into "subjects" ("two directories recursively", "at most a
 * given number of bytes") and answered subject by subject from other documents.
 */
it('how to compare is a task, not a comparison', () => {
  expect(answerIntent('How do I compare two directories recursively with cmp?')).toBe('answer');
  expect(answerIntent('How to compare two files byte by byte?')).toBe('answer');
  expect(answerIntent('How does pino compare with winston?')).toBe('compare');
  expect(answerIntent('Compare pino and winston')).toBe('compare');
});

it('compared subjects are names in a few words; a clause or a question is none', () => {
  expect(comparedSubjects('Compare pino and winston')).toEqual(['pino', 'winston']);
  expect(comparedSubjects("What is Pino's average compared with Winston's?")).toEqual(["Pino's average", 'Winston']);
  expect(
    comparedSubjects(
      'Which option makes cmp compare at most a given number of bytes, and which option makes date print UTC?',
    ),
  ).toEqual([]);
  expect(comparedSubjects('How big is fecha minified and gzipped, compared with Moment?')).toEqual([]);
  // "the" after "Compare" stood after a space, so it stayed: a sixth word, and no subject.
  expect(comparedSubjects('Compare the hour field in cron-parser and node-cron.')).toEqual([
    'hour field in cron-parser',
    'node-cron',
  ]);
});

it('a Japanese clause is no compared subject: "VS Code" names an editor, not a comparison', () => {
  // Split at "VS", its parts were answered as subjects: "このプリセットを" by any sentence naming the preset.
  expect(comparedSubjects('このプリセットを VS Code で使うにはどう設定しますか？')).toEqual([]);
  expect(comparedSubjects('pino vs winston')).toEqual(['pino', 'winston']);
});

it('a Japanese request to list items is a list question', () => {
  expect(answerIntent('the textlint preset の「Contributing」の項目を挙げてください。')).toBe('list');
  expect(answerIntent('ルールを列挙してください')).toBe('list');
});
