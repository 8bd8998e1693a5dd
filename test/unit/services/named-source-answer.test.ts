import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import { insertUser } from '../../../src/server/store/users.repo.js';
import { insertLiveDoc } from '../../../src/server/store/livedocs.repo.js';
import { insertResource } from '../../../src/server/store/resources.repo.js';
import { indexResource } from '../../../src/server/engines/retrieval/index.js';
import { extractDocument } from '../../../src/server/engines/extract/documents.js';
import { analyzeQuery } from '../../../src/server/engines/query-analysis.js';
import { ground } from '../../../src/server/services/grounding.service.js';
import { extractiveAnswer } from '../../../src/server/engines/grounded-writer.js';

/**
 * Real documents nobody here wrote (bench/content/docs): Commander's README, debug's README, pino's
 * benchmarks and winston's README as a LibreOffice DOCX, in one LiveDoc. Commander speaks of
 * "default values" of "options" at length; a question that names winston means winston's table.
 */
const DOCS = path.resolve(import.meta.dirname, '../../../bench/content/docs');
const at = '2026-01-01T00:00:00.000Z';
const opened: Store[] = [];
afterAll(async () => {
  for (const s of opened.splice(0)) await s.close();
  await dropTestDatabases();
});

describeOnStores('answers over several real documents, one of them named', (stores) => {
  let store: Store;
  beforeAll(async () => {
    store = await stores.open();
    opened.push(store);
    await insertUser(store.db, { id: 'u1', name: 'u1', role: 'user', plan: 'free', credits: 0, created_at: at });
    await insertLiveDoc(store.db, {
      id: 'ld',
      owner_id: 'u1',
      name: 'Docs',
      description: '',
      icon: '',
      created_at: at,
      modified_at: at,
    });
    const docx = await extractDocument('docx', readFileSync(path.join(DOCS, 'winston-readme.docx')));
    const docs = [
      ...['commander-readme.md', 'debug-readme.md', 'pino-benchmarks.md'].map((f) => {
        const text = readFileSync(path.join(DOCS, f), 'utf8');
        return { id: f.replace(/\W/g, '_'), title: /^# (.+)$/m.exec(text)![1], text };
      }),
      { id: 'winston', title: docx.title ?? 'winston', text: docx.text },
    ];
    for (const d of docs) {
      await insertResource(store.db, {
        id: d.id,
        livedoc_id: 'ld',
        title: d.title,
        link: '',
        snippet: '',
        thumbnail: '',
        resource_type: 'ai_doc',
        resource_key: d.id,
        status: 'completed',
        source: 'doc',
        content_type: 'text',
        text: d.text,
        file_path: null,
        file_name: null,
        mime_type: null,
        created_at: at,
        modified_at: at,
      });
      await indexResource(store.db, { id: d.id, livedoc_id: 'ld', title: d.title, text: d.text });
    }
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

  it('"winston\'s level option": answered from winston alone, never from Commander\'s default values', async () => {
    const a = await ask("What is the default value of winston's level option?");
    expect(a).not.toMatch(/cheese|\[2\]/);
    // bm25 (SQLite) ranks the chunk holding winston's table of logger parameters among the six
    // passages, and the answer is its cell. ts_rank (PostgreSQL) weighs no word's rarity, so the
    // title word on every winston chunk ties them and that chunk ranks tenth: the answer there is
    // other winston sentences on levels and defaults.
    if (stores.dialect === 'sqlite') expect(a).toBe("For `level`, Default: `'info'`. [1]");
  });

  it("lists npm's levels when asked for npm's, not syslog's from the same section", async () => {
    const a = await ask("List winston's npm logging levels with their priorities.");
    expect(a).toContain('`silly: 6`');
    expect(a).not.toContain('emerg');
  });

  it('a question naming Commander still gets Commander', async () => {
    expect(await ask('How do I give a Commander option a default value?')).toContain("'blue'");
  });
});
