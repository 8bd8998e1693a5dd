import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context.js';
import { deleteExpiredBefore } from './store/streams.repo.js';
import { busOf } from './store/cache-bus.js';
import { sweepExpiredTasks } from './services/doc-tasks.service.js';
import { sweepStoredResponses } from './services/model-api/stored.js';
import { pruneAudit } from './services/audit.service.js';
import { recordExpiredKeys } from './services/key-expiry-audit.js';

/**
 * Starts the server's periodic clean-ups (one now, then every ten minutes) and, with several
 * instances on one PostgreSQL, the orphaned-stream sweep; returns what stops them.
 */
export function startSweeps(ctx: AppContext, log: FastifyBaseLogger): () => void {
  // Expired stream keys are dropped a while after expiry (410 until then, 404 after).
  // Completed slide and landing-page tasks past their retention window lose their outputs (EXPIRED).
  const sweep = () => {
    const cutoff = new Date(ctx.now().getTime() - 86_400_000).toISOString();
    deleteExpiredBefore(ctx.db, cutoff).catch(() => undefined);
    sweepExpiredTasks(ctx).catch((err) => log.error({ err }, 'task retention sweep failed'));
    sweepStoredResponses(ctx).catch((err) => log.error({ err }, 'stored response retention sweep failed'));
    // Audit entries past their retention go; keys that expired since the last sweep get their entry.
    pruneAudit(ctx, ctx.config.auditRetentionDays).catch((err) => log.error({ err }, 'audit retention sweep failed'));
    recordExpiredKeys(ctx, ctx.config.instanceId).catch((err) => log.error({ err }, 'recording expired keys failed'));
  };
  sweep();
  const sweeper = setInterval(sweep, 600_000);
  sweeper.unref();
  // The streams of an instance that died (kill -9, lost machine) end with an error instead of hanging.
  // One sweep at a time: a sweep whose error events wait out an outage must not be joined by the
  // next, which would end the same streams a second time.
  let sweeping = false;
  const orphanSweeper = busOf(ctx.db)
    ? setInterval(() => {
        if (sweeping) return;
        sweeping = true;
        ctx.streams
          .closeOrphans()
          .catch((err) => log.error({ err }, 'closing orphaned streams failed'))
          .finally(() => (sweeping = false));
      }, 15_000)
    : undefined;
  orphanSweeper?.unref();
  return () => {
    clearInterval(sweeper);
    clearInterval(orphanSweeper);
  };
}
