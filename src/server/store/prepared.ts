import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import { dialectOf, type StoreDialect } from './dialect/kind.js';

/** Stands for the i-th argument while a query is compiled once. */
class Slot {
  constructor(readonly index: number) {}
}

type Reader = (sql: string, parameters: readonly unknown[]) => unknown[];
const readers = new WeakMap<Kysely<any>, Reader>();

/**
 * Runs statements in one transaction and returns a promise settled once they are committed (see
 * group-commit.ts); or returns false without running anything when the connection is inside
 * another transaction (one a Kysely caller opened and is awaiting in): joining it would tie these
 * writes to that transaction's fate.
 */
type AtomicWriter = (queries: ReadonlyArray<BoundStatement>) => false | Promise<void>;

/**
 * A compiled statement with its values bound: plain SQL and parameters. Not a Kysely CompiledQuery
 * (frozen objects and a query node, several per call) until Kysely itself has to run it.
 */
export interface BoundStatement {
  sql: string;
  parameters: readonly unknown[];
}
const writers = new WeakMap<Kysely<any>, AtomicWriter>();

/**
 * Runs one statement that writes and returns rows (RETURNING), synchronously, committed on its own;
 * or returns undefined without running it while the connection is inside another transaction.
 */
type ReturningWriter = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;
const returningWriters = new WeakMap<Kysely<any>, ReturningWriter>();

/** The store registers its synchronous writer of one RETURNING statement (SQLite) for its Kysely instance. */
export function registerFastReturningWriter(db: Kysely<any>, writer: ReturningWriter): void {
  returningWriters.set(db, writer);
}

/** The store registers its synchronous cached-statement reader (SQLite) for its Kysely instance. */
export function registerFastReader(db: Kysely<any>, reader: Reader): void {
  readers.set(db, reader);
}

/** The store registers its transaction runner (SQLite's group commit) for its Kysely instance. */
export function registerFastWriter(db: Kysely<any>, writer: AtomicWriter): void {
  writers.set(db, writer);
}

/**
 * Compiles a query built by `build` once per dialect (with placeholders for its arguments) and
 * returns a function that binds arguments to the compiled SQL. `build` must produce the same SQL
 * whatever the values.
 */
function compileOnce<Args extends unknown[]>(build: (db: Kysely<any>, ...args: Args) => Compilable<unknown>) {
  // One compilation per dialect: the SQL text differs (? versus $1 placeholders, quoting), and one
  // process may hold stores of both kinds (tests, a future migrate command).
  const compiled: Partial<Record<StoreDialect, { sql: string; parameters: readonly unknown[] }>> = {};
  return (db: Kysely<any>, dialect: StoreDialect, args: Args): { sql: string; parameters: unknown[] } => {
    let q = compiled[dialect];
    if (!q) {
      const slots = args.map((_, i) => new Slot(i)) as unknown as Args;
      q = compiled[dialect] = build(db, ...slots).compile();
    }
    return { sql: q.sql, parameters: q.parameters.map((p) => (p instanceof Slot ? args[p.index] : p)) };
  };
}

/**
 * A hot read query, built with Kysely once (per dialect) and then run without query-builder work per
 * call: on SQLite straight on a cached statement, and then the rows come back as they are, not in a
 * promise (a caller may go on in the same turn); on PostgreSQL through Kysely's executeQuery. `build`
 * receives placeholders for its arguments and must produce the same SQL whatever the values.
 */
export function preparedQuery<Row, Args extends unknown[]>(build: (db: Kysely<any>, ...args: Args) => Compilable<Row>) {
  const bind = compileOnce(build);
  return (db: Kysely<any>, ...args: Args): Row[] | Promise<Row[]> => {
    const fast = readers.get(db);
    if (fast) {
      const q = bind(db, 'sqlite', args);
      return fast(q.sql, q.parameters) as Row[];
    }
    const q = bind(db, dialectOf(db), args);
    return db.executeQuery<Row>(CompiledQuery.raw(q.sql, q.parameters)).then((r) => r.rows as Row[]);
  };
}

/**
 * A hot single write with RETURNING, built with Kysely once (per dialect), committed on its own:
 * on SQLite with its connection free, synchronously on a cached statement, and then the rows come
 * back as they are, not in a promise (a caller may act on them in the same turn); otherwise (a
 * Kysely transaction open on the connection, or PostgreSQL) through Kysely's executeQuery, which
 * waits its turn. Same rule as preparedQuery: `build` receives placeholders and must produce the
 * same SQL whatever the values.
 */
export function preparedWrite<Row, Args extends unknown[]>(build: (db: Kysely<any>, ...args: Args) => Compilable<Row>) {
  const bind = compileOnce(build);
  return (db: Kysely<any>, ...args: Args): Row[] | Promise<Row[]> => {
    const fast = returningWriters.get(db);
    const q = bind(db, fast ? 'sqlite' : dialectOf(db), args);
    const rows = fast?.(q.sql, q.parameters);
    if (rows) return rows as Row[];
    return db.executeQuery<Row>(CompiledQuery.raw(q.sql, q.parameters)).then((r) => r.rows as Row[]);
  };
}

/**
 * A hot write statement, built with Kysely once (per dialect): calling it with a store and the
 * arguments gives the bound statement to hand to runAtomically. Same rule as preparedQuery: `build`
 * receives placeholders and must produce the same SQL whatever the values.
 */
export function preparedStatement<Args extends unknown[]>(build: (db: Kysely<any>, ...args: Args) => Compilable<unknown>) {
  const bind = compileOnce(build);
  return (db: Kysely<any>, ...args: Args): BoundStatement => bind(db, writers.has(db) ? 'sqlite' : dialectOf(db), args);
}

/**
 * Runs the queries in one transaction: all are committed before this resolves, or none. On SQLite
 * with its connection free, through the store's group commit (group-commit.ts: at once, or with the
 * other writes of the same event-loop turn); inside a transaction it is given, as part of it;
 * otherwise, and on PostgreSQL, in a Kysely transaction.
 */
export async function runAtomically(db: Kysely<any>, queries: ReadonlyArray<BoundStatement>): Promise<void> {
  // Given a transaction already: the queries join it, and commit or roll back with it.
  if (db.isTransaction) {
    for (const q of queries) await db.executeQuery(CompiledQuery.raw(q.sql, [...q.parameters]));
    return;
  }
  const committed = writers.get(db)?.(queries);
  if (committed) return committed;
  // One statement is atomic on its own: no BEGIN and COMMIT round trips around it.
  if (queries.length === 1) {
    await db.executeQuery(CompiledQuery.raw(queries[0].sql, [...queries[0].parameters]));
    return;
  }
  await db.transaction().execute(async (trx) => {
    for (const q of queries) await trx.executeQuery(CompiledQuery.raw(q.sql, [...q.parameters]));
  });
}
