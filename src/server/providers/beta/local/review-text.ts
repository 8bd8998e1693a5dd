import { int, pick } from '../seeded.js';

/**
 * Review wording by star rating: whole sentences whose tone matches the stars (5 glowing, 4 happy
 * with a small catch, 3 mixed, 2 and 1 unhappy), one to three of them per review, and an owner's
 * answer in the same tone.
 */

const BY_STARS: Record<number, string[]> = {
  5: [
    'Excellent service from start to finish.',
    'The staff were friendly and really helpful.',
    'My order arrived {early} days early and was packed perfectly.',
    'Best experience I have had with a company in years.',
    'I would recommend them to anyone.',
    'Great quality for the price, I will definitely be back.',
    'They answered my question within an hour and solved it right away, great support.',
    'Everything was exactly as described, and the team was lovely.',
    'Amazing value and a very easy process.',
  ],
  4: [
    'Good service overall and friendly staff.',
    'Delivery took {late} days, a little longer than promised, but the product is great.',
    'Happy with my purchase and would buy again.',
    'Helpful support, although the website could be easier to use.',
    'Nice quality and fair prices.',
    'The team was quick and helpful when I had a question.',
  ],
  3: [
    'It was fine, nothing special.',
    'The product is decent, but delivery took {late} days.',
    'Some staff were helpful, others seemed rushed.',
    'Average experience, the price is fair for what you get.',
    'It does the job, although I expected a bit more.',
  ],
  2: [
    'Disappointed with the service this time.',
    'My order arrived {late} days late and nobody told me why.',
    'Support was slow to reply and did not fix the problem.',
    'The quality is not what the photos suggest.',
    'Too expensive for what you get.',
  ],
  1: [
    'Terrible experience, I would not recommend them.',
    'My order never arrived and I am still waiting for a refund after {weeks} weeks.',
    'The staff were rude and unhelpful.',
    'The product broke after two days.',
    'Worst customer service I have dealt with.',
    'A complete waste of money.',
  ],
};

const THANKS = [
  'Thank you for the kind words, {name}! We are glad you had a great experience.',
  'Thanks so much, {name}. We hope to see you again soon.',
];
const MIXED = [
  'Thanks for the honest feedback, {name}. We are working on faster delivery.',
  'Thank you, {name}. We will share your comments with the team.',
];
const SORRY = [
  'We are sorry to hear this, {name}. Please contact our support team so we can make it right.',
  'Sorry about your experience, {name}. We have passed your feedback on to the team.',
];

/**
 * A review's stars: a business's share of happy customers is `quality`; they give 5 or 4 stars, the
 * others mostly 1 (people who write reviews are the pleased and the angry), some 2 or 3.
 */
export function starsOf(r: () => number, quality: number): number {
  if (r() < quality) return r() < 0.7 ? 5 : 4;
  const v = r();
  return v < 0.5 ? 1 : v < 0.75 ? 2 : 3;
}

/** A review's text for its stars: one to three different sentences. */
export function reviewText(r: () => number, stars: number): string {
  const pool = BY_STARS[stars];
  const count = int(r, 1, Math.min(3, pool.length));
  const chosen: string[] = [];
  while (chosen.length < count) {
    const s = pick(r, pool);
    if (!chosen.includes(s)) chosen.push(s);
  }
  return chosen
    .map((s) =>
      s
        .replace('{early}', String(int(r, 1, 3)))
        .replace('{late}', String(int(r, 6, 12)))
        .replace('{weeks}', String(int(r, 2, 6))),
    )
    .join(' ');
}

/** The owner's answer, in the tone of the review (thanks for 4-5 stars, a note for 3, an apology below). */
export function ownerAnswer(r: () => number, stars: number, firstName: string): string {
  return pick(r, stars >= 4 ? THANKS : stars === 3 ? MIXED : SORRY).replace('{name}', firstName);
}
