import { DATA_DATE, int, pick, providerDate, rng, rowRng, seedOf } from '../seeded.js';
import { ownerAnswer, reviewText, starsOf } from './review-text.js';

/**
 * Local reviews of a business: generated from a hash of platform and domain, so the same business
 * always has the same reviews; sort_by orders them (recency: newest first; relevance: longest and
 * most helpful first) and depth takes the first ones.
 */

export const REVIEW_PLATFORMS = ['google', 'trustpilot', 'tripadvisor'] as const;
export type ReviewPlatform = (typeof REVIEW_PLATFORMS)[number];

const NAMES = ['Alex', 'Sam', 'Jordan', 'Maria', 'Wei', 'Priya', 'Lukas', 'Chloe', 'Omar', 'Yuki', 'Noah', 'Ava'];
const INITIALS = 'ABCDEFGHJKLMNPRSTW';

export interface ReviewItem {
  type: 'review';
  rank_absolute: number;
  review_id: string;
  rating: { rating_type: 'Max5'; value: number; votes_count: null; rating_max: 5 };
  timestamp: string;
  review_text: string;
  helpful_votes: number;
  user_profile: { name: string; reviews_count: number };
  owner_answer: string | null;
}

export interface ReviewResult {
  domain: string;
  platform: ReviewPlatform;
  sort_by: 'recency' | 'relevance';
  depth: number;
  reviews_count: number;
  rating: { rating_type: 'Max5'; value: number; votes_count: number; rating_max: 5 };
  items_count: number;
  items: ReviewItem[];
}

export function reviewsOf(
  platform: ReviewPlatform,
  domain: string,
  sortBy: 'recency' | 'relevance',
  depth: number,
): ReviewResult {
  const seed = seedOf('reviews', platform, domain);
  const count = int(rng(seed), 15, 900);
  const quality = 0.35 + 0.6 * rng(seed ^ 1)();
  const all: ReviewItem[] = Array.from({ length: count }, (_, i) => {
    const r = rowRng(seed, i);
    const value = starsOf(r, quality);
    const first = pick(r, NAMES);
    return {
      type: 'review',
      rank_absolute: 0,
      review_id: `${platform.slice(0, 2)}-${seed.toString(36)}-${i}`,
      rating: { rating_type: 'Max5', value, votes_count: null, rating_max: 5 },
      timestamp: providerDate(DATA_DATE - int(r, 0, 1500) * 86_400_000 - int(r, 0, 86_399) * 1000),
      review_text: reviewText(r, value),
      helpful_votes: Math.floor(40 * r() ** 3),
      user_profile: { name: `${first} ${INITIALS[int(r, 0, INITIALS.length - 1)]}.`, reviews_count: int(r, 1, 300) },
      owner_answer: r() < 0.3 ? ownerAnswer(r, value, first) : null,
    };
  });
  const ordered =
    sortBy === 'recency'
      ? all.sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0))
      : all.sort((a, b) => b.helpful_votes - a.helpful_votes || b.review_text.length - a.review_text.length);
  const items = ordered.slice(0, depth).map((item, k) => ({ ...item, rank_absolute: k + 1 }));
  const mean = all.reduce((s, x) => s + x.rating.value, 0) / all.length;
  return {
    domain,
    platform,
    sort_by: sortBy,
    depth,
    reviews_count: count,
    rating: { rating_type: 'Max5', value: Math.round(mean * 10) / 10, votes_count: count, rating_max: 5 },
    items_count: items.length,
    items,
  };
}
