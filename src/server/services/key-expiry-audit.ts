import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { withExclusiveLock } from '../store/dialect/locks.js';
import { getSetting, setSetting } from '../store/settings.repo.js';
import { insertAudit } from '../store/audit.repo.js';
import { auditRow, SYSTEM } from './audit.service.js';
import type { Ctx } from './users.service.js';

const MARK = 'audit_keys_expired_through';

/**
 * A key expires by the clock, not by a write, so the periodic sweep records it: every live key whose
 * expiry passed since the previous sweep gets a key.expired entry (actor system). The mark and the
 * entries commit together, under a lock several instances share, so no expiry is recorded twice.
 */
export async function recordExpiredKeys(ctx: Ctx, instanceId: string | null = null): Promise<number> {
  return withExclusiveLock(ctx.db, 'facet:audit-key-expiry', (db: Kysely<Database>) =>
    db.transaction().execute(async (trx) => {
      const now = ctx.now();
      const nowIso = now.toISOString();
      const since = (await getSetting(trx, MARK)) ?? '';
      const expired = await trx
        .selectFrom('api_keys')
        .select(['id', 'user_id', 'expires_at', 'status'])
        .where('deleted_at', 'is', null)
        .where('expires_at', 'is not', null)
        .where('expires_at', '>', since)
        .where('expires_at', '<=', nowIso)
        .execute();
      await insertAudit(
        trx,
        expired.map((k) =>
          auditRow(
            now,
            { ...SYSTEM, instanceId },
            {
              action: 'key.expired',
              targetType: 'api_key',
              targetId: k.id,
              subjectUserId: k.user_id,
              before: { status: k.status, expired: false },
              after: { status: k.status, expired: true, expires_at: k.expires_at },
            },
          ),
        ),
      );
      await setSetting(trx, MARK, nowIso);
      return expired.length;
    }),
  );
}
