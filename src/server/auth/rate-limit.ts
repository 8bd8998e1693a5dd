import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { HttpError } from '../errors.js';
import { countIn, dropBefore, increment } from '../store/rate-limits.repo.js';
import { lockForTransaction } from '../store/dialect/locks.js';

export interface ChatRateLimits {
  perKeyPerMinute: number;
  perUserPerMinute: number;
  perUserPerHour: number;
}

/** Documented defaults (README, `facet serve --help`); spec 8 leaves the numbers open. */
export const DEFAULT_CHAT_LIMITS: ChatRateLimits = { perKeyPerMinute: 20, perUserPerMinute: 30, perUserPerHour: 500 };

interface Window {
  name: string;
  bucket: string;
  limit: number;
  seconds: number;
}

export interface RateState {
  limit: number;
  remaining: number;
  /** Unix seconds when the binding window resets. */
  reset: number;
  headers: Record<string, string>;
}

function windowsFor(limits: ChatRateLimits, keyId: string, userId: string): Window[] {
  return [
    {
      name: `${limits.perKeyPerMinute} per minute per API key`,
      bucket: `chat:key:${keyId}:60`,
      limit: limits.perKeyPerMinute,
      seconds: 60,
    },
    {
      name: `${limits.perUserPerMinute} per minute per user`,
      bucket: `chat:user:${userId}:60`,
      limit: limits.perUserPerMinute,
      seconds: 60,
    },
    {
      name: `${limits.perUserPerHour} per hour per user`,
      bucket: `chat:user:${userId}:3600`,
      limit: limits.perUserPerHour,
      seconds: 3600,
    },
  ];
}

/**
 * Fixed-window chat limits kept in the store (so they hold across restarts and instances). With
 * consume, a request that fits every window is counted in all of them inside one transaction; one
 * that does not fit raises 429 RATE_LIMITED with Retry-After and the spec-8 headers, and is not counted.
 */
export async function checkChatLimit(
  db: Kysely<Database>,
  limits: ChatRateLimits,
  who: { keyId: string; userId: string },
  now: Date,
  consume: boolean,
): Promise<RateState> {
  const nowS = Math.floor(now.getTime() / 1000);
  const windows = windowsFor(limits, who.keyId, who.userId);
  return db.transaction().execute(async (trx) => {
    // Every window of this request is one of the user's (a key belongs to one user): holding the
    // user's lock makes count-then-increment one step across requests and instances.
    if (consume) await lockForTransaction(trx, `chat-limit:user:${who.userId}`);
    const states = [];
    for (const w of windows) {
      const start = nowS - (nowS % w.seconds);
      const used = await countIn(trx, w.bucket, start);
      states.push({ w, start, used, reset: start + w.seconds });
    }
    const over = states.filter((s) => s.used >= s.w.limit);
    if (over.length > 0 && consume) {
      const retryAt = Math.max(...over.map((s) => s.reset));
      const headers = headersOf(
        states.map((s) => ({ ...s, after: s.used })),
        retryAt,
      );
      headers['retry-after'] = String(Math.max(1, retryAt - nowS));
      throw new HttpError(
        'RATE_LIMITED',
        `Chat rate limit exceeded: the limits are ${windows.map((w) => w.name).join(', ')}; retry after ${headers['retry-after']} s`,
        {
          headers,
          extra: { status: 429 },
        },
      );
    }
    if (consume) {
      for (const s of states) {
        await increment(trx, s.w.bucket, s.start);
        await dropBefore(trx, s.w.bucket, s.start);
      }
    }
    const after = states.map((s) => ({ ...s, after: s.used + (consume ? 1 : 0) }));
    const headers = headersOf(after);
    return {
      limit: Number(headers['x-ratelimit-limit']),
      remaining: Number(headers['x-ratelimit-remaining']),
      reset: Number(headers['x-ratelimit-reset']),
      headers,
    };
  });
}

/**
 * Spec 8 rule 2: Limit is the tighter dimension (the window with the least left; the smaller limit on
 * a tie), Remaining the minimum left, Reset when that window resets.
 */
function headersOf(
  states: Array<{ w: Window; after: number; reset: number }>,
  resetOverride?: number,
): Record<string, string> {
  const left = states.map((s) => ({ ...s, remaining: Math.max(0, s.w.limit - s.after) }));
  left.sort((a, b) => a.remaining - b.remaining || a.w.limit - b.w.limit || a.reset - b.reset);
  const binding = left[0];
  return {
    'x-ratelimit-limit': String(binding.w.limit),
    'x-ratelimit-remaining': String(binding.remaining),
    'x-ratelimit-reset': String(resetOverride ?? binding.reset),
  };
}
