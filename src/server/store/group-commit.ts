import type Sqlite from 'better-sqlite3';

export interface WriteSet {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

type Statements = { prepare(sql: string): Sqlite.Statement };

/**
 * Group commit for SQLite's hot writes (a LiveDoc created, a usage record): each commit appends
 * every page it touched to the WAL, and many small transactions pay that over and over. The first
 * write of an event-loop turn commits at once, as before (a lone request waits for nothing); writes
 * that come while that turn's window is open are queued and committed together in one transaction
 * when the turn ends (setImmediate), each inside its own savepoint, so one that fails (a constraint)
 * is rolled back alone and only its caller sees the error. Every caller's promise settles after
 * the commit that holds its writes: an answer is never sent for a write that is not committed.
 *
 * Returns false, running nothing, while a transaction someone else opened is in progress on the
 * connection (a Kysely transaction awaiting between statements): the caller goes through Kysely.
 */
export function groupCommitWriter(sqlite: Sqlite.Database, statements: Statements) {
  const runSet = (queries: ReadonlyArray<WriteSet>) => {
    for (const q of queries) statements.prepare(q.sql).run(...(q.parameters as unknown[]));
  };
  // Called at the top level it is BEGIN…COMMIT; inside `commitBatch` it becomes a savepoint.
  const atomic = sqlite.transaction(runSet);
  let queue: Array<{ queries: ReadonlyArray<WriteSet>; done: (err?: unknown) => void }> = [];
  let windowOpen = false;

  const commitBatch = sqlite.transaction((batch: typeof queue) => {
    const outcomes: unknown[] = [];
    for (const item of batch) {
      try {
        atomic(item.queries);
        outcomes.push(undefined);
      } catch (err) {
        outcomes.push(err ?? new Error('write failed'));
      }
    }
    return outcomes;
  });

  const flush = () => {
    if (queue.length === 0) {
      windowOpen = false;
      return;
    }
    // A Kysely transaction opened after these were queued: wait for it to end (it holds the connection).
    if (sqlite.inTransaction) {
      setTimeout(flush, 1);
      return;
    }
    const batch = queue;
    queue = [];
    windowOpen = false;
    let outcomes: unknown[];
    try {
      outcomes = commitBatch(batch);
    } catch (err) {
      for (const item of batch) item.done(err);
      return;
    }
    batch.forEach((item, i) => item.done(outcomes[i]));
  };

  return (queries: ReadonlyArray<WriteSet>): false | Promise<void> => {
    if (sqlite.inTransaction) return false;
    if (!windowOpen) {
      windowOpen = true;
      setImmediate(flush);
      try {
        atomic(queries);
        return Promise.resolve();
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return new Promise<void>((resolve, reject) => queue.push({ queries, done: (err) => (err === undefined ? resolve() : reject(err)) }));
  };
}
