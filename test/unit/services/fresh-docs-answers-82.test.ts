import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { extractHtml } from '../../../src/server/engines/extract/html.js';
import { plainTextToMarkdown } from '../../../src/server/text/plain-text.js';
import { describeAnswersOver } from '../../helpers/answers-over-docs.js';

/**
 * Session 82's fresh check: Debian's base-passwd README (plain text, its reserved ids as tables
 * drawn with pipes), cli-table3's README (Markdown), split(1) (groff HTML) and opencc-js's Chinese
 * README, questions written before any answer was read.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/real-docs');
const read = (f: string) => readFileSync(path.join(FIXTURES, f), 'utf8');
const docs = async () => [
  { id: 'base-passwd', title: 'base-passwd-readme', text: plainTextToMarkdown(read('base-passwd-readme.txt')) },
  { id: 'cli-table3', title: 'cli-table3', text: read('cli-table3-readme.md') },
  { id: 'split', title: 'SPLIT', text: extractHtml(read('split.html')).markdown },
  { id: 'opencc', title: 'opencc-js', text: read('opencc-js-readme-zh-cn.md') },
];

describeAnswersOver('fresh documents: plain-text tables, counts in how-to questions, camel-case names', docs, (ask) => {
  // The tables were one block of code: "Reserved uids:" and a sentence about the range answered.
  it("a plain-text table's row answers by its cells", async () => {
    expect(await ask('Which uid is mysql?')).toMatch(/^\| uid \| name \| description \|\n.*\n\| 64001 \| mysql \|/);
  });

  // "Reserved uids:" scored a little above the row and was said with its whole table.
  it('a row of a table holding more of the question answers it, not the label leading into the table', async () => {
    expect(await ask('Which uid is reserved for mysql?')).toBe(
      '| uid | name | description |\n| --- | --- | --- |\n| 64001 | mysql | mysql-server |\n\n[1]',
    );
  });

  // "64045 | ceph | ceph object storage" is in both tables: kept once, it was a uid only.
  it('the same row under two headers is a row of each table', async () => {
    // Said alone: the uid table's row has no gid column.
    expect(await ask('Which gid is ceph?')).toBe(
      '| gid | name | description |\n| --- | --- | --- |\n| 64045 | ceph | ceph object storage |\n\n[1]',
    );
  });

  it('a name no row holds is not covered, rather than the table quoted', async () => {
    expect(await ask('Which uid does base-passwd reserve for postgres?')).toMatch(
      /^Your sources do not cover this question/,
    );
  });

  // "500" was a number no source states, so the question was refused.
  it("a how-to question's count is the asker's value, not a name the source must state", async () => {
    expect(await ask('How do I put 500 lines in each piece with split?')).toMatch(
      /^\*\*-l\*\*, \*\*--lines\*\*=_NUMBER_: put NUMBER lines\/records per output file\. \[1\]/,
    );
  });

  // setColor was read as the words "set" and "color": cli-table3's feature list was the answer.
  it('a camel-case name no source writes is not covered', async () => {
    expect(await ask("How do I set cell colours with cli-table3's setColor method?")).toMatch(
      /^Your sources do not cover this question/,
    );
  });

  // "`hkp`：…" had no term (a full-width colon takes no space after it): a table row naming hkp in
  // code answered instead. Its stop goes after the closing bracket, as a Chinese sentence's: 。
  it('a Chinese list item "`name`：what it is" answers what the name means, with a Chinese full stop', async () => {
    expect(await ask('hkp 表示什么？')).toMatch(/^根据你的资料： `hkp`：且转换香港词汇（例如：鼠标 -> 滑鼠）。 \[1\]/);
  });
});
