import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Agent, EventSource, type Dispatcher } from 'undici';
import { BIN, startPlatform, type Platform } from '../helpers/platform.js';
import { cuttingProxy } from '../helpers/cutting-proxy.js';

let p: Platform;
let ld: string;

const json = (r: { stdout: string; stderr: string; exitCode: number }) => {
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

const auth = () => ({ Authorization: `Bearer ${p.boot.api_key}` });
const post = (pathname: string, body: unknown) =>
  p.fetch(pathname, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Reads a stream with eventsource-parser (an SSE parser from npm, not ours), stopping after `limit` events or at the end. */
async function readWithLibrary(
  url: string,
  limit = Infinity,
): Promise<{ events: EventSourceMessage[]; comments: string[] }> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { ...auth(), accept: 'text/event-stream' }, signal: controller.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e), onComment: (c) => comments.push(c) });
  const decoder = new TextDecoder();
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
    const last = events[events.length - 1];
    if (events.length >= limit || last?.event === 'done' || last?.event === 'error') break;
  }
  controller.abort();
  return { events: events.slice(0, limit), comments };
}

const answerOf = (events: EventSourceMessage[]) =>
  events
    .filter((e) => e.event === 'message')
    .map((e) => JSON.parse(e.data).content as string)
    .join('');

beforeAll(async () => {
  p = await startPlatform({ args: ['--answer-chunk-delay', '25', '--stream-heartbeat', '1'] });
  ld = json(await p.cli(['livedocs', 'create', 'Atlas', '--json'])).short_id;
  for (const [title, content] of [
    [
      'Freedonia',
      'Freedonia is a small republic on the coast. The capital of Freedonia is Fredville, a river port founded in 1822. The population of Freedonia is 2 million people.',
    ],
    [
      'Sylvania',
      'Sylvania is a mountain kingdom. The capital of Sylvania is Sylvan Heights. The population of Sylvania is 9 million people.',
    ],
  ]) {
    json(await p.cli(['livedocs', 'resources', 'add-doc', ld, '--title', title, '--content', content, '--json']));
  }
});
afterAll(() => p?.cleanup());

