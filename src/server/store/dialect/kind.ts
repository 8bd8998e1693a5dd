import { PostgresAdapter, type QueryExecutorProvider } from 'kysely';

export type StoreDialect = 'sqlite' | 'postgres';

/**
 * Which database a Kysely instance (or a transaction or connection made from it) talks to. Read from
 * the adapter, which every derived instance shares, so the dialect modules need no extra argument.
 */
export function dialectOf(db: QueryExecutorProvider): StoreDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
