import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok, startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 44 through the CLI against `facet serve`, on real READMEs (bench/content's dev split): a
 * question whose one missing word is a technical term ("lookbehind", "insensitive") asks about what the
 * sources do not hold, though they hold its other words ("option", "regular expression",
 * "option names", "case"); a question whose missing word is common English ("hold") is asked
 * in other words than the source's. Before, both weighed the same, and the first kind was answered
 * with a sentence about something else.
 */
const SOURCES = path.join(import.meta.dirname, '../../bench/content/sources');

let p: Platform;
let livedoc: string;

beforeAll(async () => {
  p = await startPlatform();
  livedoc = ok(await p.cli(['livedocs', 'create', 'READMEs'])).stdout.trim();
  for (const [file, title] of [
    ['picomatch-readme.md', 'picomatch'],
    ['../docs/commander-readme.md', 'Commander.js'],
    ['uuid-readme.md', 'uuid'],
  ])
    ok(await p.cli(['livedocs', 'resources', 'upload-doc', livedoc, path.join(SOURCES, file), '--title', title]));
}, 120_000);

afterAll(() => p?.cleanup());

const ask = async (question: string) => ok(await p.cli(['ask', question, '--livedoc', livedoc])).stdout;

it('says "not covered" when the one missing word is a technical term', async () => {
  expect(await ask('Which picomatch option enables regular expression lookbehind?')).toMatch(
    /Your sources do not cover this question\./,
  );
  expect(await ask("How do I make Commander's option names case-insensitive?")).toMatch(
    /Your sources do not cover this question\./,
  );
});

it('answers when the missing word is common English said in other words', async () => {
  expect(await ask('What does uuid.NIL hold?')).toContain('The nil UUID string (all zeros)');
});
