import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { HttpError } from '../errors.js';
import { countIn, dropBefore, increment } from '../store/rate-limits.repo.js';

/**
 * Failed console sign-ins allowed in one window (issues 38 and 47): per client address and key
 * prefix together, and per client address whatever the key. Past either, sign-ins from that address
 * (with that prefix, or at all) are 429 with Retry-After until the window ends, the right key
 * included. A stranger who knows a key's display prefix locks out only their own address, never the
 * key's owner elsewhere. Counted in the store, so it holds across instances.
 */
export const SIGN_IN_LIMIT = { failures: 10, failuresPerAddress: 60, seconds: 60 } as const;

/** What the limit is keyed on: the first 10 characters of the secret (a key's display prefix). */
const prefixOf = (secret: string) => secret.trim().slice(0, 10);

const buckets = (client: string, secret: string) => [
  {
    key: `console-sign-in:client-prefix:${client}:${prefixOf(secret)}`,
    limit: SIGN_IN_LIMIT.failures,
    what: 'with this key from this address',
  },
  { key: `console-sign-in:client:${client}`, limit: SIGN_IN_LIMIT.failuresPerAddress, what: 'from this address' },
];

const windowStart = (now: Date) => {
  const s = Math.floor(now.getTime() / 1000);
  return s - (s % SIGN_IN_LIMIT.seconds);
};

/** 429 when this client, with this prefix or with any, already failed the most times this window allows. */
export async function assertSignInAllowed(
  db: Kysely<Database>,
  client: string,
  secret: string,
  now: Date,
): Promise<void> {
  const start = windowStart(now);
  for (const bucket of buckets(client, secret)) {
    if ((await countIn(db, bucket.key, start)) < bucket.limit) continue;
    const retry = Math.max(1, start + SIGN_IN_LIMIT.seconds - Math.floor(now.getTime() / 1000));
    throw new HttpError(
      'RATE_LIMITED',
      `Too many failed sign-ins ${bucket.what} (${bucket.limit} a minute): try again in ${retry} s`,
      { status: 429, headers: { 'retry-after': String(retry) } },
    );
  }
}

/** Counts a failed sign-in against its client with its prefix, and against its client. */
export async function recordSignInFailure(
  db: Kysely<Database>,
  client: string,
  secret: string,
  now: Date,
): Promise<void> {
  const start = windowStart(now);
  for (const { key } of buckets(client, secret)) {
    await increment(db, key, start);
    await dropBefore(db, key, start);
  }
}
