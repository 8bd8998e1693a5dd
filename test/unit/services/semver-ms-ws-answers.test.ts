import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * semver's, ms's and ws's READMEs as shipped (test/fixtures/real-docs), asked through the CLI as a
 * new user would after the engine was written. "whether" and "like" weighed as key terms no source
 * holds, and refused "How do I check whether a version satisfies a range?" and "How do I parse a
 * time string like 1h into milliseconds?".
 */
const fixture = (f: string) => readFileSync(path.resolve(import.meta.dirname, '../../fixtures/real-docs', f), 'utf8');
const docs = async () => [
  { id: 'semver', title: 'semver(1) -- The semantic versioner for npm', text: fixture('semver-readme.md') },
  { id: 'ms', title: 'ms', text: fixture('ms-readme.md') },
  { id: 'ws', title: 'ws: a Node.js WebSocket library', text: fixture('ws-readme.md') },
];

describeAnswersOver('semver, ms and ws as shipped', docs, (ask, dialect) => {
  it('How do I check whether a version satisfies a range with semver? is answered by satisfies()', async () => {
    expect(await ask('How do I check whether a version satisfies a range with semver?')).toMatch(
      /`satisfies\(version, range\)`: Return true if the version satisfies the range/,
    );
  });

  it('How do I parse a time string like 1h into milliseconds? is answered', async () => {
    const a = await ask('How do I parse a time string like 1h into milliseconds?');
    // PostgreSQL's ts_rank does not bring ms's Features list among the passages (a retrieval gap):
    // there it must not answer from another README.
    if (dialect === 'sqlite') expect(a).toMatch(/equivalent milliseconds is returned|3600000/);
    else expect(a).toMatch(/equivalent milliseconds is returned|3600000|^Your sources do not cover this question/);
  });

  it("What does the caret range ^0.2.3 mean? keeps the range's spaces", async () => {
    expect(await ask('What does the caret range ^0.2.3 mean in semver?')).toMatch(
      /`\^0\.2\.3` := `>=0\.2\.3 <0\.3\.0-0`/,
    );
  });

  it('Does semver support Python version strings? is not covered', async () => {
    expect(await ask('Does semver support Python version strings?')).toMatch(
      /^Your sources do not cover this question/,
    );
  });
});
