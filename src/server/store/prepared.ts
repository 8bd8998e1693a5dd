import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import { dialectOf, type StoreDialect } from './dialect/kind.js';

/** Stands for the i-th argument while a query is compiled once. */
class Slot {
  constructor(readonly index: number) {}
}

type Reader = (sql: string, parameters: readonly unknown[]) => unknown[];
const readers = new WeakMap<Kysely<any>, Reader>();

/** The store registers its synchronous cached-statement reader (SQLite) for its Kysely instance. */
export function registerFastReader(db: Kysely<any>, reader: Reader): void {
  readers.set(db, reader);
}

/**
 * A hot read query, built with Kysely once (per dialect) and then run without query-builder work per
 * call: on SQLite straight on a cached statement, on PostgreSQL through Kysely's executeQuery. `build` receives
 * placeholders for its arguments and must produce the same SQL whatever the values.
 */
export function preparedQuery<Row, Args extends unknown[]>(build: (db: Kysely<any>, ...args: Args) => Compilable<Row>) {
  // One compilation per dialect: the SQL text differs (? versus $1 placeholders, quoting), and one
  // process may hold stores of both kinds (tests, a future migrate command).
  const compiled: Partial<Record<StoreDialect, { sql: string; parameters: readonly unknown[] }>> = {};
  const compile = (db: Kysely<any>, dialect: StoreDialect, args: Args) => {
    const slots = args.map((_, i) => new Slot(i)) as unknown as Args;
    return (compiled[dialect] = build(db, ...slots).compile());
  };
  const bind = (parameters: readonly unknown[], args: Args) => parameters.map((p) => (p instanceof Slot ? args[p.index] : p));
  return async (db: Kysely<any>, ...args: Args): Promise<Row[]> => {
    const fast = readers.get(db);
    if (fast) {
      const q = compiled.sqlite ?? compile(db, 'sqlite', args);
      return fast(q.sql, bind(q.parameters, args)) as Row[];
    }
    const dialect = dialectOf(db);
    const q = compiled[dialect] ?? compile(db, dialect, args);
    return (await db.executeQuery<Row>(CompiledQuery.raw(q.sql, bind(q.parameters, args)))).rows as Row[];
  };
}
