// The clients of bench/event-loop, in their own process so their work never shows in the server's
// event-loop figures. BENCH_MIX=idle only polls /healthz; heavy also sends the expensive requests,
// in rounds, until BENCH_SECONDS have passed. Prints one JSON report on stdout.
//
// Two more clients (issue 31): `hostile` sends, with the first key, the heaviest inputs a caller can
// (nested and unclosed HTML, a flat 15 MB page, zip bombs, a 100,000-page PDF, a Flate bomb, nested
// queries and filters, a huge `in` list), each answered with a refusal or processed within bounds;
// `fair` is a second key's light work (token counts, mindmaps, a small image), timed, which must not
// wait behind the first key's heavy work.
import { setTimeout as sleep } from 'node:timers/promises';
import { rng } from '../lib/platform.mjs';
import {
  docxBomb,
  flatPage,
  flateBombPdf,
  manyPagePdf,
  nestedDivs,
  themeBomb,
  unclosedInline,
} from '../lib/hostile-inputs.mjs';

const url = process.env.BENCH_URL;
const key = process.env.BENCH_KEY;
const heavy = process.env.BENCH_MIX === 'heavy';
const until = Date.now() + Number(process.env.BENCH_SECONDS) * 1000;
const images = Number(process.env.BENCH_IMAGES);

const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const post = async (pathname, body) => {
  const r = await fetch(url + pathname, { method: 'POST', headers, body: JSON.stringify(body) });
  await r.arrayBuffer();
  return r.status;
};

// Every request is new text (seeded, so runs compare): nothing the server could have cached.
const random = rng(8);
const run = (n, from, span) =>
  Array.from({ length: n }, () => String.fromCodePoint(from + Math.floor(random() * span))).join('');
const cjk = () => run(2000, 0x4e00, 0x5000); // 2,000 CJK characters: one pre-tokenized piece
const emoji = () => run(2000, 0x1f300, 0x250); // 2,000 emoji
const big = () => run(68_000, 0x4e00, 0x5000); // 200 KB of UTF-8, one piece
let requests = 0;
let failed = 0;
const kinds = {};

async function client(name, send) {
  while (Date.now() < until) {
    const status = await send().catch(() => 0);
    requests++;
    kinds[name] = (kinds[name] ?? 0) + 1;
    if (status !== 200) failed++;
  }
}

/** The hostile inputs, made once: the client's own CPU must not pace it. */
async function hostileRequests() {
  // The big bombs take a while to build: only those BENCH_HOSTILE picks (all, without it).
  const picked = (process.env.BENCH_HOSTILE || '').split(',').filter(Boolean);
  const wanted = (name) => picked.length === 0 || picked.includes(name);
  const auth = { authorization: `Bearer ${key}` };
  const ld = (
    await (
      await fetch(`${url}/v2/livedocs`, { method: 'POST', headers, body: JSON.stringify({ name: 'hostile' }) })
    ).json()
  ).data.short_id;
  const upload = (name, type, data) => async () => {
    const form = new FormData();
    form.append('file', new Blob([data], { type }), name);
    const r = await fetch(`${url}/v2/livedocs/${ld}/resources/upload-doc`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    await r.arrayBuffer();
    return r.status;
  };
  const theme = (data) => async () => {
    const form = new FormData();
    form.append('file', new Blob([data]), 'bomb.potx');
    const r = await fetch(`${url}/v2/ppt-themes/import`, { method: 'POST', headers: auth, body: form });
    await r.arrayBuffer();
    return r.status;
  };
  const backlinks = (body) => async () => {
    const r = await fetch(`${url}/v1/beta/seo/backlinks/backlinks/live`, { method: 'POST', headers, body });
    await r.arrayBuffer();
    return r.status;
  };
  const deep = (n) => `[{"target":"example.com","filters":${'['.repeat(n)}${']'.repeat(n)}}]`;
  // Issue 46: a response format with a 20,000-value enum (seconds of CPU to check, before).
  const enumSchema = () =>
    post('/api/v1/chat/completions', {
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'pick one' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'pick',
          schema: {
            type: 'object',
            properties: { v: { enum: Array.from({ length: 20_000 }, (_, i) => `value-${i}`) } },
            required: ['v'],
          },
        },
      },
    });
  return {
    // Issue 46: Markdown of one nested list and of nested quotes (a minute of CPU each, before).
    'md-nested-list-20kb': upload('nested.md', 'text/markdown', `${'- '.repeat(10_000)}x\n`),
    'md-quotes-10kb': upload('quotes.md', 'text/markdown', `${'>'.repeat(10_000)} x\n`),
    'enum-20000': enumSchema,
    'html-nested-5000': upload('nested.html', 'text/html', nestedDivs(5000)),
    'html-unclosed-1000': upload('unclosed.html', 'text/html', unclosedInline(1000)),
    'html-flat-15mb': upload('flat.html', 'text/html', flatPage(15 * 1024 * 1024)),
    'docx-bomb-200mb': upload(
      'bomb.docx',
      'application/octet-stream',
      wanted('docx-bomb-200mb') && (await docxBomb(200 * 1024 * 1024)),
    ),
    'theme-bomb-300mb': theme(wanted('theme-bomb-300mb') && (await themeBomb(300 * 1024 * 1024))),
    'pdf-100k-pages': upload('pages.pdf', 'application/pdf', wanted('pdf-100k-pages') && manyPagePdf(100_000)),
    'pdf-flate-300mb': upload(
      'flate.pdf',
      'application/pdf',
      wanted('pdf-flate-300mb') && flateBombPdf(300 * 1024 * 1024),
    ),
    'query-490-parens': () =>
      post('/v2/social/tweet/search', { query: `${'('.repeat(490)}a${')'.repeat(490)}`, limit: 5 }),
    'query-or-60-deep': () =>
      post('/v2/social/tweet/search', { query: '(a OR '.repeat(60) + 'b' + ')'.repeat(60), limit: 5 }),
    'filter-5000-deep': backlinks(deep(5000)),
    'filter-in-500k': backlinks(
      JSON.stringify([
        { target: 'example.com', filters: ['anchor', 'in', Array.from({ length: 500_000 }, (_, i) => `v${i}`)] },
      ]),
    ),
  };
}

