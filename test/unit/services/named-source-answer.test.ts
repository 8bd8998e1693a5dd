import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { BENCH_DOCS, describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * Real documents nobody here wrote (bench/content/docs): Commander's README, debug's README, pino's
 * benchmarks and winston's README as a LibreOffice DOCX, in one LiveDoc. Commander speaks of
 * "default values" of "options" at length; a question that names winston means winston's table.
 */
const docs = async () => {
  const docx = await extractDocument('docx', readFileSync(path.join(BENCH_DOCS, 'winston-readme.docx')));
  return [
    ...['commander-readme.md', 'debug-readme.md', 'pino-benchmarks.md'].map((f) => {
      const text = readFileSync(path.join(BENCH_DOCS, f), 'utf8');
      return { id: f.replace(/\W/g, '_'), title: /^# (.+)$/m.exec(text)![1], text };
    }),
    { id: 'winston', title: docx.title ?? 'winston', text: docx.text },
  ];
};

describeAnswersOver('answers over several real documents, one of them named', docs, (ask, dialect) => {
  // A source named by a word of its title (answer/model-params.ts unnamedSource): the other sources'
  // units count half, so Commander's "default value for an option" no longer wins. Which winston
  // passage is retrieved differs by store (bm25 and ts_rank), so only the source is checked here.
  it('"winston\'s level option": answered from winston alone, never from Commander\'s default values', async () => {
    const a = await ask("What is the default value of winston's level option?");
    // PostgreSQL's ts_rank retrieves winston's sections on levels but not its options table, and
    // none of them holds a default value of the level option: "not covered", closest to winston.
    if (dialect === 'postgres') expect(a).toMatch(/^Your sources do not cover this question\. .*closest to: winston/);
    else expect(a).toMatch(/level/);
    expect(a).not.toMatch(/cheese|pizza|\[2\]/);
  });

  it("lists npm's levels when asked for npm's, not syslog's from the same section", async () => {
    const a = await ask("List winston's npm logging levels with their priorities.");
    expect(a).toContain('silly: 6');
    expect(a).not.toContain('emerg');
  });

  // winston's DailyRotateFile was the answer to a question about debug, which writes no files: a
  // part naming a source is answered by another only where that one names it too.
  it("debug's log rotation: not covered, winston's daily rotation is not debug's", async () => {
    expect(await ask('How do I make debug rotate its log files every day?')).toMatch(
      /^Your sources do not cover this question/,
    );
    expect(await ask('How do I make winston rotate its log files every day?')).toContain('DailyRotateFile');
  });

  it('a question naming Commander still gets Commander', async () => {
    expect(await ask('How do I give a Commander option a default value?')).toContain("'blue'");
  });
});
