import type { CompiledQuery, Kysely, Selectable } from 'kysely';
import type { Database, JobsTable, JobState } from '../store/database.js';
import { amongPicked, claimable } from '../store/dialect/locks.js';
import { runAtomically } from '../store/atomic.js';

export type JobRow = Selectable<JobsTable>;

export const TERMINAL_STATES: readonly JobState[] = ['succeeded', 'failed', 'canceled'];

const insertLogLine = (db: Kysely<Database>, jobId: string, at: string, line: string): CompiledQuery =>
  db.insertInto('job_logs').values({ job_id: jobId, at, line }).compile();

/**
 * Inserts a job with its first log lines in one transaction: a worker of another instance can claim
 * the job the moment it is visible, and its log must already start with them. `alongside` are
 * writes committed in the same transaction, before the job (the record the job works on): the job
 * never exists without them, nor they without the job.
 */
export async function insertJob(
  db: Kysely<Database>,
  row: JobRow,
  logLines: string[],
  alongside: ReadonlyArray<CompiledQuery> = [],
): Promise<void> {
  await runAtomically(db, [
    ...alongside,
    db.insertInto('jobs').values(row).compile(),
    ...logLines.map((line) => insertLogLine(db, row.id, row.created_at, line)),
  ]);
}

export async function findJob(db: Kysely<Database>, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findJobs(db: Kysely<Database>, ids: string[]): Promise<JobRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('jobs').selectAll().where('id', 'in', ids).execute();
}

/**
 * Claims up to `limit` of the oldest runnable jobs of the given kinds in one statement, so two
 * workers (or two instances sharing the store) can never both take one: the inner SELECT and the
 * guarded UPDATE run as one write, and `state = 'queued'` in the WHERE makes a lost race update
 * nothing. On PostgreSQL the inner SELECT also skips rows another claimer has locked (see
 * dialect/locks.ts). Fewer rows than `limit` means no other job was runnable at that moment. The rows
 * come back oldest first.
 */
export async function claimJobs(
  db: Kysely<Database>,
  input: { kinds: string[]; owner: string; now: string; leaseExpiresAt: string; limit: number },
): Promise<JobRow[]> {
  if (input.kinds.length === 0 || input.limit < 1) return [];
  const { owner, leaseExpiresAt, now, limit, kinds } = input;
  const claimed = await db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'running',
      lease_owner: owner,
      lease_expires_at: leaseExpiresAt,
      attempts: eb('attempts', '+', 1),
      started_at: now,
      updated_at: now,
      error: null,
    }))
    .where('state', '=', 'queued')
    .where(
      amongPicked(
        db,
        'jobs.id',
        claimable(
          db,
          db
            .selectFrom('jobs')
            .select('id')
            .where('state', '=', 'queued')
            .where('kind', 'in', kinds)
            .where('run_after', '<=', now)
            .orderBy('run_after')
            .orderBy('created_at')
            .orderBy('id')
            .limit(limit),
        ),
      ),
    )
    .returningAll()
    .execute();
  return oldestFirst(claimed);
}

/** RETURNING keeps no order: run them in the order they were picked. */
function oldestFirst(rows: JobRow[]): JobRow[] {
  return rows.sort((a, b) =>
    a.run_after < b.run_after
      ? -1
      : a.run_after > b.run_after
        ? 1
        : a.created_at < b.created_at
          ? -1
          : a.created_at > b.created_at
            ? 1
            : a.id < b.id
              ? -1
              : a.id > b.id
                ? 1
                : 0,
  );
}

/** Claims the oldest runnable job (see claimJobs). */
export async function claimNext(
  db: Kysely<Database>,
  input: { kinds: string[]; owner: string; now: string; leaseExpiresAt: string },
): Promise<JobRow | undefined> {
  return (await claimJobs(db, { ...input, limit: 1 }))[0];
}

