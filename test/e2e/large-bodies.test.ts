import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Item counts are bounded at the boundary: a model request of hundreds of thousands of messages or
 * blocks is refused at once in its family's shape, before the items are walked, and a beta request
 * cannot ask for an answer of tens of MB.
 */
let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  p.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': p.boot.api_key, ...headers },
    body: JSON.stringify(body),
  });
const messages = (n: number, content: unknown = 'hi') =>
  Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content }));

/** Runs `request` while polling /healthz; returns its response and the slowest health answer. */
async function whileHealthy(request: () => Promise<Response>): Promise<{ res: Response; slowestHealthMs: number }> {
  let done = false;
  let slowest = 0;
  const poll = (async () => {
    while (!done) {
      const t0 = Date.now();
      await p.fetch('/healthz');
      slowest = Math.max(slowest, Date.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const res = await request();
  done = true;
  await poll;
  return { res, slowestHealthMs: slowest };
}

describe('model requests: counts bounded before the items are looked at', () => {
  it('200k messages to count_tokens: 413 in the Anthropic shape before the body is parsed, /healthz answering meanwhile', async () => {
    const t0 = Date.now();
    const { res, slowestHealthMs } = await whileHealthy(() =>
      post('/api/v1/messages/count_tokens', { model: 'facet-echo', messages: messages(200_000) }),
    );
    // Issue 38: a body over 128 KiB holding more than 100,000 JSON values is not parsed at all.
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      type: 'error',
      error: { type: 'request_too_large', message: expect.stringMatching(/more than 100000 JSON values/) },
    });
    expect(Date.now() - t0).toBeLessThan(5000);
    // Parsing and counting 200k messages holds the loop for seconds; a poll well under that means the
    // body was refused unparsed, even beside the suite's heaviest files.
    expect(slowestHealthMs).toBeLessThan(2500);
    const past = await post('/api/v1/messages/count_tokens', { model: 'facet-echo', messages: messages(10_001) });
    expect(past.status).toBe(400);
    expect(await past.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/at most 10000 messages \(got 10001\)/) },
    });
  });

  it('at the bound a request is taken; one past it is not (Chat Completions, OpenAI shape)', async () => {
    const at = await post('/api/v1/messages/count_tokens', { model: 'facet-echo', messages: messages(10_000) });
    expect(at.status).toBe(200);
    const past = await post('/api/v1/chat/completions', { model: 'facet-echo', messages: messages(10_001) });
    expect(past.status).toBe(400);
    expect(await past.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringMatching(/10000 messages/), param: 'messages' },
    });
  });

  it('content blocks: per message and in all; tools; Responses input items', async () => {
    const block = { type: 'text', text: 'x' };
    const perMessage = await post('/api/v1/messages', {
      model: 'facet-echo',
      max_tokens: 10,
      messages: [{ role: 'user', content: Array(1001).fill(block) }],
    });
    expect(perMessage.status).toBe(400);
    expect((await perMessage.json()).error.message).toMatch(/1000 content blocks in one message/);
    const atPerMessage = await post('/api/v1/messages/count_tokens', {
      model: 'facet-echo',
      messages: [{ role: 'user', content: Array(1000).fill(block) }],
    });
    expect(atPerMessage.status).toBe(200);
    const inAll = await post('/api/v1/messages', {
      model: 'facet-echo',
      max_tokens: 10,
      messages: messages(21, Array(1000).fill(block)),
    });
    expect(inAll.status).toBe(400);
    expect((await inAll.json()).error.message).toMatch(/at most 20000 content blocks in all \(got 21000\)/);
    const tools = Array.from({ length: 1001 }, (_, i) => ({
      type: 'function',
      function: { name: `t${i}`, parameters: { type: 'object' } },
    }));
    const manyTools = await post('/api/v1/chat/completions', { model: 'facet-echo', messages: messages(1), tools });
    expect(manyTools.status).toBe(400);
    expect((await manyTools.json()).error.message).toMatch(/1000 tools/);
    const items = await post('/api/v1/responses', { model: 'facet-echo', input: messages(10_001) });
    expect(items.status).toBe(400);
    expect((await items.json()).error.message).toMatch(/10000 input items/);
  });
});

describe('beta answers are bounded', () => {
  it('100 backlinks tasks of 1000 rows: tasks run until 5000 rows are answered, the rest are refused task by task; the answer stays a few MB', async () => {
    const tasks = Array.from({ length: 100 }, () => ({ target: 'example.com', limit: 1000 }));
    const res = await p.fetch('/v1/beta/seo/backlinks/backlinks/live', {
      method: 'POST',
      headers: { authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify(tasks),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeLessThan(10 * 1024 * 1024);
    const body = JSON.parse(text);
    expect(body.tasks_count).toBe(100);
    const ran = body.tasks.filter((t: { status_code: number }) => t.status_code === 20000);
    const rows = ran.reduce((n: number, t: { result: Array<{ items: unknown[] }> }) => n + t.result[0].items.length, 0);
    // The task that crosses the bound keeps its rows: at least 5000, less than one task more.
    expect(rows).toBeGreaterThanOrEqual(5000);
    expect(rows - ran[ran.length - 1].result[0].items.length).toBeLessThan(5000);
    expect(body.tasks.slice(0, ran.length)).toEqual(ran);
    expect(body.tasks_error).toBe(100 - ran.length);
    expect(body.tasks[ran.length]).toMatchObject({
      status_code: 40500,
      status_message: expect.stringMatching(/at most 5000 in one request/),
      result: null,
      cost: 0,
    });
  });
});
