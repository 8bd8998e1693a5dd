import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import { indexedLiveDoc } from '../../helpers/indexed-livedoc.js';
import { htmlToMarkdown } from '../../../src/server/engines/extract/html.js';
import { analyzeQuery } from '../../../src/server/engines/query-analysis.js';
import { ground } from '../../../src/server/services/grounding.service.js';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';

/**
 * A one-letter option is searched for ("what does -k do"): a man page's `-k` entry is indexed as the
 * word "k", too short to be a keyword, so the search found the page's other options instead and the
 * answer named one of those, or was refused. Real documents nobody here wrote (bench/content/docs).
 */
const DOCS = path.resolve(import.meta.dirname, '../../../bench/content/docs');
const opened: Store[] = [];
afterAll(async () => {
  for (const s of opened.splice(0)) await s.close();
  await dropTestDatabases();
});

describeOnStores('a one-letter option asked of man pages', (stores) => {
  let store: Store;
  beforeAll(async () => {
    store = await stores.open();
    opened.push(store);
    const docs = [];
    for (const f of ['gzip-man.html', 'sort-man.html', 'du-man.html']) {
      const text = htmlToMarkdown(readFileSync(path.join(DOCS, f), 'utf8'));
      docs.push({ id: f.replace(/\W/g, '_'), title: f.replace(/-man\.html$/, ''), text });
    }
    await indexedLiveDoc(store.db, docs);
  });

  const ask = async (query: string) => {
    const { passages } = await ground(
      { db: store.db },
      analyzeQuery(query),
      { livedocIds: ['ld'] },
      { question: query },
    );
    return extractiveAnswer({ query, passages, history: [] });
  };

  it.each([
    ['What does the -k option of gzip do?', /Keep \(don.t delete\) input files/],
    ['What does the -L option of gzip do?', /Display the \*\*gzip\*\* license/],
  ])('%s', async (question, fact) => {
    expect(await ask(question)).toMatch(fact);
  });
});