/** The issue-38 inputs: schemas that froze the server, and a body of 700,000 keys. */
export function schemaInputs() {
  const format = (schema) => () =>
    post('/api/v1/chat/completions', {
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'record it' }],
      response_format: { type: 'json_schema', json_schema: { name: 'a', schema } },
    });
  const keys = `{${Array.from({ length: 700_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
  return {
    'ref-self': format({ $ref: '#' }),
    'alias-cycle': format({ $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' }),
    'min-length-3e8': format({ type: 'string', minLength: 300_000_000 }),
    'min-length-1e9': format({ type: 'string', minLength: 1e9 }),
    'count-tokens-ref-self': () =>
      post('/api/v1/messages/count_tokens', {
        model: 'facet-agent',
        messages: [{ role: 'user', content: 'record it' }],
        tools: [{ name: 'record', input_schema: { $ref: '#' } }],
      }),
    'body-700k-keys': async () => {
      const r = await fetch(url + '/api/v1/chat/completions', { method: 'POST', headers, body: keys });
      await r.arrayBuffer();
      return r.status;
    },
  };
}

/** A second key's light requests, each timed: they must not wait behind the first key's heavy ones. */
const fairTimes = {};
async function fairClient(fairKey) {
  const h = { authorization: `Bearer ${fairKey}`, 'content-type': 'application/json' };
  const send = async (pathname, body) => {
    const r = await fetch(url + pathname, { method: 'POST', headers: h, body: JSON.stringify(body) });
    await r.arrayBuffer();
    return r.status;
  };
  // Issue 46: a 50-byte upload of the second key's own, which waited behind the first key's Markdown.
  const ld = (
    await (
      await fetch(`${url}/v2/livedocs`, { method: 'POST', headers: h, body: JSON.stringify({ name: 'fair' }) })
    ).json()
  ).data.short_id;
  const light = {
    'upload-50b': async () => {
      const form = new FormData();
      form.append(
        'file',
        new Blob([`# Note ${Math.floor(random() * 1e6)}\n\nA short note.\n`], { type: 'text/markdown' }),
        'note.md',
      );
      const r = await fetch(`${url}/v2/livedocs/${ld}/resources/upload-doc`, {
        method: 'POST',
        headers: { authorization: h.authorization },
        body: form,
      });
      await r.arrayBuffer();
      return r.status;
    },
    'count-tokens-40kb': () =>
      send('/api/v1/messages/count_tokens', {
        model: 'facet-echo',
        messages: [{ role: 'user', content: run(13_000, 0x4e00, 0x5000) }],
      }),
    mindmap: () => send('/v2/mindmap', { query: `harbour lights and ferries ${Math.floor(random() * 1e6)}` }),
    'image-256': () =>
      send('/api/v1/images/generations', {
        prompt: `a small lighthouse ${Math.floor(random() * 1e6)}`,
        size: '256x256',
        response_format: 'b64_json',
      }),
  };
  while (Date.now() < until) {
    for (const [name, call] of Object.entries(light)) {
      const t = performance.now();
      const status = await call().catch(() => 0);
      (fairTimes[name] ??= []).push(performance.now() - t);
      if (!(status >= 200 && status < 300)) fairTimes[`${name} failed`] = (fairTimes[`${name} failed`] ?? 0) + 1;
      await sleep(50);
    }
  }
}

