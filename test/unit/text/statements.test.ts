import { describe, expect, it } from 'vitest';
import { statementsOf } from '../../../src/server/text/statements.js';

const texts = (md: string) => statementsOf(md, 300).map((s) => s.text);

describe('statements a deck, a page or a mindmap may show', () => {
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
