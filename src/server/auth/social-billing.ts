import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../store/database.js';
import { HttpError } from '../errors.js';
import { countIn, dropBefore, increment } from '../store/rate-limits.repo.js';
import { lockForTransaction } from '../store/dialect/locks.js';
import { adjustCredits, takeCredits } from '../store/credits.repo.js';
import { forgetCachedUser } from '../store/users.repo.js';

/**
 * Spec 8 for social search: at least 10 credits or 402 insufficient_credits; accounts that are not
 * paid and hold under 100 credits may make 1 request per 10 s, 3 per minute and 10 per 10 minutes
 * (all at once); 1 credit per result, charged on the real count after the work.
 */
export const SOCIAL_BILLING = {
  minimumBalance: 10,
  limitedBelow: 100,
  windows: [
    { seconds: 10, limit: 1 },
    { seconds: 60, limit: 3 },
    { seconds: 600, limit: 10 },
  ],
} as const;

export interface SocialCharge {
  /** Credits taken up front: the most this request may cost. */
  reserved: number;
  /** Rate-limit headers for limited accounts; none for exempt ones. */
  headers: Record<string, string>;
}

/** The windows of a limited account; throws 429 RATE_LIMIT_EXCEEDED with an exact Retry-After. */
async function consumeWindows(
  trx: Transaction<Database>,
  userId: string,
  nowS: number,
): Promise<Record<string, string>> {
  const states = [];
  for (const w of SOCIAL_BILLING.windows) {
    const bucket = `social:user:${userId}:${w.seconds}`;
    const start = nowS - (nowS % w.seconds);
    states.push({ ...w, bucket, start, used: await countIn(trx, bucket, start), reset: start + w.seconds });
  }
  const over = states.filter((s) => s.used >= s.limit);
  if (over.length > 0) {
    const retryAt = Math.max(...over.map((s) => s.reset));
    const limits = SOCIAL_BILLING.windows.map((w) => `${w.limit} per ${w.seconds} s`).join(', ');
    throw new HttpError(
      'RATE_LIMIT_EXCEEDED',
      `Social search rate limit exceeded: accounts that are not paid and hold under ${SOCIAL_BILLING.limitedBelow} credits may make ${limits}; retry after ${retryAt - nowS} s`,
      {
        headers: {
          'retry-after': String(retryAt - nowS),
          'x-ratelimit-limit': String(over[0].limit),
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(retryAt),
        },
        extra: { status: 429 },
      },
    );
  }
  for (const s of states) {
    await increment(trx, s.bucket, s.start);
    await dropBefore(trx, s.bucket, s.start);
  }
  const binding = states
    .map((s) => ({ ...s, remaining: s.limit - s.used - 1 }))
    .sort((a, b) => a.remaining - b.remaining || a.limit - b.limit)[0];
  return {
    'x-ratelimit-limit': String(binding.limit),
    'x-ratelimit-remaining': String(binding.remaining),
    'x-ratelimit-reset': String(binding.reset),
  };
}

/**
 * Before any work: 402 below the minimum balance, 429 past a window (limited accounts), else the
 * request is counted and up to `wanted` credits are taken, all in one transaction under the user's
 * lock, so concurrent requests are judged one after the other.
 */
export async function openSocialCharge(
  db: Kysely<Database>,
  user: { id: string },
  wanted: number,
  now: Date,
): Promise<SocialCharge> {
  const nowS = Math.floor(now.getTime() / 1000);
  const charge = await db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, `social:user:${user.id}`);
    // Read here, not from the request's (briefly cached) user: a plan or balance changed a moment
    // ago by `facet serve users …` in another process applies at once.
    const row = await trx.selectFrom('users').select(['credits', 'plan']).where('id', '=', user.id).executeTakeFirst();
    const balance = Number(row?.credits ?? 0);
    if (balance < SOCIAL_BILLING.minimumBalance) {
      throw new HttpError(
        'insufficient_credits',
        `Social search needs a balance of at least ${SOCIAL_BILLING.minimumBalance} credits; yours is ${balance}`,
        {
          headers: { 'x-credits-cost': '0', 'x-credits-remaining': String(balance) },
        },
      );
    }
    const headers =
      row?.plan !== 'paid' && balance < SOCIAL_BILLING.limitedBelow ? await consumeWindows(trx, user.id, nowS) : {};
    const { taken } = await takeCredits(trx, user.id, wanted);
    return { reserved: taken, headers };
  });
  forgetCachedUser(db, user.id);
  return charge;
}

/** After the work: the unused part of the reservation goes back; returns the balance left. */
export async function closeSocialCharge(
  db: Kysely<Database>,
  userId: string,
  charge: SocialCharge,
  cost: number,
): Promise<number> {
  return adjustCredits(db, userId, charge.reserved - cost);
}