/** Extends the lease of a job this owner still holds; false when it lost the lease. */
export async function renewLease(
  db: Kysely<Database>,
  id: string,
  owner: string,
  leaseExpiresAt: string,
  now: string,
): Promise<{ held: boolean; cancelRequested: boolean }> {
  const row = await db
    .updateTable('jobs')
    .set({ lease_expires_at: leaseExpiresAt, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('lease_owner', '=', owner)
    .returning(['cancel_requested'])
    .executeTakeFirst();
  return { held: Boolean(row), cancelRequested: Boolean(row?.cancel_requested) };
}

type FinishSet = {
  state: JobState;
  error?: string | null;
  result?: string | null;
  run_after?: string;
  attempts?: number;
  now: string;
};

/** Moves a running job this owner holds to its next state; false if the lease was lost meanwhile. */
export async function finishRun(db: Kysely<Database>, id: string, owner: string, set: FinishSet): Promise<boolean> {
  const terminal = TERMINAL_STATES.includes(set.state);
  const rows = await db
    .updateTable('jobs')
    .set({
      state: set.state,
      error: set.error ?? null,
      ...(set.result !== undefined ? { result: set.result } : {}),
      ...(set.run_after ? { run_after: set.run_after } : {}),
      ...(set.attempts !== undefined ? { attempts: set.attempts } : {}),
      lease_owner: null,
      lease_expires_at: null,
      updated_at: set.now,
      finished_at: terminal ? set.now : null,
      ...(terminal ? {} : { cancel_requested: 0 }),
    })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .where('lease_owner', '=', owner)
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Cancels a queued job at once; returns the row after the change (or unchanged when not queued). */
export async function cancelQueued(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('jobs')
    .set({
      state: 'canceled',
      error: 'canceled before it started',
      finished_at: now,
      updated_at: now,
      cancel_requested: 1,
    })
    .where('id', '=', id)
    .where('state', '=', 'queued')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Flags a running job; its worker (here or on another instance) aborts at the next heartbeat. */
export async function requestCancel(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('jobs')
    .set({ cancel_requested: 1, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** A failed or canceled job back to the queue with a fresh attempt budget (and crash count). */
export async function requeueFinished(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('jobs')
    .set({
      state: 'queued',
      attempts: 0,
      crashes: 0,
      error: null,
      result: null,
      cancel_requested: 0,
      run_after: now,
      started_at: null,
      finished_at: null,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('state', 'in', ['failed', 'canceled'])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Running jobs whose lease ran out (or, with `anyLease`, every running job): a crashed worker's. */
export async function findOrphans(db: Kysely<Database>, now: string, anyLease: boolean): Promise<JobRow[]> {
  let q = db.selectFrom('jobs').selectAll().where('state', '=', 'running');
  if (!anyLease) q = q.where('lease_expires_at', '<', now);
  return q.execute();
}

/** Takes over an orphan only if it is still the orphan we saw (same owner and lease). */
export async function recoverOrphan(
  db: Kysely<Database>,
  orphan: JobRow,
  set: {
    state: 'queued' | 'failed' | 'canceled';
    error: string | null;
    now: string;
    crashes?: number;
    attempts?: number;
  },
): Promise<boolean> {
  const terminal = set.state !== 'queued';
  let q = db
    .updateTable('jobs')
    .set({
      ...(set.crashes === undefined ? {} : { crashes: set.crashes }),
      ...(set.attempts === undefined ? {} : { attempts: set.attempts }),
      state: set.state,
      error: set.error,
      lease_owner: null,
      lease_expires_at: null,
      // Queued again, it keeps its place: the claim order is run_after, then creation.
      run_after: terminal ? set.now : orphan.run_after,
      updated_at: set.now,
      finished_at: terminal ? set.now : null,
    })
    .where('id', '=', orphan.id)
    .where('state', '=', 'running');
  q =
    orphan.lease_owner === null ? q.where('lease_owner', 'is', null) : q.where('lease_owner', '=', orphan.lease_owner);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * A change of a job's state and the log line that tells of it, in one transaction: a process killed
 * between the two left a succeeded job whose log never said so. `change` answers whether it changed
 * anything; no line is written when it did not.
 */
export async function changeLogged(
  db: Kysely<Database>,
  jobId: string,
  at: string,
  line: string,
  change: (trx: Kysely<Database>) => Promise<boolean>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await change(trx))) return false;
    await trx.executeQuery(insertLogLine(trx, jobId, at, line));
    return true;
  });
}

export async function appendLog(db: Kysely<Database>, jobId: string, at: string, line: string): Promise<void> {
  await runAtomically(db, [insertLogLine(db, jobId, at, line)]);
}

export async function readLogs(
  db: Kysely<Database>,
  jobId: string,
  afterId = 0,
  limit = 1000,
): Promise<Array<{ id: number; at: string; line: string }>> {
  return db
    .selectFrom('job_logs')
    .select(['id', 'at', 'line'])
    .where('job_id', '=', jobId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Deletes ended jobs and their logs (a queued or running job is kept). */
export async function deleteEndedJobs(db: Kysely<Database>, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const ended = await db
    .selectFrom('jobs')
    .select('id')
    .where('id', 'in', ids)
    .where('state', 'in', [...TERMINAL_STATES])
    .execute();
  const gone = ended.map((j) => j.id);
  if (gone.length === 0) return;
  await db.deleteFrom('job_logs').where('job_id', 'in', gone).execute();
  await db.deleteFrom('jobs').where('id', 'in', gone).execute();
}

/** Queued jobs by kind, and when the oldest of them could first run (for /metrics; one grouped read). */
export async function queueDepth(
  db: Kysely<Database>,
): Promise<Array<{ kind: string; queued: number; oldest: string | null }>> {
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => ['kind', eb.fn.countAll<number>().as('queued'), eb.fn.min('run_after').as('oldest')])
    .where('state', '=', 'queued')
    .groupBy('kind')
    .execute();
  return rows.map((r) => ({ kind: r.kind, queued: Number(r.queued), oldest: r.oldest }));
}
