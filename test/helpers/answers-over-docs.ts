import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Store } from '../../src/server/store/store.js';
import type { StoreDialect } from '../../src/server/store/dialect/kind.js';
import { analyzeQuery } from '../../src/server/engines/query-analysis.js';
import { ground } from '../../src/server/services/grounding.service.js';
import { extractiveAnswer } from '../../src/server/engines/grounded-writer.js';
import { describeOnStores, dropTestDatabases } from './postgres.js';
import { indexedLiveDoc } from './indexed-livedoc.js';
import type { TextChunk } from '../../src/server/engines/retrieval/chunker.js';

/** bench/content's real documents, which nobody here wrote. */
export const BENCH_DOCS = path.resolve(import.meta.dirname, '../../bench/content/docs');

type Doc = { id: string; title: string; text: string; chunks?: TextChunk[] };

/**
 * Describes `name` on SQLite and PostgreSQL over one LiveDoc of `docs`, indexed as uploads are;
 * `ask` answers a question as `facet ask` does with the local models (retrieval, then the writer);
 * `dialect` says which store's full-text ranking retrieved the passages (bm25 or ts_rank).
 */
export function describeAnswersOver(
  name: string,
  docs: () => Promise<Doc[]>,
  body: (ask: (query: string) => Promise<string>, dialect: StoreDialect) => void,
): void {
  const opened: Store[] = [];
  afterAll(async () => {
    for (const s of opened.splice(0)) await s.close();
    await dropTestDatabases();
  });
  describeOnStores(name, (stores) => {
    let store: Store;
    beforeAll(async () => {
      store = await stores.open();
      opened.push(store);
      await indexedLiveDoc(store.db, await docs());
    });
    body(async (query) => {
      const { passages } = await ground(
        { db: store.db },
        analyzeQuery(query),
        { livedocIds: ['ld'] },
        { question: query },
      );
      return extractiveAnswer({ query, passages, history: [] });
    }, stores.dialect);
  });
}
