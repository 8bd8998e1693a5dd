import { afterAll, afterEach, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Store } from '../../../src/server/store/store.js';
import type { Database } from '../../../src/server/store/database.js';
import type { AppContext } from '../../../src/server/context.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import { servePages, type PageServer } from '../../helpers/pages.js';
import { FetchPolicy } from '../../../src/server/net/policy.js';
import { BatchScrapeRequest } from '../../../src/contract/scrape.js';
import { batchScrapeHandler } from '../../../src/server/services/batch-scrape.runner.js';
import { allPages, insertScrape } from '../../../src/server/store/scrape.repo.js';

const opened: Store[] = [];
let pages: PageServer | undefined;
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  await pages?.close();
  pages = undefined;
});
afterAll(dropTestDatabases);

const N = 24;

/** The store, counting the writes made outside any transaction (each its own commit). */
function countingAutocommits(db: Kysely<Database>): { db: Kysely<Database>; autocommits: () => number } {
  let n = 0;
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === 'updateTable' || prop === 'insertInto' || prop === 'deleteFrom') {
        return (...args: unknown[]) => {
          n++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: proxy, autocommits: () => n };
}

describeOnStores('the batch scrape runner', (stores) => {
  it('commits each page once (its cache entry, its outcome and the next claim together) and still scrapes every page once', async () => {
    const s = await stores.open();
    opened.push(s);
    pages = await servePages(
      Object.fromEntries(
        Array.from({ length: N }, (_, i) => [
          `/p/${i}`,
          {
            body: `<html><head><title>Page ${i}</title></head><body><h1>Heading ${i}</h1><p>Body of page ${i}.</p></body></html>`,
          },
        ]),
      ),
    );
    const urls = Array.from({ length: N }, (_, i) => `${pages!.url}/p/${i}`);
    // The runner fetches what the store holds; the contract's https-only rule is the route's, not its concern here.
    const req = BatchScrapeRequest.parse({ urls: urls.map((u) => u.replace('http:', 'https:')), maxConcurrency: 3 });
    const now = new Date('2026-01-01T00:00:00.000Z');
    await insertScrape(
      s.db,
      {
        id: 'bsj_1',
        user_id: 'u1',
        api_key_id: null,
        request: JSON.stringify({ ...req, urls }),
        total: N,
        created_at: now.toISOString(),
      },
      urls,
    );

    const counting = countingAutocommits(s.db);
    const ctx = {
      db: counting.db,
      now: () => now,
      config: {},
      fetchPolicy: new FetchPolicy(['127.0.0.1']),
    } as unknown as AppContext;
    const logs: string[] = [];
    const result = await batchScrapeHandler(ctx)({
      id: 'bsj_1',
      kind: 'batch-scrape',
      payload: { scrape_id: 'bsj_1' },
      attempt: 1,
      maxAttempts: 1,
      signal: new AbortController().signal,
      log: async (l) => void logs.push(l),
    });
    expect(result).toEqual({ scrape_id: 'bsj_1' });

    const rows = await allPages(s.db, 'bsj_1');
    expect(rows.map((r) => r.state)).toEqual(Array(N).fill('done'));
    rows.forEach((r, i) =>
      expect(JSON.parse(r.result!)).toMatchObject({
        url: urls[i],
        status: 'success',
        title: `Page ${i}`,
        markdown: `# Heading ${i}\n\nBody of page ${i}.`,
        cached: false,
      }),
    );
    for (const u of urls) expect(pages.hits.get(new URL(u).pathname)).toBe(1);
    // Every page's result is also in the shared extraction cache.
    const cached = await s.db.selectFrom('web_extract_cache').select('url').execute();
    expect(cached.map((c) => c.url).sort()).toEqual([...urls].sort());
    // Before: three commits a page (claim, cache entry, outcome) = 72 here. Now the interrupted-page
    // sweep and one claim per runner are on their own; the rest is one transaction a page.
    expect(counting.autocommits()).toBeLessThanOrEqual(1 + req.maxConcurrency);
  });
});
