/**
 * When this process could not reach the database. A lease that ran out then was not renewed because
 * its worker could not reach the database either, not because the worker died: such a job is put
 * back without counting a crash against it. A live worker's lease runs out no sooner than two thirds
 * of a lease after the outage began (it renews every third), and no later than one lease after the
 * database is back, so the window reaches that far.
 */
export class OutageWindow {
  private since: number | null = null;
  private last: { from: number; to: number } | null = null;

  /** The database could not be reached at `at` (ms). */
  lost(at: number): void {
    this.since ??= at;
  }

  /** The database answered at `at` (ms): an outage in progress is over. */
  answered(at: number): void {
    if (this.since === null) return;
    this.last = { from: this.since, to: at };
    this.since = null;
  }

  get inOutage(): boolean {
    return this.since !== null;
  }

  /** Whether a lease that ran out at `expiredAt` did so while (or just after) the database was away. */
  covers(expiredAt: number, leaseMs: number): boolean {
    if (this.since !== null && expiredAt >= this.since) return true;
    return this.last !== null && expiredAt >= this.last.from && expiredAt <= this.last.to + leaseMs;
  }
}
