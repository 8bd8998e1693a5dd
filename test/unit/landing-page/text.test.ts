import { describe, expect, it } from 'vitest';
import { keyNumbers, languageOf, pageProse, titleFromQuery } from '../../../src/server/engines/landing-page/text.js';
import { escapeText } from '../../../src/server/engines/landing-page/render.js';

const passage = (content: string, ref = 1) => ({
  ref,
  resourceId: `res_${ref}`,
  title: 'T',
  section: 'S',
  content,
  link: '',
});

describe('landing-page text helpers', () => {
  it('key figures: a unit needs a word boundary, a range stays whole, years and lone digits are left out', () => {
    const found = keyNumbers(
      [passage('A 6 kW system costs $15,000. Most recover it in 8 to 10 years. Founded in 2019 with 3 people.')],
      4,
    );
    expect(found.map((k) => k.value)).toEqual(['$15,000', '8 to 10 years']);
    // Each figure with the whole sentence that states it, never words from around it.
    expect(found[0].label).toBe('A 6 kW system costs $15,000.');
    expect(found[1].label).toBe('Most recover it in 8 to 10 years.');
  });

  it('a version named as one is not a figure: "the 6.1 release", "version 2.5", "Node.js 18"', () => {
    const found = keyNumbers(
      [
        passage(
          'To get patches for the 6.1 release, pin "~6.1.x". Version 2.5 is current. It supports Node.js 18 and later. It handles 6.5 million lines a day.',
        ),
      ],
      4,
    );
    expect(found.map((k) => k.value)).toEqual(['6.5 million']);
  });

  it('a table gives its last row, labelled by column and row', () => {
    const found = keyNumbers(
      [
        passage(
          '| Year | Sales | Share |\n|---|---|---|\n| 2023 | 1.2 million | 14% |\n| 2024 | 1.9 million | 21% |',
          2,
        ),
      ],
      4,
    );
    expect(found).toEqual([
      { value: '1.9 million', label: 'Sales (2024)', ref: 2 },
      { value: '21%', label: 'Share (2024)', ref: 2 },
    ]);
  });

  it('the ask is taken out of the title; the chat phrasing out of the prose; schemes out of text', () => {
    expect(titleFromQuery('Please create a landing page about our new coffee grinder?')).toBe('Our new coffee grinder');
    expect(titleFromQuery('solar panels')).toBe('Solar panels');
    expect(pageProse('According to your sources: A. [1]\n\nSources:\n[1] x')).toBe('A. [1]');
    // The writer opens in the question's language: that opening is no page text either.
    expect(pageProse('根据你的资料： 甲是乙。 [1]')).toBe('甲是乙。 [1]');
    expect(pageProse('資料によると：\n\n甲は乙です。 [1]')).toBe('甲は乙です。 [1]');
    expect(pageProse('In short:\n\n- A. [1]')).toBe('- A. [1]');
    expect(escapeText('see https://example.org/a and //cdn.example.com/x <b>')).toBe(
      'see example.org/a and cdn.example.com/x &lt;b&gt;',
    );
    expect(languageOf('太阳能')).toBe('zh-Hans');
    expect(languageOf('solar')).toBe('en');
  });
});