const polls = [];
async function poller() {
  // One poll first, not counted: the probe's own cold start (its HTTP client loading, the first
  // connection) took 40-80 ms and, with some 80 polls a phase, was the p99 of an idle server.
  await (await fetch(`${url}/healthz`)).arrayBuffer();
  while (Date.now() < until) {
    const t = performance.now();
    const r = await fetch(`${url}/healthz`);
    await r.arrayBuffer();
    polls.push(performance.now() - t);
    await sleep(100);
  }
}

// BENCH_PARTS picks some of the heavy clients (comma-separated), to see which one costs what.
const parts = new Set((process.env.BENCH_PARTS || 'chat-cjk,chat-emoji,api-200kb,image-2048').split(','));
// BENCH_POLL=0: the clients alone; run.mjs polls from a process of its own, which their work never delays.
const work = process.env.BENCH_POLL === '0' ? [] : [poller()];
const hostileStatuses = {};
if (heavy && parts.has('hostile')) {
  // BENCH_HOSTILE picks some of them (comma-separated names), to see which one costs what.
  const picked = (process.env.BENCH_HOSTILE || '').split(',').filter(Boolean);
  const requests = Object.fromEntries(
    Object.entries(await hostileRequests()).filter(([name]) => picked.length === 0 || picked.includes(name)),
  );
  work.push(
    (async () => {
      while (Date.now() < until) {
        for (const [name, send] of Object.entries(requests)) {
          if (Date.now() >= until) break;
          const status = await send().catch((e) => `error ${e.message}`);
          (hostileStatuses[name] ??= new Set()).add(status);
        }
      }
    })(),
  );
}
if (heavy && parts.has('fair')) work.push(fairClient(process.env.BENCH_FAIR_KEY));
// Issue 38: one caller's schema or body input (BENCH_SCHEMA names it), sent back to back.
const schemaStatuses = {};
if (heavy && parts.has('schema')) {
  const name = process.env.BENCH_SCHEMA;
  const send = schemaInputs()[name];
  work.push(
    (async () => {
      while (Date.now() < until) {
        const status = await send().catch((e) => `error ${e.message}`);
        schemaStatuses[status] = (schemaStatuses[status] ?? 0) + 1;
        requests++;
      }
    })(),
  );
}
if (heavy) {
  if (parts.has('chat-cjk')) work.push(client('chat-cjk', () => post('/v2/chat', { query: cjk() })));
  if (parts.has('chat-emoji')) work.push(client('chat-emoji', () => post('/v2/chat', { query: emoji() })));
  if (parts.has('api-200kb'))
    work.push(
      client('api-200kb', () =>
        post('/api/v1/chat/completions', { model: 'facet-echo', messages: [{ role: 'user', content: big() }] }),
      ),
    );
  if (parts.has('image-2048')) {
    for (let i = 0; i < images; i++)
      work.push(
        client('image-2048', () =>
          post('/api/v1/images/generations', {
            prompt: `a lighthouse ${i}`,
            size: '2048x2048',
            response_format: 'b64_json',
          }),
        ),
      );
  }
}
await Promise.all(work);
const p99 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];
const fair = Object.fromEntries(
  Object.entries(fairTimes).map(([k, v]) => [
    k,
    Array.isArray(v) ? { n: v.length, p99: p99(v), max: Math.max(...v) } : v,
  ]),
);
const hostile = Object.fromEntries(Object.entries(hostileStatuses).map(([k, v]) => [k, [...v].join('/')]));
const clients = [...parts].map((p) => (p === 'image-2048' ? `${images}× image-2048` : p)).join(', ');
const detail = heavy
  ? `clients ${clients}; requests done: ${Object.entries(kinds)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`
  : '';
process.stdout.write(
  JSON.stringify({
    polls: polls.length,
    slowestPoll: polls.length ? Math.max(...polls) : 0,
    pollP99: polls.length ? p99(polls) : 0,
    requests,
    failed,
    detail,
    fair,
    hostile,
    schema: schemaStatuses,
  }),
);
