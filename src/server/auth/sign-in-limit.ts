import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { HttpError } from '../errors.js';
import { countIn, dropBefore, increment } from '../store/rate-limits.repo.js';

/**
 * Failed console sign-ins allowed per client address and per key prefix in one window (issue 38).
 * Past either, every sign-in from that address or for that prefix is 429 with Retry-After until the
 * window ends, the right key included. Counted in the store, so it holds across instances.
 */
export const SIGN_IN_LIMIT = { failures: 10, seconds: 60 } as const;

/** What the limit is keyed on: the first 10 characters of the secret (a key's display prefix). */
const prefixOf = (secret: string) => secret.trim().slice(0, 10);

const buckets = (client: string, secret: string) => [
  `console-sign-in:client:${client}`,
  `console-sign-in:prefix:${prefixOf(secret)}`,
];

const windowStart = (now: Date) => {
  const s = Math.floor(now.getTime() / 1000);
  return s - (s % SIGN_IN_LIMIT.seconds);
};

/** 429 when this client or this prefix already failed the most times this window allows. */
export async function assertSignInAllowed(
  db: Kysely<Database>,
  client: string,
  secret: string,
  now: Date,
): Promise<void> {
  const start = windowStart(now);
  for (const bucket of buckets(client, secret)) {
    if ((await countIn(db, bucket, start)) < SIGN_IN_LIMIT.failures) continue;
    const retry = Math.max(1, start + SIGN_IN_LIMIT.seconds - Math.floor(now.getTime() / 1000));
    throw new HttpError(
      'RATE_LIMITED',
      `Too many failed sign-ins ${bucket.includes(':client:') ? 'from this address' : 'with this key'} (${SIGN_IN_LIMIT.failures} a minute): try again in ${retry} s`,
      { status: 429, headers: { 'retry-after': String(retry) } },
    );
  }
}

/** Counts a failed sign-in against its client and its prefix. */
export async function recordSignInFailure(
  db: Kysely<Database>,
  client: string,
  secret: string,
  now: Date,
): Promise<void> {
  const start = windowStart(now);
  for (const bucket of buckets(client, secret)) {
    await increment(db, bucket, start);
    await dropBefore(db, bucket, start);
  }
}
