import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/server/store/store.js';
import { importText } from '../../helpers/import-text.js';
import { queryBacklinks } from '../../../src/server/providers/beta/local/backlinks.js';
import { parseTarget } from '../../../src/server/providers/beta/local/backlinks-data.js';

/**
 * A running server plans its backlinks queries with the statistics of an import another process ran
 * on the same SQLite file (`facet serve data import` beside `facet serve`): SQLite reads them only
 * with the schema, so without a reload the server kept planning as if the table were empty.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), 'facet-backlink-stats-'));
const opened: Store[] = [];
afterAll(async () => {
  for (const s of opened) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

// Every row has the same anchor and its own rank: the rank index narrows, the anchor index does not.
const links = Array.from({ length: 400 }, (_, i) =>
  JSON.stringify({
    target: 'stats.example',
    url_from: `https://s${i}.example/`,
    url_to: 'https://stats.example/',
    anchor: 'same',
    rank: i,
  }),
).join('\n');

const plan = async (store: Store) =>
  (
    await sql<{
      detail: string;
    }>`explain query plan select seq from beta_backlinks where subject = 'stats.example' and anchor = 'same' and rank = 7`.execute(
      store.db,
    )
  ).rows
    .map((r) => r.detail)
    .join(' | ');

it("plans with the statistics of another connection's import once it sees the new set", async () => {
  const server = await openStore({ dataDir: dir });
  const importer = await openStore({ dataDir: dir });
  opened.push(server, importer);
  await plan(server); // the server's connection has read the schema, with no statistics yet
  await importText(importer.db, 'backlinks', 'stats.jsonl', links);
  expect(await plan(importer)).toContain('beta_backlinks_rank');

  const q = {
    target: parseTarget('stats.example')!,
    status: 'all' as const,
    mode: 'as_is' as const,
    customMode: null,
    excludeInternal: false,
    includeSubdomains: true,
    filters: ['rank', '=', 7],
    orderBy: undefined,
    scale: 'one_thousand' as const,
  };
  expect((await queryBacklinks(server.db, q, 0, 10)).total).toBe(1);
  expect(await plan(server)).toContain('beta_backlinks_rank');
});
