import { describe, expect, it } from 'vitest';
import { REVIEW_PLATFORMS, reviewsOf } from '../../../src/server/providers/beta/local/reviews.js';

/**
 * Local reviews are whole sentences whose tone matches their stars: each ends with terminal
 * punctuation, none trails off in loose words, and a small sentiment word list agrees with the rating.
 */
const POSITIVE = [
  'excellent',
  'great',
  'friendly',
  'helpful',
  'recommend',
  'happy',
  'best',
  'amazing',
  'lovely',
  'perfectly',
  'nice',
  'good',
];
const NEGATIVE = [
  'disappointed',
  'late',
  'rude',
  'unhelpful',
  'terrible',
  'worst',
  'waste',
  'broke',
  'never',
  'slow',
  'not',
  'expensive',
];
const count = (text: string, words: string[]) =>
  (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => words.includes(w)).length;

describe('local reviews', () => {
  const domains = ['shop.example.com', 'cafe.example.org', 'hotel.example.net', 'bad.example.io', 'store.example.de'];
  const items = REVIEW_PLATFORMS.flatMap((p) => domains.flatMap((d) => reviewsOf(p, d, 'recency', 200).items));

  it('cover every rating', () => {
    expect(new Set(items.map((i) => i.rating.value))).toEqual(new Set([1, 2, 3, 4, 5]));
  });

  it('are whole sentences: terminal punctuation, capitalised starts, no trailing word pairs', () => {
    for (const i of items) {
      expect(i.review_text).toMatch(/[.!?]$/);
      for (const sentence of i.review_text.split(/(?<=[.!?]) /))
        expect(sentence, i.review_text).toMatch(/^[A-Z][^.!?]*[a-z0-9"')]+[.!?]$/);
      // The old generator ended "… good value. cedar harbor."
      expect(i.review_text).not.toMatch(/\. [a-z]+ [a-z]+\.$/);
    }
  });

  it("have a tone that matches their stars, and so do the owners' answers", () => {
    for (const i of items) {
      const [pos, neg] = [count(i.review_text, POSITIVE), count(i.review_text, NEGATIVE)];
      if (i.rating.value >= 4) expect(pos, i.review_text).toBeGreaterThan(neg);
      if (i.rating.value <= 2) expect(neg, i.review_text).toBeGreaterThan(pos);
      if (i.owner_answer && i.rating.value >= 4) expect(i.owner_answer).toMatch(/^Thank/);
      if (i.owner_answer && i.rating.value <= 2) expect(i.owner_answer).toMatch(/sorry/i);
    }
  });
});