describe('conversations through the CLI', () => {
  it('ask streams a cited answer; a follow-up uses the thread; detail has the first query as title', async () => {
    const first = json(
      await p.cli(['conversations', 'start', 'What is the capital of Freedonia?', '--livedoc', ld, '--json']),
    );
    expect(first.live_doc_short_id).toBe(ld);
    expect(first.answer).toMatch(/Fredville.*\[1\]/);
    expect(first.answer).toMatch(/Sources:\n\[1\] Freedonia/);

    const follow = json(
      await p.cli(['conversations', 'follow-up', first.thread_short_id, 'And its population?', '--json']),
    );
    expect(follow.thread_short_id).toBe(first.thread_short_id);
    expect(follow.stream_key).not.toBe(first.stream_key);
    // "its" means Freedonia only through the thread: its source ranks first and its figure leads.
    expect(follow.answer).toMatch(/Sources:\n\[1\] Freedonia/);
    expect(follow.answer).toContain('2 million');
    const nine = follow.answer.indexOf('9 million');
    expect(nine === -1 || follow.answer.indexOf('2 million') < nine).toBe(true);

    const detail = json(await p.cli(['conversations', 'get', first.thread_short_id, '--json']));
    expect(detail).toMatchObject({
      thread_short_id: first.thread_short_id,
      title: 'What is the capital of Freedonia?',
      live_doc_short_id: ld,
    });
    expect(detail.updated_at >= detail.created_at).toBe(true);
    // the turns, oldest first, each with its answer
    expect(detail.turns.map((t: { query: string }) => t.query)).toEqual([
      'What is the capital of Freedonia?',
      'And its population?',
    ]);
    expect(detail.turns[0].answer).toContain('Fredville');
    expect(detail.turns[1].answer).toContain('2 million');
    const shown = await p.cli(['conversations', 'get', first.thread_short_id]);
    expect(shown.stdout).toMatch(/> What is the capital of Freedonia\?[^\n]*\n.*Fredville/);

    const ask = await p.cli(['ask', 'Where is Sylvan Heights?', '--livedoc', ld]);
    expect(ask.exitCode, ask.stderr).toBe(0);
    expect(ask.stdout).toMatch(/capital of Sylvania is Sylvan Heights\. \[1\]/);

    // conversations list: the caller's threads, most recently updated first, with their turn counts
    const listed = json(await p.cli(['conversations', 'list', '--livedoc', ld, '--json']));
    expect(listed.total).toBe(2);
    expect(listed.items.map((t: { title: string; turn_count: number }) => [t.title, t.turn_count])).toEqual([
      ['Where is Sylvan Heights?', 1],
      ['What is the capital of Freedonia?', 2],
    ]);
    const piped = await p.cli(['conversations', 'list']);
    expect(piped.stdout.trim().split('\n')[1]).toMatch(
      new RegExp(`^${first.thread_short_id}\tWhat is the capital of Freedonia\\?\t2\t${ld}\t`),
    );

    // every answer was generated through the metered writer
    const usage = json(await p.cli(['admin', 'usage', '--json']));
    const local = usage.keys[0].models.find((m: { model: string }) => m.model === 'facet-grounded');
    expect(local.calls).toBe(3);
    expect(local.output_tokens).toBeGreaterThan(0);
  });

  // The answer cited only the second source found, as [2], under "Sources:\n[2] beta".
  it('an answer numbers its sources from [1], whichever of those found it cites', async () => {
    const two = json(await p.cli(['livedocs', 'create', 'Packages', '--json'])).short_id;
    for (const [title, content] of [
      [
        'alpha',
        '# alpha\n\n## Install\n\nInstall alpha with npm, then install its peers:\n\n```\nnpm install alpha\n```\n',
      ],
      ['beta', '# beta\n\nA tiny parser.\n\n## Usage\n\n```\nnpm i beta\n```\n'],
    ])
      json(await p.cli(['livedocs', 'resources', 'add-doc', two, '--title', title, '--content', content, '--json']));
    const r = await p.cli(['ask', 'How do I install beta?', '--livedoc', two]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('npm i beta');
    expect(r.stdout).toMatch(/\[1\]\n\nSources:\n\[1\] beta\n?$/);
    expect(r.stdout).not.toContain('[2]');
  });

  it('selected resources limit what the answer draws on', async () => {
    const resources = json(await p.cli(['livedocs', 'resources', 'list', ld, '--json'])).items as Array<{
      id: string;
      title: string;
    }>;
    const sylvania = resources.find((r) => r.title === 'Sylvania')!.id;
    const r = json(
      await p.cli([
        'conversations',
        'start',
        'What is the population?',
        '--livedoc',
        ld,
        '--resource',
        sylvania,
        '--json',
      ]),
    );
    expect(r.answer).toContain('9 million');
    expect(r.answer).not.toContain('2 million');
    expect(r.answer).toMatch(/Sources:\n\[1\] Sylvania$/);
    const bad = await p.cli(['conversations', 'start', 'x', '--livedoc', ld, '--resource', 'res_nope']);
    expect(bad.exitCode).toBe(4);
    expect(bad.stderr).toMatch(/RESOURCE_NOT_FOUND/);
  });

  it('a conversation without a LiveDoc creates one; bad ids and query bounds are refused', async () => {
    const started = await (await post('/v2/conversations', { query: 'Tell me about Fredville' })).json();
    expect(started.status).toBe('ok');
    expect(started.data.live_doc_short_id).not.toBe(ld);
    const created = json(await p.cli(['livedocs', 'get', started.data.live_doc_short_id, '--json']));
    expect(created.name).toBe('Tell me about Fredville');

    expect((await post('/v2/conversations', { query: 'x', live_doc_short_id: 'ld_nope' })).status).toBe(404);
    expect(await (await post('/v2/conversations', { query: 'x', live_doc_short_id: 'ld_nope' })).json()).toMatchObject({
      code: 'LIVEDOC_NOT_FOUND',
    });
    expect((await post('/v2/conversations', { query: 'q'.repeat(2000), live_doc_short_id: ld })).status).toBe(200);
    expect(
      await (await post('/v2/conversations', { query: 'q'.repeat(2001), live_doc_short_id: ld })).json(),
    ).toMatchObject({ code: 'QUERY_TOO_LONG' });
    expect(await (await post('/v2/conversations', { query: '', live_doc_short_id: ld })).json()).toMatchObject({
      code: 'INVALID_PARAMETER',
    });
    expect(await (await post('/v2/conversations', { live_doc_short_id: ld })).json()).toMatchObject({
      code: 'MISSING_PARAMETER',
    });
    const thread = started.data.thread_short_id;
    expect((await post(`/v2/conversations/${thread}/follow_up`, { query: 'f'.repeat(2000) })).status).toBe(200);
    expect(
      await (await post(`/v2/conversations/${thread}/follow_up`, { query: 'f'.repeat(2001) })).json(),
    ).toMatchObject({ code: 'QUERY_TOO_LONG' });
    expect((await post('/v2/conversations/thr_nope/follow_up', { query: 'x' })).status).toBe(404);
    const unknown = await p.fetch('/v2/conversations/stream/stk_nope', { headers: auth() });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ status: 'error', code: 'STREAM_NOT_FOUND' });
  });

  it('an independent SSE client library reads the stream; offset replays exactly the rest', async () => {
    const started = (
      await (
        await post('/v2/conversations', { query: 'What is the population of Sylvania?', live_doc_short_id: ld })
      ).json()
    ).data;
    const url = `${p.url}/v2/conversations/stream/${started.stream_key}`;
    const full = await readWithLibrary(url);
    expect(full.events[full.events.length - 1]).toMatchObject({ event: 'done', data: '{}' });
    expect(
      full.events.slice(0, -1).every((e) => e.event === 'message' && typeof JSON.parse(e.data).content === 'string'),
    ).toBe(true);
    expect(full.events.map((e) => e.id)).toEqual(full.events.map((_, i) => String(i + 1)));
    const answer = answerOf(full.events);
    expect(answer).toMatch(/9 million/);

    // A client that read 5 events, dropped, and came back with offset=5 gets the rest exactly once.
    const firstPart = await readWithLibrary(`${url}?offset=0`, 5);
    const rest = await readWithLibrary(`${url}?offset=5`);
    expect(answerOf([...firstPart.events, ...rest.events])).toBe(answer);
    expect(rest.events.length).toBe(full.events.length - 5);
  });

  it('the CLI resumes a stream cut mid-answer with nothing lost or doubled', async () => {
    const started = (
      await (
        await post('/v2/conversations', {
          query: 'What is the capital of Freedonia and when was it founded?',
          live_doc_short_id: ld,
        })
      ).json()
    ).data;
    const proxy = await cuttingProxy(p.url, { cuts: 2, afterBytes: 700 });
    try {
      const viaProxy = json(
        await p.cli(['conversations', 'stream', started.stream_key, '--json', '--base-url', proxy.url]),
      );
      const direct = json(await p.cli(['conversations', 'stream', started.stream_key, '--json']));
      expect(direct.answer).toMatch(/1822/);
      expect(viaProxy.answer).toBe(direct.answer);
      expect(viaProxy.offset).toBe(direct.offset);
      expect(proxy.streamRequests.length).toBe(3);
      expect(proxy.streamRequests[0]).toMatch(/offset=0 /);
      const resumedAt = proxy.streamRequests.slice(1).map((l) => Number(/offset=(\d+)/.exec(l)![1]));
      expect(resumedAt[0]).toBeGreaterThan(0);
      expect(resumedAt[1]).toBeGreaterThan(resumedAt[0]);
    } finally {
      await proxy.close();
    }
  });

  it('Ctrl-C while streaming ends with exit 130 and a resume hint', async () => {
    // A slow writer of its own: on a loaded machine the CLI can take seconds to start, and an answer
    // paced at 25 ms a chunk would be complete (exit 0) before the interrupt lands.
    const slow = await startPlatform({ args: ['--answer-chunk-delay', '400'] });
    try {
      const doc = (await slow.cli(['livedocs', 'create', 'Slow', '--json'])).stdout;
      const slowLd = JSON.parse(doc).short_id;
      await slow.cli([
        'livedocs',
        'resources',
        'add-doc',
        slowLd,
        '--title',
        'Freedonia',
        '--content',
        'Freedonia is a small republic on the coast. The capital of Freedonia is Fredville, a river port founded in 1822. The population of Freedonia is 2 million people.',
      ]);
      const res = await slow.fetch('/v2/conversations', {
        method: 'POST',
        headers: { Authorization: `Bearer ${slow.boot.api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'Describe Freedonia, its capital and population', live_doc_short_id: slowLd }),
      });
      const started = (await res.json()).data;
      const proc = execa('node', [BIN, 'conversations', 'stream', started.stream_key], {
        env: { FACET_CONFIG_DIR: slow.configDir, NO_COLOR: '1', CI: 'true' },
        reject: false,
        timeout: 30_000,
      });
      await new Promise<void>((resolve) => proc.stdout!.once('data', () => resolve()));
      proc.kill('SIGINT');
      const r = await proc;
      expect(r.exitCode).toBe(130);
      expect(String(r.stderr)).toMatch(/resume with: facet conversations stream stk_\w+ --offset \d+/);
    } finally {
      slow.cleanup();
    }
  });

  it('the event log survives a restart: a replay after it is identical', async () => {
    const started = (
      await (await post('/v2/conversations', { query: 'capital of Sylvania', live_doc_short_id: ld })).json()
    ).data;
    const first = await readWithLibrary(`${p.url}/v2/conversations/stream/${started.stream_key}`);
    p = await p.restart();
    const replay = await readWithLibrary(`${p.url}/v2/conversations/stream/${started.stream_key}`);
    expect(replay.events).toEqual(first.events);
  });
});

/** Reads a response to its very end (the server closing it), failing if that takes longer than `ms`. */
async function readToEnd(url: string, headers: Record<string, string>, ms = 8000): Promise<EventSourceMessage[]> {
  const res = await fetch(url, {
    headers: { ...auth(), accept: 'text/event-stream', ...headers },
    signal: AbortSignal.timeout(ms),
  });
  expect(res.status).toBe(200);
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  return events;
}

describe('a stream that has ended always ends', () => {
  let key: string;
  let count: number;
  beforeAll(async () => {
    key = (
      await (
        await post('/v2/conversations', { query: 'What is the capital of Sylvania?', live_doc_short_id: ld })
      ).json()
    ).data.stream_key;
    count = (await readToEnd(`${p.url}/v2/conversations/stream/${key}`, {})).length;
    expect(count).toBeGreaterThan(2);
  });

  it('an EventSource (undici) reconnecting after done gets done again at once, not heartbeats', async () => {
    // EventSource sends no custom headers; a dispatcher adds the bearer key to each of its requests.
    const withKey = new Agent().compose(
      (dispatch) => (opts, handler) =>
        dispatch(
          {
            ...opts,
            headers: { ...(opts.headers as Record<string, string>), authorization: `Bearer ${p.boot.api_key}` },
          },
          handler,
        ),
    );
    const es = new EventSource(`${p.url}/v2/conversations/stream/${key}`, { dispatcher: withKey as Dispatcher });
    const seen: Array<{ type: string; id: string }> = [];
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no second done within 12 s; saw ${JSON.stringify(seen)}`)),
          12_000,
        );
        const on = (type: string) => (e: Event) => {
          seen.push({ type, id: (e as Event & { lastEventId: string }).lastEventId });
          if (seen.filter((x) => x.type === 'done').length === 2) {
            clearTimeout(timer);
            resolve();
          }
        };
        es.addEventListener('message', on('message'));
        es.addEventListener('done', on('done'));
      });
    } finally {
      es.close();
      await withKey.close();
    }
    // The first connection replayed the whole answer; the reconnect (Last-Event-ID = the done's id) got only done.
    expect(seen.filter((x) => x.type === 'message').length).toBe(count - 1);
    expect(seen.slice(count - 1)).toEqual([
      { type: 'done', id: String(count) },
      { type: 'done', id: String(count) },
    ]);
  });

  it('an offset or Last-Event-ID at or past the end gets the terminal event and the end of the response', async () => {
    const url = `${p.url}/v2/conversations/stream/${key}`;
    for (const [query, headers] of [
      [`?offset=${count}`, {}],
      [`?offset=${count + 500}`, {}],
      ['', { 'last-event-id': String(count) }],
      ['?offset=0', { 'last-event-id': String(count + 1) }],
    ] as const) {
      const events = await readToEnd(url + query, headers);
      expect(events, `${query} ${JSON.stringify(headers)}`).toEqual([
        expect.objectContaining({ event: 'done', id: String(count), data: '{}' }),
      ]);
    }
    // one before the end: the last event, once
    expect((await readToEnd(`${url}?offset=${count - 1}`, {})).map((e) => e.event)).toEqual(['done']);
  });

  it('a reader waiting past the end of a stream still being written ends with it', async () => {
    const live = (
      await (
        await post('/v2/conversations', { query: 'Describe Freedonia and its capital', live_doc_short_id: ld })
      ).json()
    ).data.stream_key;
    const events = await readToEnd(`${p.url}/v2/conversations/stream/${live}?offset=100000`, {}, 15_000);
    expect(events.map((e) => e.event)).toEqual(['done']);
  });

  it('an offset or Last-Event-ID that is not a non-negative decimal integer is a 400 in the v2 envelope', async () => {
    const url = `/v2/conversations/stream/${key}`;
    const cases: Array<[string, Record<string, string>]> = [
      ['?offset=', {}],
      ['?offset=abc', {}],
      ['?offset=-1', {}],
      ['?offset=1.5', {}],
      ['?offset=0x10', {}],
      ['?offset=%2B5', {}],
      ['?offset=%205%20', {}],
      ['?offset=1e1', {}],
      ['', { 'last-event-id': 'x' }],
      ['', { 'last-event-id': '-1' }],
      ['', { 'last-event-id': '0x10' }],
    ];
    for (const [query, headers] of cases) {
      const res = await p.fetch(url + query, { headers: { ...auth(), ...headers }, signal: AbortSignal.timeout(5000) });
      expect(res.status, `${query} ${JSON.stringify(headers)}`).toBe(400);
      expect(await res.json()).toMatchObject({
        status: 'error',
        code: 'INVALID_PARAMETER',
        request_id: expect.any(String),
      });
    }
  });

  it('facet conversations stream --offset at or past the end exits at once', async () => {
    for (const offset of [count, count + 40]) {
      const started = Date.now();
      const r = await p.cli(['conversations', 'stream', key, '--offset', String(offset), '--json'], {
        timeout: 15_000,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ stream_key: key, answer: '', offset: count });
      expect(Date.now() - started).toBeLessThan(12_000);
    }
  });
});

