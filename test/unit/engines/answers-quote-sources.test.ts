import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { toString } from 'mdast-util-to-string';
import { visit } from 'unist-util-visit';
import { expect, it } from 'vitest';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';
import { BENCH_DOCS } from '../../helpers/answers-over-docs.js';

/**
 * Whatever passages retrieval hands the writer, and whatever it is asked, an answer quotes its
 * sources as written: each code span and code line is in them, and a block is never joined to the
 * lead-in's line (a fence that does not open reads the rest of the answer as code). Passages are
 * sections of bench/content's dev documents (nobody here wrote them), questions its dev questions.
 */
const parse = (md: string) => fromMarkdown(md, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const docs = [
  ['debug', 'debug-readme.md'],
  ['Commander.js', 'commander-readme.md'],
  ['http-errors', 'http-errors-readme.md'],
  ['Benchmarks', 'pino-benchmarks.md'],
  ['Nzh', 'nzh-readme.md'],
  ['buffer', '../sources/buffer-readme.md'],
  ['uuid', '../sources/uuid-readme.md'],
  ['picomatch', '../sources/picomatch-readme.md'],
  ['winston', '../sources/winston-readme.md'],
  ['bytes', '../sources/bytes-readme.md'],
];
const sections = docs.flatMap(([title, file]) =>
  readFileSync(path.join(BENCH_DOCS, file), 'utf8')
    .split(/\n(?=## )/)
    .map((content) => ({ title, content })),
);
const questions: string[] = JSON.parse(readFileSync(path.resolve(BENCH_DOCS, '../questions.dev.json'), 'utf8')).map(
  (q: { question: string }) => q.question,
);

function quotes(answer: string): string[] {
  const out: string[] = [];
  visit(parse(answer), (node) => {
    if (node.type === 'inlineCode') out.push(node.value);
    if (node.type === 'code') out.push(...node.value.split('\n').filter((l) => l.trim()));
  });
  return out;
}

it('quotes only what its passages hold, and opens no block on the lead-in line', () => {
  const question = fc.oneof(
    fc.constantFrom(...questions),
    fc
      .tuple(fc.constantFrom(...questions), fc.constantFrom(...questions))
      .map(([a, b]) => `${a.replace(/[?？]$/, '')}, and ${b}`),
  );
  fc.assert(
    fc.property(question, fc.array(fc.constantFrom(...sections), { minLength: 1, maxLength: 6 }), (query, picked) => {
      const refs = new Map<string, number>();
      const passages = picked.map((s) => {
        if (!refs.has(s.title)) refs.set(s.title, refs.size + 1);
        return { ref: refs.get(s.title)!, title: s.title, link: '', content: s.content };
      });
      const answer = extractiveAnswer({ query, passages, history: [] });
      const held = squash(passages.map((p) => `${p.content}\n${toString(parse(p.content))}`).join('\n'));
      expect(quotes(answer).filter((q) => !held.includes(squash(q)))).toEqual([]);
      expect(answer).not.toMatch(/^[^\n]*[:：] ?(?:`{3}|\|)/);
    }),
    { numRuns: 100 },
  );
});

// tail(1) as groff writes it: a description broken in mid-sentence, and a Chinese note in bold.
it('adds no full stop inside a sentence a page break split, nor after a bold sentence that has one', () => {
  const tail = {
    ref: 1,
    title: 'TAIL',
    link: '',
    content:
      '**--max-unchanged-stats**=_N_\n\nwith **--follow**=_name_, reopen a FILE which has not\n\nchanged size after N (default 5) iterations to see if it has been unlinked or renamed (this is the usual case of rotated log files); with inotify, this option is rarely useful\n\n**--pid**=_PID_\n\nwith **-f**, terminate after process ID, PID dies',
  };
  const stats = extractiveAnswer({
    query: 'What is the default for --max-unchanged-stats?',
    passages: [tail],
    history: [],
  });
  expect(stats).toContain('reopen a FILE which has not changed size after N (default 5) iterations');
  const pinyin = {
    ref: 1,
    title: 'tiny-pinyin',
    link: '',
    content: '轻量的 **汉字转拼音** JavaScript库。\n\n**注意：不支持多音字；`ie/edge` 测试未通过。**',
  };
  const note = extractiveAnswer({ query: 'tiny-pinyin 支持多音字吗？', passages: [pinyin], history: [] });
  expect(note).toContain('**注意：不支持多音字；`ie/edge` 测试未通过。** [1]');
});

// uuid's feature list: "Cross-platform - Support for ..." says what it supports in its sub-items.
it('says a list item with its sub-items, which say what it leads into', () => {
  const uuid = {
    ref: 1,
    title: 'uuid',
    link: '',
    content: [
      '## Features',
      '',
      '- **Complete** - Support for RFC4122 version 1, 3, 4, and 5 UUIDs',
      '- **Cross-platform** - Support for ...',
      '  - CommonJS, ECMAScript Modules and CDN builds',
      '  - Node 8, 10, 12, 14',
      '- **Secure** - Cryptographically-strong random values',
    ].join('\n'),
  };
  const answer = extractiveAnswer({ query: 'What is Cross-platform in uuid?', passages: [uuid], history: [] });
  expect(answer).toContain('**Cross-platform** - Support for ... [1]');
  expect(answer).toContain('- Node 8, 10, 12, 14. [1]');
  expect(answer).not.toContain('Cryptographically');
});
