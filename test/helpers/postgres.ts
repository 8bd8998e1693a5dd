import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';
import { openStore, type Store } from '../../src/server/store/store.js';
import type { StoreDialect } from '../../src/server/store/dialect/kind.js';

/**
 * PostgreSQL for tests. FACET_TEST_DATABASE_URL names a server where the tests may create and drop
 * databases (scripts/test-postgres.sh starts a throwaway one and sets it). Each fresh store gets its
 * own new database, dropped at the end of the run. Without the variable the PostgreSQL half of a
 * test is skipped, saying why; under CI=true it fails instead, so CI never silently skips it.
 */
export const TEST_DATABASE_URL = process.env.FACET_TEST_DATABASE_URL || undefined;
const IN_CI = process.env.CI === 'true' || process.env.CI === '1';
export const NO_POSTGRES_REASON =
  'FACET_TEST_DATABASE_URL is not set; run the PostgreSQL tests with scripts/test-postgres.sh (see README)';

const created: string[] = [];

function urlWithDatabase(base: string, database: string): string {
  const u = new URL(base);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new empty database on the test server; its URL. Dropped by dropTestDatabases(). */
export async function createTestDatabase(): Promise<string> {
  if (!TEST_DATABASE_URL) throw new Error(NO_POSTGRES_REASON);
  const name = `facet_t_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  created.push(name);
  return urlWithDatabase(TEST_DATABASE_URL, name);
}

/** Drops one database made by createTestDatabase (its open connections are ended first). */
export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const i = created.indexOf(name);
  if (i < 0) return;
  created.splice(i, 1);
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** Drops every database this test file created (connections still open are ended first). */
export async function dropTestDatabases(): Promise<void> {
  if (!TEST_DATABASE_URL || created.length === 0) return;
  const names = created.splice(0);
  await admin(async (c) => {
    for (const name of names) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

export interface StoreUnderTest {
  dialect: StoreDialect;
  /** A new, empty, migrated store: a fresh in-memory SQLite, or a fresh PostgreSQL database. */
  open(): Promise<OpenedStore>;
  /** Another store on the same records as `of` (a second instance, or a restart). */
  reopen(of: OpenedStore): Promise<Store>;
}

/** A store with where it lives, so a test can open a second one on it. */
export type OpenedStore = Store & { location: string };

/** The stores a store-level test runs on: SQLite always, PostgreSQL when a test server is given. */
function storesUnderTest(): StoreUnderTest[] {
  const sqlite: StoreUnderTest = {
    dialect: 'sqlite',
    open: async () => Object.assign(await openStore({ dataDir: null }), { location: ':memory:' }),
    reopen: async () => {
      throw new Error('an in-memory SQLite store cannot be reopened; use a data dir');
    },
  };
  if (!TEST_DATABASE_URL) return [sqlite];
  const postgres: StoreUnderTest = {
    dialect: 'postgres',
    async open() {
      const url = await createTestDatabase();
      return Object.assign(await openStore({ dataDir: null, databaseUrl: url }), { location: url });
    },
    reopen: (of) => openStore({ dataDir: null, databaseUrl: of.location }),
  };
  return [sqlite, postgres];
}

/**
 * describe() once per store: `name [sqlite]` and `name [postgres]`. Without a test server the
 * PostgreSQL block is a skipped describe whose title says why, or a failing test under CI.
 */
export function describeOnStores(name: string, body: (stores: StoreUnderTest) => void): void {
  for (const stores of storesUnderTest()) describe(`${name} [${stores.dialect}]`, () => body(stores));
  if (TEST_DATABASE_URL) return;
  if (IN_CI) {
    describe(`${name} [postgres]`, () => {
      it('has a PostgreSQL test server (CI must not skip these tests)', () => {
        throw new Error(`CI=true but ${NO_POSTGRES_REASON}`);
      });
    });
  } else {
    describe.skip(`${name} [postgres] — skipped: ${NO_POSTGRES_REASON}`, () => {
      it('runs on PostgreSQL', () => undefined);
    });
  }
}

/** describe() for tests that only make sense on PostgreSQL, with the same skip/fail rule. */
export function describePostgres(name: string, body: () => void): void {
  if (TEST_DATABASE_URL) {
    describe(name, body);
  } else if (IN_CI) {
    describe(name, () => {
      it('has a PostgreSQL test server (CI must not skip these tests)', () => {
        throw new Error(`CI=true but ${NO_POSTGRES_REASON}`);
      });
    });
  } else {
    describe.skip(`${name} — skipped: ${NO_POSTGRES_REASON}`, () => {
      it('runs on PostgreSQL', () => undefined);
    });
  }
}
