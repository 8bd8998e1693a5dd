import { afterAll, afterEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import { insertUser, findUserById } from '../../../src/server/store/users.repo.js';
import { UnstorableText } from '../../../src/server/store/unstorable-text.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(dropTestDatabases);

const at = '2026-01-01T00:00:00.000Z';

// PostgreSQL refuses NUL in text ("invalid byte sequence for encoding UTF8: 0x00"), which answered
// 500 where SQLite stored it: both stores now refuse it alike, and nothing is written.
describeOnStores('text no store may hold', (stores) => {
  it('a value holding NUL is refused before it reaches the database; others are stored', async () => {
    const s = await stores.open();
    opened.push(s);
    const user = (id: string, name: string) =>
      insertUser(s.db, { id, name, role: 'user', plan: 'free', credits: 0, created_at: at });
    await expect(user('u1', 'a\u0000b')).rejects.toBeInstanceOf(UnstorableText);
    expect(await findUserById(s.db, 'u1')).toBeUndefined();
    await user('u2', 'a\u0001b \\u0000');
    expect(await findUserById(s.db, 'u2')).toMatchObject({ name: 'a\u0001b \\u0000' });
  });
});
