import { busOf } from '../store/cache-bus.js';
import * as repo from './jobs.repo.js';
import type { JobRow } from './jobs.repo.js';
import type { QueueCore } from './queue-types.js';

/**
 * The one way a job starts: the claim loop takes the oldest runnable jobs for this process's free
 * worker slots under a lease, woken when a job may have become claimable (queued here, announced by
 * another instance, a retry, a poll tick) or a slot frees up.
 */
export class ClaimLoop {
  private pumping: Promise<void> | undefined;
  private repump = false;
  private stopped = true;
  /**
   * Counts the moments a job may have become claimable; `emptyAt` is the count when a claim last
   * found nothing more to take. Equal counts: nothing was queued since, so a worker slot that frees
   * up does not ask again.
   */
  private workSeen = 0;
  private emptyAt = -1;

  constructor(
    private readonly core: QueueCore,
    private readonly launch: (job: JobRow) => void,
  ) {}

  start(): void {
    this.stopped = false;
  }

  /** Stops claiming; resolves once a claim in flight has launched its jobs (so they can be stopped too). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.pumping;
  }

  /** A job may have become claimable: the next wake claims even if the last claim found nothing. */
  workQueued(): void {
    this.workSeen++;
  }

  /**
   * Claims work for the free slots. `newWork`: a job may have become claimable; otherwise only a
   * slot freed up, and the claim is skipped when the last one found the queue empty and nothing was
   * queued since (unless this process might have missed another instance's announcement).
   */
  wake(newWork = true): void {
    if (newWork) this.workSeen++;
    if (this.stopped) return;
    if (this.pumping) {
      this.repump = true;
      return;
    }
    if (this.emptyAt === this.workSeen && (busOf(this.core.options.db)?.trusted ?? true)) return;
    this.pumping = this.pump()
      .catch((err) => {
        this.core.sawStore(err);
        this.core.options.onError?.(err, 'claim');
      })
      .finally(() => {
        this.pumping = undefined;
        if (this.repump) {
          this.repump = false;
          this.wake(false);
        }
      });
  }

  /**
   * Fills the free worker slots in one claim per round: a round that gets fewer jobs than it had
   * slots found the queue empty, so a task run alone costs one claim, not a second empty one.
   */
  private async pump(): Promise<void> {
    const { core } = this;
    const kinds = [...core.handlers.keys()];
    while (!this.stopped && core.running.size < core.options.concurrency) {
      const free = core.options.concurrency - core.running.size;
      const seen = this.workSeen;
      const jobs = await repo.claimJobs(core.options.db, {
        kinds,
        owner: core.owner,
        now: core.iso(),
        leaseExpiresAt: core.iso(core.leaseMs),
        limit: free,
      });
      const observer = core.options.observer;
      const claimedAt = core.options.now().getTime();
      for (const job of jobs) {
        observer?.claimed(job.kind, Math.max(0, claimedAt - Date.parse(job.run_after)));
        core.emit(job);
        this.launch(job);
      }
      if (jobs.length < free) {
        this.emptyAt = seen;
        return;
      }
    }
  }
}
