import { describe, expect, it } from 'vitest';
import { extractiveAnswer } from '../../src/server/engines/grounded-writer.js';
import { alignCitations } from '../../src/server/engines/citations.js';

const fox = [{ ref: 1, title: 'Fox', link: '', content: 'The red fox hunts at dawn and dusk. It lives in dens.' }];

describe('the extractive grounded writer', () => {
  it('keeps short sentences and matches word forms (live / lives) like the index does', () => {
    expect(extractiveAnswer({ query: 'Where does the fox live?', passages: fox, history: [] })).toContain(
      'It lives in dens. [1]',
    );
  });

  it('is deterministic', () => {
    const a = extractiveAnswer({ query: 'When does the fox hunt?', passages: fox, history: [] });
    expect(extractiveAnswer({ query: 'When does the fox hunt?', passages: fox, history: [] })).toBe(a);
    expect(a).toContain('The red fox hunts at dawn and dusk. [1]');
  });
});

describe('answer forms and citations', () => {
  const policy = {
    ref: 1,
    title: 'Refund policy',
    link: '',
    content:
      '## Refund times\n\nRefunds go back to the original payment method.\n\n| Method | Money back |\n| --- | --- |\n| Card | 3 to 5 days |\n| PayPal | 1 day |',
  };
  const copy = { ...policy, ref: 2, title: 'Refund policy (copy)' };

  it('says a sentence two sources share once, citing the first', () => {
    const a = extractiveAnswer({ query: 'Where do refunds go?', passages: [policy, copy], history: [] });
    expect(a.match(/Refunds go back to the original payment method/g)).toHaveLength(1);
    expect(a).not.toMatch(/\[2\]/);
  });

  it('answers a figure question with the matching rows of the table, after its lead-in', () => {
    const a = extractiveAnswer({ query: 'How long does a PayPal refund take?', passages: [policy], history: [] });
    expect(a).toBe(
      'Refunds go back to the original payment method. [1]\n\n| Method | Money back |\n| --- | --- |\n| PayPal | 1 day |',
    );
  });

  it('a summary question over passages that do not hold its words still summarises', () => {
    const a = extractiveAnswer({ query: 'Summarise this', passages: [policy], history: [] });
    expect(a).toBe('In short:\n\n- Refunds go back to the original payment method. [1]');
  });
});

describe('alignCitations', () => {
  it('renumbers the cited sources 1..k in citation order, drops uncited ones and markers past the list', () => {
    const sources = ['a', 'b', 'c'];
    expect(alignCitations('C says so [3]. A agrees [1][1]. Nobody said [9].', sources)).toEqual({
      text: 'C says so [1]. A agrees [2]. Nobody said.',
      sources: ['c', 'a'],
    });
    expect(alignCitations('No citations here.', sources)).toEqual({ text: 'No citations here.', sources: [] });
  });
});