describe('stream expiry and heartbeats', () => {
  let q: Platform;
  beforeAll(async () => {
    q = await startPlatform({ args: ['--stream-ttl', '3', '--stream-heartbeat', '1', '--answer-chunk-delay', '300'] });
  });
  afterAll(() => q?.cleanup());

  it('sends heartbeat comments while idle, and a key answers 410 after its window', async () => {
    const h = { Authorization: `Bearer ${q.boot.api_key}` };
    const started = await (
      await q.fetch('/v2/conversations', {
        method: 'POST',
        headers: { ...h, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'anything at all here' }),
      })
    ).json();
    const key = started.data.stream_key;
    const res = await q.fetch(`/v2/conversations/stream/${key}`, { headers: h });
    const reader = res.body!.getReader();
    let text = '';
    const deadline = Date.now() + 10_000;
    while (!/: heartbeat\n\n/.test(text) && Date.now() < deadline) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    expect(text).toMatch(/: heartbeat\n\n/);
    await new Promise((r) => setTimeout(r, 3500));
    const expired = await q.fetch(`/v2/conversations/stream/${key}`, { headers: h });
    expect(expired.status).toBe(410);
    expect(await expired.json()).toMatchObject({ status: 'error', code: 'STREAM_EXPIRED' });
    const cli = await q.cli(['conversations', 'stream', key]);
    expect(cli.exitCode).toBe(4);
    expect(cli.stderr).toMatch(/STREAM_EXPIRED/);
  });
});
