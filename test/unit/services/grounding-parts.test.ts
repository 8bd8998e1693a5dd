import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { analyzeQuery } from '../../../src/server/engines/query-analysis.js';
import { ground } from '../../../src/server/services/grounding.service.js';
import { describeOnStores, dropTestDatabases, type StoreUnderTest } from '../../helpers/postgres.js';
import { indexedLiveDoc } from '../../helpers/indexed-livedoc.js';
import { extractHtml } from '../../../src/server/engines/extract/html.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/real-docs');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');

/**
 * A question of two parts gets passages for each: the whole question's words matched nine
 * sections of one document better than the one section of another that answers the second part,
 * and by score alone those nine filled every place.
 */
const docs = [
  {
    id: 'codes',
    title: 'Status codes',
    text: Array.from(
      { length: 9 },
      (_, i) =>
        `## Code ${400 + i}\n\nThe status code ${400 + i} means the request was not found in group ${i}; its colour on the Sidama log bag is red.`,
    ).join('\n\n'),
  },
  { id: 'bags', title: 'Coffee bags', text: '## Bags\n\nThe colour of the Sidama bag is green.' },
];

const opened: Store[] = [];
afterAll(async () => {
  for (const s of opened.splice(0)) await s.close();
  await dropTestDatabases();
});

describeOnStores('grounding a question of several parts', (stores: StoreUnderTest) => {
  let store: Store;
  beforeEach(async () => {
    store = await stores.open();
    opened.push(store);
    await indexedLiveDoc(store.db, docs);
  });

  it("each part's best passage is grounded, however the whole question ranks it", async () => {
    const question = 'Which status code means not found, and what colour is the Sidama bag?';
    const { passages, resources } = await ground({ db: store.db }, analyzeQuery(question), { livedocIds: ['ld'] });
    expect(passages.map((p) => p.content)).toContain('## Bags\n\nThe colour of the Sidama bag is green.');
    expect(passages[0].content).toMatch(/^## Code 400/);
    expect(resources.map((r) => r.title)).toEqual(['Status codes', 'Coffee bags']);
  });
});

describeOnStores('grounding: a passage under its headings', (stores: StoreUnderTest) => {
  let store: Store;
  beforeEach(async () => {
    store = await stores.open();
    opened.push(store);
    await indexedLiveDoc(store.db, [
      {
        id: 'figures',
        title: 'figures',
        text: [
          '# figures',
          '## API',
          '### replaceSymbols(string, options?)',
          'Returns the input with replaced fallback symbols.',
          '#### options',
          'Type: `object`',
          '##### useFallback',
          'Whether to replace symbols with fallbacks.',
        ].join('\n\n'),
      },
    ]);
  });

  // Only the last heading went with a passage: "useFallback" lost that it is one of the options.
  it('opens with every heading its chunk sits under, nested, without the source title', async () => {
    const question = 'What does the useFallback option do?';
    const { passages } = await ground({ db: store.db }, analyzeQuery(question), { livedocIds: ['ld'] });
    expect(passages.map((p) => p.content)).toContain(
      '## API\n\n### replaceSymbols(string, options?)\n\n#### options\n\n##### useFallback\n\nWhether to replace symbols with fallbacks.',
    );
  });
});

it('a quoted or bracketed name is one part, and a setting ("In the README, …") goes with the part after it', () => {
  expect(analyzeQuery('In the bytes README (under "bytes.format(number value, [options])"), what is options?')).toEqual(
    ['bytes readme under format number value options bytes.format'],
  );
});

describeOnStores('grounding: a source the question names', (stores: StoreUnderTest) => {
  let store: Store;
  beforeEach(async () => {
    store = await stores.open();
    opened.push(store);
    const readmes = [
      'quick-lru',
      'mitt',
      'p-map',
      'p-limit',
      'fastq',
      'ms',
      'ws',
      'semver',
      'kleur',
      'chardet',
      'hyperid',
      'ylru',
    ];
    await indexedLiveDoc(store.db, [
      ...readmes.map((name) => ({ id: name, title: `${name}-readme`, text: fixture(`${name}-readme.md`) })),
      { id: 'dedent', title: 'dedent-readme', text: extractHtml(fixture('dedent-readme.html')).markdown },
    ]);
  });

  // Twelve READMEs saying "npm install" filled every place; dedent's says `npm i dedent`.
  it('brings the best passage of the source it names by a word of its title', async () => {
    const question = 'How do I install dedent?';
    const { resources } = await ground({ db: store.db }, analyzeQuery(question), { livedocIds: ['ld'] }, { question });
    expect(resources.map((r) => r.title)).toContain('dedent-readme');
  });
});
