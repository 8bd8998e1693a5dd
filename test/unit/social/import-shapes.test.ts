import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/server/store/store.js';
import { ImportError, importSocial } from '../../../src/server/providers/social/import.js';
import { postsByIds, usersByIds } from '../../../src/server/store/social/social.repo.js';

/**
 * `serve social import` reads each line as an unknown record: the nested author, quoted post,
 * metrics and the beta shape's entity lists are read only where they are objects, so a stray
 * null among them is skipped, never a crash, and their text lands in the stored post.
 */
describe('social import of the v2 and beta shapes', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ dataDir: null });
  }, 60_000);
  afterAll(() => store?.close());

  it('keeps beta entities (urls, hashtags, mentions), v2 metrics and a quoted post with its author', async () => {
    const quoted = {
      id: '5100000000000001',
      content: 'the quoted one',
      created_at: '2025-12-01T10:00:00Z',
      author: { user_id: '51000001', username: 'quoted_author' },
    };
    const v2 = {
      id: '5100000000000002',
      content: 'a v2 post',
      created_at: '2025-12-02T10:00:00Z',
      metrics: { favorite_count: 7, view_count: 70 },
      quoted_tweet: quoted,
      author: { user_id: '51000002', username: 'v2_author' },
    };
    const beta = {
      id: '5100000000000003',
      text: 'a beta post',
      createdAt: 'Wed Dec 24 11:00:00 +0000 2025',
      likeCount: 4,
      entities: {
        urls: [{ expanded_url: 'https://example.com/long' }, { url: 'https://t.example/s' }, null],
        hashtags: [{ text: 'quokka' }, 5],
        user_mentions: [{ screen_name: 'v2_author' }],
      },
      author: { userName: 'beta_author', id: '51000003', followers: 3 },
    };
    const result = await importSocial(
      store.db,
      [v2, beta].map((o) => JSON.stringify(o)),
    );
    expect(result).toEqual({ users: 3, posts: 3 });

    const [v2Row, betaRow, quotedRow] = await Promise.all(
      [v2.id, beta.id, quoted.id].map(async (id) => (await postsByIds(store.db, [id]))[0]),
    );
    expect(JSON.parse(betaRow.urls)).toEqual(['https://example.com/long', 'https://t.example/s']);
    expect(JSON.parse(betaRow.hashtags)).toEqual(['quokka']);
    expect(JSON.parse(betaRow.mentions)).toEqual(['v2_author']);
    expect(betaRow.favorite_count).toBe(4);
    expect(v2Row).toMatchObject({ favorite_count: 7, view_count: 70, quoted_id: quoted.id });
    expect(quotedRow.content).toBe('the quoted one');
    const users = await usersByIds(store.db, ['51000001', '51000003']);
    expect(users.map((u) => u.username).sort()).toEqual(['beta_author', 'quoted_author']);
  });

  it('refuses a line that is not one object, and a post without its author object, by line number', async () => {
    await expect(importSocial(store.db, ['[1, 2]'])).rejects.toThrow(
      new ImportError('line 1: a line holds one JSON object: a user or a post'),
    );
    const noAuthor = { id: '5100000000000009', content: 'orphan', created_at: '2025-12-02T10:00:00Z', author: 'x' };
    await expect(importSocial(store.db, ['', JSON.stringify(noAuthor)])).rejects.toThrow(
      'line 2: a post needs its author object',
    );
  });
});
