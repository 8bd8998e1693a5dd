import { describe, expect, it } from 'vitest';
import { escapeMarkup } from '../../../src/server/text/escape-markup.js';
import { breakLines } from '../../../src/server/text/line-break.js';

describe('escapeMarkup', () => {
  it('escapes the five characters markup gives meaning to, and nothing else', () => {
    expect(escapeMarkup(`<a href="x">Tom & Jerry's</a> ü 中`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt; ü 中',
    );
  });
});

describe('breakLines (UAX #14)', () => {
  const chars = (n: number) => (line: string) => [...line].length <= n;

  it('fills lines greedily at spaces, and may break after a hyphen', () => {
    expect(breakLines('the quick brown fox', chars(10))).toEqual(['the quick', 'brown fox']);
    expect(breakLines('well-known words', chars(6))).toEqual(['well-', 'known', 'words']);
  });

  it('breaks between CJK characters without spaces, never before closing punctuation', () => {
    expect(breakLines('中文字体渲染。', chars(3))).toEqual(['中文字', '体渲', '染。']);
  });

  it('cuts a word wider than the line by characters, and ends a line at a newline', () => {
    expect(breakLines('abcdefgh ij', chars(3))).toEqual(['abc', 'def', 'gh', 'ij']);
    expect(breakLines('one\ntwo three', chars(20))).toEqual(['one', 'two three']);
  });
});
