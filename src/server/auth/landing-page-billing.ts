import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { HttpError } from '../errors.js';
import { giveCredits, takeCredits } from '../store/credits.repo.js';
import { attachLedgerTask, insertLedgerEntry, taskNet } from '../store/credit-ledger.repo.js';
import { forgetCachedUser } from '../store/users.repo.js';
import { newId } from '../store/ids.js';
import { CREDIT_HEADERS } from '../../contract/social.js';
import { LANDING_PAGE_CREDITS } from '../../contract/landing-pages.js';

export interface LandingPageCharge {
  entryId: string;
  cost: number;
  /** The balance after the charge. */
  remaining: number;
}

/**
 * Takes a landing page's price before anything is created, with the credit lock every feature
 * shares (takeCredits): concurrent requests are judged one after the other, so together they never
 * spend more than the balance. A balance under the price is a 402 INSUFFICIENT_CREDITS and the
 * transaction rolls back: the balance, the ledger and the store are as they were.
 */
export async function chargeLandingPage(
  db: Kysely<Database>,
  userId: string,
  now: Date,
  cost = LANDING_PAGE_CREDITS,
): Promise<LandingPageCharge> {
  const charge = await db.transaction().execute(async (trx) => {
    const { taken, before } = await takeCredits(trx, userId, cost);
    if (taken < cost) {
      throw new HttpError(
        'INSUFFICIENT_CREDITS',
        `A landing page costs ${cost} credits and your balance is ${before}; ask an administrator for more (facet serve users credits NAME +N)`,
        {
          headers: { [CREDIT_HEADERS.cost]: '0', [CREDIT_HEADERS.remaining]: String(before) },
        },
      );
    }
    const entryId = newId('cl');
    await insertLedgerEntry(trx, {
      id: entryId,
      user_id: userId,
      delta: -cost,
      balance_after: before - cost,
      reason: 'landing_page',
      task_id: null,
      created_at: now.toISOString(),
    });
    return { entryId, cost, remaining: before - cost };
  });
  forgetCachedUser(db, userId);
  return charge;
}

/** The charge belongs to the task once it exists (the ledger entry names it). */
export const attachCharge = (db: Kysely<Database>, charge: LandingPageCharge, taskId: string) =>
  attachLedgerTask(db, charge.entryId, taskId);

/**
 * Gives a charge back: when the task could not be created (no task id yet: pass the charge), or
 * when it FAILED (by task id). Whatever the task's net cost is goes back, under the user's credit
 * lock, so asking twice (a retried job, two servers) gives once. Returns the credits given back.
 */
export async function refundLandingPage(
  db: Kysely<Database>,
  userId: string,
  now: Date,
  target: { taskId: string } | { charge: LandingPageCharge },
): Promise<number> {
  const given = await db.transaction().execute(async (trx) => {
    // giveCredits(…, 0) takes the lock before the ledger is read: refunds of one user run one at a time.
    await giveCredits(trx, userId, 0);
    const taskId = 'taskId' in target ? target.taskId : null;
    const owed = 'charge' in target ? target.charge.cost : -(await taskNet(trx, target.taskId)).net;
    if (owed <= 0) return 0;
    const after = await giveCredits(trx, userId, owed);
    await insertLedgerEntry(trx, {
      id: newId('cl'),
      user_id: userId,
      delta: owed,
      balance_after: after,
      reason: 'landing_page_refund',
      task_id: taskId,
      created_at: now.toISOString(),
    });
    return owed;
  });
  forgetCachedUser(db, userId);
  return given;
}

/**
 * Before a run: a task whose charge was given back (it FAILED, then its owner retried it) is
 * charged again, so a retry is never free; a task that is paid for costs nothing more. A balance
 * under the price is INSUFFICIENT_CREDITS and nothing changes. Returns the credits taken.
 */
export async function ensureLandingPagePaid(
  db: Kysely<Database>,
  userId: string,
  taskId: string,
  now: Date,
  cost = LANDING_PAGE_CREDITS,
): Promise<number> {
  const taken = await db.transaction().execute(async (trx) => {
    await giveCredits(trx, userId, 0);
    const { net, entries } = await taskNet(trx, taskId);
    // No entry at all: a task made before charges existed, or by hand; it is not billed here.
    if (entries === 0 || net < 0) return 0;
    const { taken: got, before } = await takeCredits(trx, userId, cost);
    if (got < cost)
      throw new HttpError(
        'INSUFFICIENT_CREDITS',
        `running this landing page again costs ${cost} credits and the balance is ${before}`,
      );
    await insertLedgerEntry(trx, {
      id: newId('cl'),
      user_id: userId,
      delta: -cost,
      balance_after: before - cost,
      reason: 'landing_page',
      task_id: taskId,
      created_at: now.toISOString(),
    });
    return cost;
  });
  forgetCachedUser(db, userId);
  return taken;
}
