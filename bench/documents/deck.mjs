// bench/documents/deck: one deck of about 10 slides from a LiveDoc of BENCH_RESOURCES (50)
// resources, through the whole slide task (POST /v2/ppts -> queue -> retrieve -> outline through
// the gateway -> layout and writing in the worker pool -> stored as a resource), then the previews
// LibreOffice draws after the task, in a job of their own. Prints the task's total time and the
// share of each step (from the task's own timings), the queue's and HTTP's overhead as the rest, and
// how much later the previews were drawn. Needs `npm run build`.
//
//   node bench/documents/run.mjs            # deck (and mindmap, when bench/documents/mindmap.mjs exists)
//   BENCH_RESOURCES=200 BENCH_DECKS=3 node bench/documents/deck.mjs
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { startServer } from '../../dist/server.js';

const RESOURCES = Number(process.env.BENCH_RESOURCES ?? 50);
const DECKS = Number(process.env.BENCH_DECKS ?? 1);
const TOPICS = [
  'solar',
  'wind',
  'storage',
  'grid',
  'hydrogen',
  'nuclear',
  'efficiency',
  'transport',
  'heating',
  'policy',
];

function doc(i) {
  const topic = TOPICS[i % TOPICS.length];
  const paragraphs = Array.from(
    { length: 6 },
    (_, p) =>
      `The ${topic} programme of region ${i} grew in year ${2018 + p}. Investment in ${topic} reached ${(i + 1) * (p + 2)} million euros, and ${p + 3} new projects started. Local councils report that ${topic} work created ${(i + 3) * (p + 1) * 10} jobs and lowered energy bills for ${p + 1}0 thousand homes.`,
  );
  const table =
    i % 10 === 0
      ? `\n\n## ${topic} capacity\n\n| Year | Capacity (GW) | Projects |\n|---|---|---|\n${[2019, 2020, 2021, 2022, 2023].map((y, k) => `| ${y} | ${(i / 10 + k * 1.7 + 3).toFixed(1)} | ${k * 4 + 10} |`).join('\n')}`
      : '';
  return {
    title: `${topic[0].toUpperCase()}${topic.slice(1)} in region ${i}`,
    content: `# ${topic} in region ${i}\n\n${paragraphs.join('\n\n')}${table}`,
  };
}

export async function run() {
  const server = await startServer({ memory: true, port: 0, logLevel: 'silent', workers: 2 });
  const key = server.bootstrap.data.api_key;
  const call = async (method, path, body) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  try {
    const ld = (await call('POST', '/v2/livedocs', { name: 'Energy transition' })).short_id;
    const l0 = performance.now();
    for (let i = 0; i < RESOURCES; i++) await call('POST', `/v2/livedocs/${ld}/resources/doc`, doc(i));
    console.log(`LiveDoc of ${RESOURCES} resources made in ${(performance.now() - l0).toFixed(0)} ms`);
    const rows = [];
    for (let d = 0; d < DECKS; d++) {
      const t0 = performance.now();
      // 7 content slides + title + takeaways + the charts of the tables: about 10 slides.
      const created = await call('POST', '/v2/ppts', {
        query: 'How are solar, storage and the grid changing the energy transition?',
        livedoc_short_id: ld,
        ppt_config: { slide_count: 7 },
      });
      let status = 'RUNNING';
      while (status === 'RUNNING') {
        await new Promise((r) => setTimeout(r, 50));
        status = (await call('GET', `/v2/tasks/${created.task_id}/status`)).status;
      }
      const total = performance.now() - t0;
      if (status !== 'COMPLETED')
        throw new Error(
          `the deck task ended ${status}: ${JSON.stringify(await call('GET', `/v2/tasks/${created.task_id}/historical`))}`,
        );
      const row = await server.ctx.db
        .selectFrom('doc_tasks')
        .select('result')
        .where('id', '=', created.task_id)
        .executeTakeFirst();
      const result = JSON.parse(row.result);
      // The previews come after the task (a job of their own): how much later they are there.
      const bizId = (await call('GET', `/v2/tasks/${created.task_id}/historical`)).ppt_biz_id;
      let deck;
      for (;;) {
        deck = await server.ctx.db.selectFrom('slide_decks').selectAll().where('biz_id', '=', bizId).executeTakeFirst();
        if (deck.previews_state !== 'drawing') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const previewsAfter = performance.now() - t0 - total;
      rows.push({ total, ...result.timings_ms, slides: result.slide_count, previews: deck.previews, previewsAfter });
    }
    for (const r of rows) {
      const steps = ['retrieve', 'outline', 'layout', 'write', 'store'];
      const known = steps.reduce((n, s) => n + r[s], 0);
      console.log(
        `deck: ${r.slides} slides in ${r.total.toFixed(0)} ms; ${r.previews} previews drawn ${r.previewsAfter.toFixed(0)} ms after`,
      );
      for (const s of steps)
        console.log(
          `  ${s.padEnd(9)} ${String(r[s]).padStart(6)} ms  ${((100 * r[s]) / r.total).toFixed(1).padStart(5)} %`,
        );
      console.log(
        `  ${'queue+http'.padEnd(9)} ${String(Math.round(r.total - known)).padStart(6)} ms  ${((100 * (r.total - known)) / r.total).toFixed(1).padStart(5)} %  (ratio total / engine steps: ${(r.total / known).toFixed(2)}×)`,
      );
    }
    return rows;
  } finally {
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
