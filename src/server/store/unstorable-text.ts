import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';

/**
 * Text neither store may hold: PostgreSQL refuses NUL in text (SQLite would keep it), so both
 * refuse it, and the caller gets a 400 instead of a 500 from the one database.
 */
export class UnstorableText extends Error {
  constructor() {
    super('A text holds a NUL character (\\u0000), which cannot be stored');
  }
}

/** The dialect, its queries refused when a parameter holds NUL: checked on the compiled values, once. */
export function refusingUnstorableText(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => refusingDriver(dialect.createDriver()),
  };
}

function refusingDriver(driver: Driver): Driver {
  const connections = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const wrap = (inner: DatabaseConnection): DatabaseConnection => {
    let outer = connections.get(inner);
    if (!outer) {
      outer = {
        executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
          check(query.parameters);
          return inner.executeQuery<R>(query);
        },
        streamQuery: <R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> => {
          check(query.parameters);
          return inner.streamQuery<R>(query, chunkSize);
        },
      };
      connections.set(inner, outer);
    }
    return outer;
  };
  const unwrap = new WeakMap<DatabaseConnection, DatabaseConnection>();
  return {
    init: () => driver.init(),
    destroy: () => driver.destroy(),
    acquireConnection: async () => {
      const inner = await driver.acquireConnection();
      const outer = wrap(inner);
      unwrap.set(outer, inner);
      return outer;
    },
    releaseConnection: (c) => driver.releaseConnection(unwrap.get(c) ?? c),
    beginTransaction: (c, settings) => driver.beginTransaction(unwrap.get(c) ?? c, settings),
    commitTransaction: (c) => driver.commitTransaction(unwrap.get(c) ?? c),
    rollbackTransaction: (c) => driver.rollbackTransaction(unwrap.get(c) ?? c),
    ...(driver.savepoint && {
      savepoint: (c, name, compile) => driver.savepoint!(unwrap.get(c) ?? c, name, compile),
    }),
    ...(driver.rollbackToSavepoint && {
      rollbackToSavepoint: (c, name, compile) => driver.rollbackToSavepoint!(unwrap.get(c) ?? c, name, compile),
    }),
    ...(driver.releaseSavepoint && {
      releaseSavepoint: (c, name, compile) => driver.releaseSavepoint!(unwrap.get(c) ?? c, name, compile),
    }),
  };
}

function check(parameters: readonly unknown[]): void {
  for (const p of parameters) if (typeof p === 'string' && p.includes('\u0000')) throw new UnstorableText();
}
