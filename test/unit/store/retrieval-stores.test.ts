import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../../src/server/store/store.js';
import { describeOnStores, dropTestDatabases } from '../../helpers/postgres.js';
import { updateResource, deleteResource } from '../../../src/server/store/resources.repo.js';
import { indexedLiveDoc } from '../../helpers/indexed-livedoc.js';
import { indexResource, routeResources, searchChunks } from '../../../src/server/engines/retrieval/index.js';

/**
 * One retrieval test set for both stores: the same documents and questions must give the same top
 * results on SQLite (FTS5, bm25) and PostgreSQL (tsvector, ts_rank). Scores differ between stores;
 * the order of what comes first must not.
 */
const DOCS: Record<string, { title: string; text: string }> = {
  tides: {
    title: 'Tides',
    text: '# Halifax\n\nTidal report for Halifax harbour. Spring tides reach 2.4 metres at the north wharf.\n\n## March\n\nNeap tides stay under 1.1 metres in March.',
  },
  onboarding: {
    title: 'Onboarding guide',
    text: '# Onboarding guide\n\nNew engineers receive a hardware security key on their first day.\n\nThe VPN password rotates every ninety days.',
  },
  kitchen: {
    title: 'Kitchen',
    text: '# Recipes\n\n## Sourdough\n\nFeed the starter with rye flour twelve hours before baking.\n\n## Pesto\n\nBasil, pine nuts, parmesan and olive oil, pounded in a mortar.',
  },
  volcano: {
    title: 'Volcanoes of Iceland',
    text: 'Iceland has about 130 volcanic mountains. The Eyjafjallajökull eruption in 2010 closed European airspace for days.\n\n## Hekla\n\nHekla erupts every few decades and is among the most active volcanoes.',
  },
  garden: {
    title: 'Garden diary',
    text: '## April\n\nSowed tomatoes and basil in the greenhouse. The rye cover crop was turned in.\n\n## June\n\nTomatoes flowering; watering every evening during the dry spell.',
  },
  security: {
    title: 'Security policy',
    text: '## Passwords\n\nPasswords must be at least fourteen characters. Reuse across services is forbidden.\n\n## Devices\n\nLaptops encrypt their disks; a lost device is reported within one hour.',
  },
  // Two sources that both speak of defaults and options: a question naming one means that one.
  logger: {
    title: 'winston',
    text: "## Creating your own Logger\n\nA logger accepts the following parameters:\n\n| Name | Default | Description |\n| --- | --- | --- |\n| `level` | `'info'` | Log only if info.level is less than or equal to this level |\n| `silent` | `false` | If true, all logs are suppressed |",
  },
  cli: {
    title: 'Commander.js',
    text: "## Default option value\n\nYou can specify a default value for an option.\n\n```js\nprogram.option('-c, --cheese <type>', 'add cheese', 'blue');\n```\n\n## Required option\n\nYou may specify a required option value using `.requiredOption()`.",
  },
  // Scripts written without spaces: found by the words Intl.Segmenter finds, on both stores.
  returns: {
    title: '退货政策',
    text: '# 退货政策\n\n商品签收后七天内可以申请退货。退款会在三个工作日内退回原支付方式。',
  },
  henpin: {
    title: '返品について',
    text: '商品到着後30日以内であれば返品できます。送料はお客様のご負担となります。',
  },
};

/** question -> the resources of the best hits, best first (as many as the test pins). */
const EXPECTED: Array<[string, string[]]> = [
  ['how high are spring tides at the wharf', ['tides']],
  ['neap tides in March', ['tides']],
  ['security key for new engineers', ['onboarding']],
  ['pesto with basil', ['kitchen', 'garden']],
  ['when does the VPN password rotate', ['onboarding', 'security']],
  ['Eyjafjallajökull eruption', ['volcano']],
  ['most active volcanoes', ['volcano']],
  ['rye flour starter', ['kitchen', 'garden']],
  ['watering tomatoes in the greenhouse', ['garden']],
  ['lost laptop encryption', ['security']],
  ['what is the default value of the level option', ['cli']],
  ["what is the default value of winston's level option", ['logger']],
  ['退货', ['returns']],
  ['退款多久到账', ['returns']],
  ['送料', ['henpin']],
  ['返品できますか', ['henpin']],
];

const opened: Store[] = [];
afterEach(async () => undefined);
afterAll(async () => {
  for (const s of opened.splice(0)) await s.close();
  await dropTestDatabases();
});

describeOnStores('retrieval test set', (stores) => {
  let store: Store;
  beforeAll(async () => {
    store = await stores.open();
    opened.push(store);
    await indexedLiveDoc(
      store.db,
      Object.entries(DOCS).map(([id, d]) => ({ id, ...d })),
    );
  });

  it.each(EXPECTED)('"%s" ranks %j first', async (question, expected) => {
    const hits = await searchChunks(store.db, question, { livedocIds: ['ld'], limit: 10 });
    const resources = [...new Set(hits.map((h) => h.resourceId))];
    expect(resources.slice(0, expected.length)).toEqual(expected);
    expect(hits[0].score).toBeGreaterThan(0);
  });

  it('routes to the resource whose best chunk ranks first, and follows updates and deletes', async () => {
    expect((await routeResources(store.db, 'pesto with basil', ['ld'], 2))[0].resourceId).toBe('kitchen');
    await updateResource(store.db, 'garden', { title: 'Quokka almanac' });
    await indexResource(store.db, { id: 'garden', livedoc_id: 'ld', title: 'Quokka almanac', text: DOCS.garden.text });
    const quokka = await searchChunks(store.db, 'quokka', { livedocIds: ['ld'], limit: 10 });
    expect(quokka.map((h) => h.resourceId)).toEqual(['garden', 'garden']);
    await deleteResource(store.db, 'garden');
    expect(await searchChunks(store.db, 'quokka', { livedocIds: ['ld'], limit: 10 })).toEqual([]);
    expect(await searchChunks(store.db, 'greenhouse', { livedocIds: ['ld'], limit: 10 })).toEqual([]);
    // a scope narrows the search: another LiveDoc, a page, a resource list
    expect(await searchChunks(store.db, 'tides', { livedocIds: ['other'], limit: 10 })).toEqual([]);
    expect(await searchChunks(store.db, 'tides', { livedocIds: ['ld'], resourceIds: ['kitchen'], limit: 10 })).toEqual(
      [],
    );
  });

  it('reads no user text as query syntax', async () => {
    for (const q of ['"unbalanced', "it's & | ! (tides)", 'NEAR(a b)', 'tides:*', "o'neil's <-> tides"]) {
      const hits = await searchChunks(store.db, q, { livedocIds: ['ld'], limit: 3 });
      expect(Array.isArray(hits)).toBe(true);
    }
    expect((await searchChunks(store.db, "tides' OR 1=1 --", { livedocIds: ['ld'], limit: 3 }))[0].resourceId).toBe(
      'tides',
    );
  });
});
