// Landing-page generation time, end to end through `facet serve`: a LiveDoc of BENCH_DOCS Markdown
// documents (headings, figures, a table), then BENCH_PAGES pages one after another, each timed from
// POST /v2/landing_page to COMPLETED (status polled every 20 ms), and the page's size. Baseline in
// the same run: `retrieve` for the same query, the part of the work every page starts with.
//
//   npm run build && node bench/documents/landing-page.mjs
//   BENCH_DOCS=50 BENCH_PAGES=20 node bench/documents/landing-page.mjs
import { pathToFileURL } from 'node:url';
import { rng, startPlatform } from '../lib/platform.mjs';
import { fmt, median, percentile } from '../lib/stats.mjs';

const TOPICS = [
  'solar panels',
  'home batteries',
  'heat pumps',
  'insulation',
  'electric cars',
  'smart meters',
  'wind turbines',
  'water heaters',
];

function documentText(i, random) {
  const topic = TOPICS[i % TOPICS.length];
  const n = (a, b) => Math.round(a + random() * (b - a));
  return `# ${topic[0].toUpperCase()}${topic.slice(1)} report ${i}

## Costs

A typical ${topic} project costs $${n(2, 30)},${n(100, 999)} before incentives. Prices fell ${n(5, 45)}% over five years, and most owners recover the cost in ${n(4, 8)} to ${n(9, 14)} years.

## How it works

${topic[0].toUpperCase()}${topic.slice(1)} cut energy bills by turning outside energy into heat or power at home. Installers size each system to the household's use and the local climate.

## Adoption

| Year | Homes | Share |
|---|---|---|
| 2022 | ${n(1, 3)}.${n(0, 9)} million | ${n(5, 9)}% |
| 2023 | ${n(3, 5)}.${n(0, 9)} million | ${n(10, 15)}% |

## Is it worth it?

For most homes it is, when the roof, the wiring and the budget allow it; a survey first avoids surprises.
`;
}

export async function run({
  docs = Number(process.env.BENCH_DOCS ?? 50),
  pages = Number(process.env.BENCH_PAGES ?? 20),
  log = console.log,
} = {}) {
  const random = rng(7);
  const p = await startPlatform();
  const api = async (method, pathname, body) => {
    const r = await fetch(p.url + pathname, {
      method,
      headers: { Authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${pathname}: HTTP ${r.status} ${await r.text()}`);
    return (await r.json()).data;
  };
  try {
    const ld = (await api('POST', '/v2/livedocs', { name: 'bench pages' })).short_id;
    for (let i = 0; i < docs; i++)
      await api('POST', `/v2/livedocs/${ld}/resources/doc`, { title: `Report ${i}`, content: documentText(i, random) });
    const query = (i) => `Make a landing page about ${TOPICS[i % TOPICS.length]}: costs and savings`;
    const retrieveMs = [];
    for (let i = 0; i < pages; i++) {
      const t = performance.now();
      await api('POST', `/v2/livedocs/${ld}/resources/retrieve`, { query: query(i), top_k: 16 });
      retrieveMs.push(performance.now() - t);
    }
    const pageMs = [];
    const bytes = [];
    for (let i = 0; i < pages; i++) {
      const t = performance.now();
      const { task_id } = await api('POST', '/v2/landing_page', { query: query(i), livedoc_short_id: ld });
      for (;;) {
        const { status } = await api('GET', `/v2/tasks/${task_id}/status`);
        if (status === 'COMPLETED') break;
        if (status !== 'RUNNING') throw new Error(`task ${task_id} ended ${status}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      pageMs.push(performance.now() - t);
      const record = await api('GET', `/v2/tasks/${task_id}/historical`);
      bytes.push((await (await fetch(record.ai_page_html)).text()).length);
    }
    const result = {
      docs,
      pages,
      page_ms_median: median(pageMs),
      page_ms_p95: percentile(pageMs, 95),
      retrieve_ms_median: median(retrieveMs),
      page_bytes_median: median(bytes),
    };
    log(`LiveDoc of ${docs} documents; ${pages} pages, one after another`);
    log(
      `  page (create → COMPLETED): median ${fmt(result.page_ms_median)} ms, p95 ${fmt(result.page_ms_p95)} ms, ${Math.round(result.page_bytes_median / 1024)} KiB of HTML`,
    );
    log(
      `  baseline retrieve (same query, 16 passages): median ${fmt(result.retrieve_ms_median)} ms — a page costs ${fmt(result.page_ms_median / result.retrieve_ms_median, 0)}× a retrieve`,
    );
    return result;
  } finally {
    await p.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
