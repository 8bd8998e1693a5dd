import * as repo from './jobs.repo.js';
import { tooManyCrashes } from './limits.js';
import type { QueueCore } from './queue-types.js';

/**
 * Jobs whose worker died (its process was killed, crashed or froze past its lease). The death is
 * counted on the job, not as one of its attempts: a job that may itself be what takes the server
 * down runs again only until the server has died `maxCrashes` times during its runs, then fails.
 * `anyLease`: every running job is an orphan (at start-up on SQLite), not only expired leases.
 */
export async function recoverOrphans(core: QueueCore, maxCrashes: number, anyLease: boolean): Promise<void> {
  const db = core.options.db;
  const now = core.iso();
  for (const orphan of await repo.findOrphans(db, now, anyLease)) {
    if (core.running.has(orphan.id)) continue;
    let state: 'queued' | 'failed' | 'canceled';
    let error: string | null;
    // A lease that ran out while the database was away: its worker could not renew it, which says
    // nothing of the job; it goes back without a crash counted (nor the attempt).
    const outage =
      orphan.lease_expires_at !== null && core.outages.covers(Date.parse(orphan.lease_expires_at), core.leaseMs);
    const crashes = orphan.crashes + (outage ? 0 : 1);
    if (orphan.cancel_requested) {
      state = 'canceled';
      error = 'canceled; the server stopped while it ran';
    } else if (crashes < maxCrashes) {
      state = 'queued';
      error = null;
    } else {
      state = 'failed';
      error = tooManyCrashes(crashes, maxCrashes);
    }
    const counted = state === 'canceled' ? {} : { crashes, attempts: Math.max(0, orphan.attempts - 1) };
    const line =
      state === 'queued' && outage
        ? `recovered: the lease of attempt ${orphan.attempts} of ${orphan.max_attempts} (lease ${orphan.lease_owner ?? 'none'}) ran out while the database could not be reached; queued to run again (not counted as a server stop: ${crashes} so far)`
        : state === 'queued'
          ? `recovered: the server stopped during attempt ${orphan.attempts} of ${orphan.max_attempts} (lease ${orphan.lease_owner ?? 'none'}); queued to run again (server stops during this task: ${crashes}; at ${maxCrashes} it fails)`
          : `recovered: ${error}`;
    const recovered = await repo.changeLogged(db, orphan.id, now, line, (trx) =>
      repo.recoverOrphan(trx, orphan, { state, error, now, ...counted }),
    );
    if (!recovered) continue;
    if (state === 'queued') core.workQueued();
    core.emit({ ...orphan, state, error });
  }
}
