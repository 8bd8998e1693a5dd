import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  chargeLandingPage,
  refundLandingPage,
  attachCharge,
  ensureLandingPagePaid,
} from '../../../src/server/auth/landing-page-billing.js';
import { createUser } from '../../../src/server/services/users.service.js';
import { creditsOf } from '../../../src/server/store/credits.repo.js';
import { LANDING_PAGE_CREDITS } from '../../../src/contract/landing-pages.js';
import { HttpError } from '../../../src/server/errors.js';
import { describeOnStores, type OpenedStore } from '../../helpers/postgres.js';

const now = new Date('2026-11-22T12:00:00Z');

describeOnStores('landing-page credits', (stores) => {
  let store: OpenedStore;
  beforeEach(async () => {
    store = await stores.open();
  });
  afterEach(async () => {
    await store.close();
  });
  const ledger = () => store.db.selectFrom('credit_ledger').selectAll().orderBy('created_at').execute();

  it('a balance under the price is a 402 INSUFFICIENT_CREDITS that changes nothing', async () => {
    const u = await createUser({ db: store.db, now: () => now }, { name: 'poor', credits: LANDING_PAGE_CREDITS - 1 });
    const err = await chargeLandingPage(store.db, u.id, now).catch((e) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      status: 402,
      headers: { 'x-credits-cost': '0', 'x-credits-remaining': String(LANDING_PAGE_CREDITS - 1) },
    });
    expect(await creditsOf(store.db, u.id)).toBe(LANDING_PAGE_CREDITS - 1);
    expect(await ledger()).toEqual([]);
  });

  it('exactly the price is enough: the charge is taken and written in the ledger', async () => {
    const u = await createUser({ db: store.db, now: () => now }, { name: 'exact', credits: LANDING_PAGE_CREDITS });
    const charge = await chargeLandingPage(store.db, u.id, now);
    expect(charge).toMatchObject({ cost: LANDING_PAGE_CREDITS, remaining: 0 });
    await attachCharge(store.db, charge, 'task_a');
    expect(await creditsOf(store.db, u.id)).toBe(0);
    expect(await ledger()).toEqual([
      expect.objectContaining({
        user_id: u.id,
        delta: -LANDING_PAGE_CREDITS,
        balance_after: 0,
        reason: 'landing_page',
        task_id: 'task_a',
      }),
    ]);
  });

  it('20 concurrent charges never spend more than the balance', async () => {
    const u = await createUser(
      { db: store.db, now: () => now },
      { name: 'busy', credits: LANDING_PAGE_CREDITS * 5 + 5 },
    );
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => chargeLandingPage(store.db, u.id, now)));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(15);
    expect(refused.every((r) => (r.reason as HttpError).code === 'INSUFFICIENT_CREDITS')).toBe(true);
    expect(await creditsOf(store.db, u.id)).toBe(5);
    const rows = await ledger();
    expect(rows).toHaveLength(5);
    expect(rows.map((r) => r.balance_after).sort((a, b) => a - b)).toEqual([5, 15, 25, 35, 45]);
  });

  it("a FAILED task's refund is given once, however often it is asked for", async () => {
    const u = await createUser({ db: store.db, now: () => now }, { name: 'refund', credits: 25 });
    const charge = await chargeLandingPage(store.db, u.id, now);
    await attachCharge(store.db, charge, 'task_b');
    const given = await Promise.all([1, 2, 3].map(() => refundLandingPage(store.db, u.id, now, { taskId: 'task_b' })));
    expect(given.sort()).toEqual([0, 0, LANDING_PAGE_CREDITS]);
    expect(await creditsOf(store.db, u.id)).toBe(25);
    expect((await ledger()).map((r) => [r.reason, r.delta, r.task_id])).toEqual([
      ['landing_page', -LANDING_PAGE_CREDITS, 'task_b'],
      ['landing_page_refund', LANDING_PAGE_CREDITS, 'task_b'],
    ]);
    // A task that was never charged gives nothing back.
    expect(await refundLandingPage(store.db, u.id, now, { taskId: 'task_none' })).toBe(0);
  });

  it('a refunded task that runs again is charged again; a paid one is not charged twice', async () => {
    const u = await createUser({ db: store.db, now: () => now }, { name: 'retry', credits: 25 });
    const charge = await chargeLandingPage(store.db, u.id, now);
    await attachCharge(store.db, charge, 'task_c');
    expect(await ensureLandingPagePaid(store.db, u.id, 'task_c', now)).toBe(0);
    expect(await refundLandingPage(store.db, u.id, now, { taskId: 'task_c' })).toBe(LANDING_PAGE_CREDITS);
    expect(await ensureLandingPagePaid(store.db, u.id, 'task_c', now)).toBe(LANDING_PAGE_CREDITS);
    expect(await ensureLandingPagePaid(store.db, u.id, 'task_c', now)).toBe(0);
    expect(await creditsOf(store.db, u.id)).toBe(25 - LANDING_PAGE_CREDITS);
    // Failing again refunds the second charge, once.
    expect(await refundLandingPage(store.db, u.id, now, { taskId: 'task_c' })).toBe(LANDING_PAGE_CREDITS);
    expect(await refundLandingPage(store.db, u.id, now, { taskId: 'task_c' })).toBe(0);
    expect(await creditsOf(store.db, u.id)).toBe(25);
  });
});
