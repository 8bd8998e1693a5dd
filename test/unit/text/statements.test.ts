import { describe, expect, it } from 'vitest';
import { pointsBack, statementsOf } from '../../../src/server/text/statements.js';

const texts = (md: string) => statementsOf(md, 300).map((s) => s.text);

describe('statements a deck, a page or a mindmap may show', () => {
  it('a caption over a code block ("Via CLI", a disclosure\'s label) is no statement', () => {
    expect(statementsOf('点击展开文本和拼音匹配示例\n\n```\nmatch("中文拼音", "zwp");\n```\n', 400)).toEqual([]);
    expect(statementsOf('Run the tests with npm.\n\n```\nnpm test\n```\n', 400).map((s) => s.text)).toEqual([
      'Run the tests with npm.',
    ]);
    // debug's "You can simply extend debugger" is a sentence without its full stop, no label.
    expect(statementsOf('You can simply extend debugger\n\n```js\nlog.extend("x");\n```\n', 400)).toHaveLength(1);
    // winston's sentence goes on after its code ("… add" [code] "where … is …"): a statement.
    const cut =
      'To colorize the standard logging level add\n\n```\nformat.colorize()\n```\n\nwhere `x` is any other formatter.\n';
    expect(statementsOf(cut, 400).map((s) => s.text)).toContain('To colorize the standard logging level add');
  });

  it('leave out prose that runs on into code it sits between (gzip man page: "compresses better than")', () => {
    const md = [
      '## Advanced usage',
      'Multiple compressed files can be concatenated.',
      '```\ncat file1 file2 | gzip > foo.gz\n```',
      'compresses better than',
      '```\ngzip -c file1; gzip -c file2 > foo.gz\n```',
      'The whole file is compressed as one member and read back the same way.',
    ].join('\n\n');
    const said = texts(md);
    expect(said).not.toContain('compresses better than');
    expect(said).toContain('Multiple compressed files can be concatenated.');
    expect(said).toContain('The whole file is compressed as one member and read back the same way.');
  });

  it('leave out shell commands a man page printed as paragraphs, and keep the prose around them', () => {
    const md = [
      'If you need the uncompressed size for all members, you can use:',
      'gzip -cd file.gz | wc -c',
      'gunzip -c foo',
      'gzip -c file1 file2 > foo.gz',
      '#! /bin/sh <br> export PATH=/usr/bin <br> exec gzip -9 "$@"',
      '/bin/sh export PATH=/usr/bin exec gzip -9 "$@"',
      'The -c option writes output on standard output and keeps the original files unchanged.',
      'Use the --keep flag',
      '- -a --ascii Ascii text mode convert end-of-lines using local conventions',
    ].join('\n\n');
    expect(texts(md)).toEqual([
      'The -c option writes output on standard output and keeps the original files unchanged.',
      'Use the --keep flag',
      '-a --ascii Ascii text mode convert end-of-lines using local conventions',
    ]);
  });

  it('tell a sentence pointing back at an earlier one from one about the whole document', () => {
    for (const s of [
      'This option is the default when decompressing.',
      'These are used when decompressing the file with the -N option.',
      'With this option, gzip is less likely to lose data during a system crash.',
      'It is faster than zlib.',
      'Seeing that message while not under attack means the timeout is too short.',
    ])
      expect(pointsBack(s), s).toBe(true);
    for (const s of [
      'This module makes it easy to parse dates.',
      'The gzip command reduces the size of the named files.',
      'Items are sorted by date.',
      'Itself a small library, it has no dependencies.',
    ])
      expect(pointsBack(s), s).toBe(false);
  });

  it("keep a quote's code spans and emphasis in its statements' Markdown", () => {
    const md = [
      '> ## Security Releases',
      '>',
      '> Such changes will _always_ be noted in the release notes.',
      '> To pin a minor release, specify the dependency as `"pino": "~6.1.x"`.',
    ].join('\n');
    const found = statementsOf(md, 300);
    expect(found.map((s) => s.markdown)).toEqual([
      'Such changes will _always_ be noted in the release notes.',
      'To pin a minor release, specify the dependency as `"pino": "~6.1.x"`.',
    ]);
    expect(found[0].section).toEqual(['Security Releases']);
  });

  it('keep a whole sentence that ends on such a word before its stop, and items that end on a noun', () => {
    const md =
      'This is the file that every later run is compared to.\n\n- Works with files of any size\n- Keeps the original';
    expect(texts(md)).toEqual([
      'This is the file that every later run is compared to.',
      'Works with files of any size',
      'Keeps the original',
    ]);
  });
});

// textlint's Japanese README opens each rule's settings with "デフォルト設定は次の通りです。" before
// its JSON: a deck point and a mindmap leaf of its own, saying nothing.
it('a sentence saying that what follows is its content is no statement', () => {
  const md =
    'デフォルト設定は次の通りです。\n\n過去の設定の履歴は以下のようになっています。\n\nThe defaults are as follows.\n\nThe harbour opens at six. 次のように`@next`をつけることで試せます。';
  expect(statementsOf(md, 300).map((s) => s.text)).toEqual([
    'The harbour opens at six.',
    '次のように@nextをつけることで試せます。',
  ]);
});
