import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { connectPostgres } from '../../../src/server/store/postgres.js';
import { createTestDatabase, describePostgres, dropTestDatabases } from '../../helpers/postgres.js';

/**
 * A connection the database ends while a transaction holds it (an outage, a restart, an
 * administrator's pg_terminate_backend) must fail that transaction, never the process: an 'error'
 * event without a listener would end it (vitest reports such an error and fails the run).
 */
describePostgres('PostgreSQL connection lost mid-transaction', () => {
  afterAll(() => dropTestDatabases());

  it('fails the transaction and leaves the pool usable', async () => {
    const url = await createTestDatabase();
    const db = connectPostgres(url);
    const killer = new pg.Client({ connectionString: url });
    await killer.connect();
    try {
      const outcome = await db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
          await killer.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
          // The client is idle between queries here: the server's goodbye arrives as an 'error' event.
          await new Promise((r) => setTimeout(r, 200));
          await sql`SELECT 1`.execute(trx);
        })
        .then(
          () => 'committed',
          (err: Error) => err.message,
        );
      expect(outcome).not.toBe('committed');
      const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
      expect(rows[0].one).toBe(1);
    } finally {
      await killer.end();
      await db.destroy();
    }
  });
});
