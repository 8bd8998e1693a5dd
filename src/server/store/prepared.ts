import { CompiledQuery, type Compilable, type Kysely } from 'kysely';

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
 * A hot read query, built with Kysely once and then run without query-builder work per call: on
 * SQLite straight on a cached statement, elsewhere through Kysely's executeQuery. `build` receives
 * placeholders for its arguments and must produce the same SQL whatever the values.
 */
export function preparedQuery<Row, Args extends unknown[]>(build: (db: Kysely<any>, ...args: Args) => Compilable<Row>) {
  let compiled: { sql: string; parameters: readonly unknown[] } | undefined;
  return async (db: Kysely<any>, ...args: Args): Promise<Row[]> => {
    if (!compiled) {
      const slots = args.map((_, i) => new Slot(i)) as unknown as Args;
      compiled = build(db, ...slots).compile();
    }
    const params = compiled.parameters.map((p) => (p instanceof Slot ? args[p.index] : p));
    const fast = readers.get(db);
    if (fast) return fast(compiled.sql, params) as Row[];
    return (await db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, params))).rows as Row[];
  };
}
