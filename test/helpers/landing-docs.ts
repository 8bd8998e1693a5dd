import { readFileSync } from 'node:fs';
import { chunkText } from '../../src/server/engines/retrieval/chunker.js';
import type { PagePassage } from '../../src/server/engines/landing-page/text.js';
import { generateLandingPage, type LandingPage } from '../../src/server/engines/landing-page/index.js';
import { loadCatalog } from '../../src/server/engines/gateway/catalog.js';
import { ModelDirectory } from '../../src/server/engines/gateway/directory.js';
import { createGateway } from '../../src/server/engines/gateway/gateway.js';
import { openStore } from '../../src/server/store/store.js';
import type { ModelGateway } from '../../src/server/engines/gateway-types.js';

/** Three short Markdown documents about home solar power (one with a table of numbers, one FAQ heading). */
export const SOLAR_DOCS: Array<{ name: string; text: string; link: string }> = [
  {
    name: 'solar-guide.md',
    link: 'https://energy.example.org/solar-guide',
    text: `# Home solar guide

## How panels work

Photovoltaic panels turn sunlight into direct current electricity. An inverter converts that current into the alternating current a home uses, and any surplus flows back to the grid.

## Costs and savings

A typical 6 kW home solar system costs $15,000 before incentives. The federal tax credit covers 30% of the installed cost. Most households recover the cost of their solar panels in 8 to 10 years through lower electricity bills.

## Is my roof suitable for solar panels?

South-facing roofs with little shade produce the most solar power. A roof should have at least 10 years of life left before panels go on, because removing panels to re-roof is costly.
`,
  },
  {
    name: 'solar-data.md',
    link: '',
    text: `# Home solar installations by year

Home solar adoption keeps growing as panel prices fall and installers compete on cost.

| Year | Homes with solar | Average system size |
|---|---|---|
| 2021 | 3.2 million | 7.1 kW |
| 2022 | 3.9 million | 7.3 kW |
| 2023 | 4.7 million | 7.5 kW |
`,
  },
  {
    name: 'batteries.md',
    link: '',
    text: `# Home batteries

A home battery stores the midday surplus of solar panels for the evening. A 13.5 kWh battery can power the essentials of a home for a day during an outage. Battery prices fell 40% between 2018 and 2023, so more solar homes add one.
`,
  },
];

export const SOLAR_QUERY = 'Make a landing page about home solar power: costs, savings and how panels work';

/** The documents as retrieval would hand them to the engine: chunks, numbered by resource. */
export function solarPassages(): PagePassage[] {
  return SOLAR_DOCS.flatMap((d, i) =>
    chunkText(d.text, { defaultTitle: d.name }).map((c) => ({
      ref: i + 1,
      resourceId: `res_${i + 1}`,
      title: d.text.split('\n')[0].replace(/^#\s*/, ''),
      section: c.title,
      content: c.content,
      link: d.link,
    })),
  );
}

/** A README read as the engines read a LiveDoc resource: its chunks, one passage each. */
export function readmePassages(
  file: string,
  source: { ref: number; resourceId: string; title: string; link?: string },
): PagePassage[] {
  return chunkText(readFileSync(file, 'utf8')).map((c) => ({
    ref: source.ref,
    resourceId: source.resourceId,
    title: source.title,
    section: c.title || source.title,
    content: c.content,
    link: source.link ?? '',
  }));
}

/**
 * Runs `fn` with the local models' gateway (no upstream) over an in-memory store, and the usage
 * records it metered; closes both after.
 */
export async function withLocalGateway<T>(
  fn: (gateway: ModelGateway, usage: () => Promise<unknown[]>) => Promise<T>,
  now = new Date('2026-11-22T12:00:00Z'),
): Promise<T> {
  const store = await openStore({ dataDir: null });
  const gateway = createGateway({
    ctx: { db: store.db, now: () => now },
    directory: new ModelDirectory(loadCatalog(), store.db),
    upstreams: {},
  });
  try {
    return await fn(gateway, () => store.db.selectFrom('usage_records').selectAll().execute());
  } finally {
    await gateway.close();
    await store.close();
  }
}

/** A landing page written by the local models over an in-memory store, as a task writes one. */
export function localLandingPage(
  query: string,
  passages: PagePassage[],
  now = new Date('2026-11-28T12:00:00Z'),
): Promise<LandingPage> {
  return withLocalGateway(
    (gateway) =>
      generateLandingPage({
        query,
        passages,
        livedocId: 'ld_sample',
        gateway,
        scope: { apiKeyId: null, userId: 'usr_1', operation: 'landing_page' },
        now,
      }),
    now,
  );
}
