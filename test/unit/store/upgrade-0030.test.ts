import path from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src/server/store/migrations.js';
import { openStore } from '../../../src/server/store/store.js';
import {
  inputItems,
  prepareResponseTurn,
  storedResponse,
} from '../../../src/server/services/model-api/response-store.js';
import { TEST_DATABASE_URL, createTestDatabase, dropTestDatabases } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/platform.js';

afterAll(dropTestDatabases);

const before0030 = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0030'));
const message = (id: string, role: string, type: string, text: string) => ({
  type: 'message',
  id,
  role,
  content: [{ type, text }],
});

/** A response as rows before 0030 kept it: the whole history in its input, output_text included. */
const OLD = {
  input: [
    message('msg_1', 'user', 'input_text', 'first'),
    message('msg_2', 'assistant', 'output_text', 'first'),
    message('msg_3', 'user', 'input_text', 'second'),
  ],
  response: {
    id: 'resp_old',
    object: 'response',
    output: [{ ...message('msg_4', 'assistant', 'output_text', 'second'), status: 'completed' }],
    output_text: 'second',
    previous_response_id: 'resp_gone',
    store: true,
  },
};

async function upgradeWithOldRow(raw: Kysely<any>, reopen: () => ReturnType<typeof openStore>) {
  const { error } = await new Migrator({
    db: raw,
    provider: { getMigrations: async () => before0030 },
  }).migrateToLatest();
  expect(error).toBeUndefined();
  const body = JSON.stringify(OLD);
  await raw
    .insertInto('model_api_stored')
    .values({
      id: 'resp_old',
      kind: 'response',
      owner: 'key:a',
      body,
      bytes: body.length,
      items: 4,
      continued_at: null,
      created_at: '2026-03-01T00:00:00.000Z',
      expires_at: '2026-03-31T00:00:00.000Z',
    })
    .execute();
  await raw.destroy();
  const store = await reopen();
  try {
    const ctx = { db: store.db, now: () => new Date('2026-03-02T00:00:00.000Z'), config: {} as never };
    expect((await storedResponse(ctx, 'key:a', 'resp_old')).output_text).toBe('second');
    const listed = await inputItems(ctx, 'key:a', 'resp_old', { order: 'asc' });
    expect(listed.data.map((i) => i.id)).toEqual(['msg_1', 'msg_2', 'msg_3']);
    // Continuing it: the old row's whole history, then its answer, then the new input.
    const turn = await prepareResponseTurn(ctx, 'key:a', {
      model: 'facet-echo',
      input: 'third',
      previous_response_id: 'resp_old',
    });
    const seen = turn.body.input as Array<{ content: Array<{ text: string }> }>;
    expect(seen.map((i) => i.content[0].text)).toEqual(['first', 'first', 'second', 'second', 'third']);
  } finally {
    await store.close();
  }
}

describe('upgrading a data dir (migration 0030: stored responses become chains)', () => {
  it('on SQLite, a response stored before reads, lists and continues as it did', async () => {
    const dir = tempDir('upgrade-0030');
    await upgradeWithOldRow(
      new Kysely({ dialect: new SqliteDialect({ database: new Sqlite(path.join(dir, 'facet.db')) }) }),
      () => openStore({ dataDir: dir }),
    );
  });

  it.skipIf(!TEST_DATABASE_URL)('on PostgreSQL, the same', async () => {
    const url = await createTestDatabase();
    await upgradeWithOldRow(
      new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) }),
      () => openStore({ dataDir: null, databaseUrl: url }),
    );
  });
});
