import type { Kysely } from 'kysely';
import type { Database } from '../../store/database.js';
import { getSetting, setSetting } from '../../store/settings.repo.js';
import { withExclusiveLock } from '../../store/dialect/locks.js';
import { upsertPosts, upsertUsers } from '../../store/social/social.repo.js';
import { runCpuJob } from '../../engines/workers/index.js';

const SEEDED = 'social_seeded';
const pending = new WeakMap<Kysely<Database>, Promise<void>>();

/**
 * Seeds the social store once per database, on first use (so servers that never touch social
 * search do not pay for it). Recorded in settings: a store that was seeded, and perhaps emptied or
 * replaced by imports since, is never seeded again. The lock keeps two instances from both seeding.
 */
export function ensureSocialSeed(db: Kysely<Database>): Promise<void> {
  let p = pending.get(db);
  if (!p) {
    p = (async () => {
      if (await getSetting(db, SEEDED)) return;
      await withExclusiveLock(db, 'social-seed', async (conn: Kysely<Database>) => {
        if (await getSetting(conn, SEEDED)) return;
        // Some hundred milliseconds of generating: in a CPU worker, not on the event loop.
        const seed = await runCpuJob('social-seed', {});
        await conn.transaction().execute(async (trx) => {
          await upsertUsers(trx, seed.users);
          await upsertPosts(trx, seed.posts);
        });
        await setSetting(conn, SEEDED, new Date().toISOString());
      });
    })();
    // A failed attempt is retried by the next request rather than remembered.
    p.catch(() => pending.delete(db));
    pending.set(db, p);
  }
  return p;
}

/** Marks the store as seeded without seeding (an import into a fresh store replaces the seed). */
export async function markSocialSeeded(db: Kysely<Database>): Promise<void> {
  if (!(await getSetting(db, SEEDED))) await setSetting(db, SEEDED, new Date().toISOString());
}
