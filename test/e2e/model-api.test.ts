import http from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../src/server/engines/gateway/tokenizer.js';
import type { FakeUpstream } from '../helpers/fake-upstream.js';
import { useModelPlatform } from '../helpers/model-platform.js';
import { ok, okJson, type Platform } from '../helpers/platform.js';

const models = useModelPlatform();
const { newKey, openai, anthropic, usageOf } = models;
let p: Platform;
let up: FakeUpstream;
beforeAll(() => ({ p, up } = models.env));

describe('the official clients on the local models', () => {
  it('openai: chat completions create and stream', async () => {
    const { key } = await newKey();
    const client = openai(key);
    const done = await client.chat.completions.create({
      model: 'facet-echo',
      messages: [
        { role: 'system', content: 'ignored by echo' },
        { role: 'user', content: 'ping pong' },
      ],
    });
    expect(done.choices[0].message.content).toBe('ping pong');
    expect(done.choices[0].finish_reason).toBe('stop');
    expect(done.usage!.completion_tokens).toBe(2);
    expect(done.usage!.prompt_tokens).toBeGreaterThan(2);

    const stream = await client.chat.completions.create({
      model: 'facet-echo',
      messages: [{ role: 'user', content: 'one two three four' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let chunks = 0;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('one two three four');
    expect(chunks).toBeGreaterThan(4);
    expect(usage?.completion_tokens).toBe(4);
  });

  it('openai: responses create and stream, with max_output_tokens cutting the reply', async () => {
    const { key } = await newKey();
    const client = openai(key);
    const r = await client.responses.create({
      model: 'facet-echo',
      input: 'alpha beta gamma',
      instructions: 'be brief',
    });
    expect(r.output_text).toBe('alpha beta gamma');
    expect(r.status).toBe('completed');

    const cut = await client.responses.create({
      model: 'facet-echo',
      input: [{ role: 'user', content: 'a b c d e f g h' }],
      max_output_tokens: 3,
    });
    expect(cut.status).toBe('incomplete');
    expect(cut.incomplete_details?.reason).toBe('max_output_tokens');
    expect(cut.usage?.output_tokens).toBe(3);

    const events = await client.responses.create({ model: 'facet-echo', input: 'streamed words here', stream: true });
    const types: string[] = [];
    let text = '';
    for await (const ev of events) {
      types.push(ev.type);
      if (ev.type === 'response.output_text.delta') text += ev.delta;
    }
    expect(text).toBe('streamed words here');
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');

    const final = await client.responses.stream({ model: 'facet-echo', input: 'helper stream' }).finalResponse();
    expect(final.output_text).toBe('helper stream');
  });

  it('anthropic: messages create and stream, with stop sequences', async () => {
    const { key } = await newKey();
    const client = anthropic(key);
    const msg = await client.messages.create({
      model: 'facet-echo',
      max_tokens: 50,
      system: 'sys',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello there STOP rest' }] }],
      stop_sequences: ['STOP'],
    });
    expect(msg.content[0]).toMatchObject({ type: 'text', text: 'hello there ' });
    expect(msg.stop_reason).toBe('stop_sequence');
    expect(msg.stop_sequence).toBe('STOP');

    const stream = client.messages.stream({
      model: 'facet-echo',
      max_tokens: 2,
      messages: [{ role: 'user', content: 'red green blue' }],
    });
    let text = '';
    stream.on('text', (t) => (text += t));
    const final = await stream.finalMessage();
    expect(text).toBe('red green');
    expect(final.stop_reason).toBe('max_tokens');
    expect(final.usage.output_tokens).toBe(2);
    expect(final.usage.input_tokens).toBeGreaterThan(0);
  });

  it('answers errors in each family shape, with the SDK error classes', async () => {
    const { key } = await newKey();
    await expect(
      openai(key).chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
    });
    await expect(openai('fk_wrong').models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const denied = await anthropic('fk_wrong')
      .messages.create({ model: 'facet-echo', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e);
    expect(denied).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(denied.error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const noKey = await p.fetch('/api/v1/models', { headers: { 'x-request-id': 'no-key-1' } });
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('x-request-id')).toBe('no-key-1');
    expect((await noKey.json()).error.code).toBe('MISSING_AUTHORIZATION');
    const bad = await anthropic(key)
      .messages.create({
        model: 'facet-echo',
        max_tokens: 5,
        messages: [
          {
            role: 'user',
            content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }],
          },
        ],
      })
      .catch((e) => e);
    expect(bad).toBeInstanceOf(Anthropic.BadRequestError);
    expect(bad.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(bad.error.error.message).toMatch(/only text content/);
    const tooMany = await anthropic(key)
      .messages.create({ model: 'facet-echo', max_tokens: 999_999, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e);
    expect(tooMany.status).toBe(400);
    expect(tooMany.message).toMatch(/output limit/);
    // aster-mini does not offer the messages surface
    const surface = await anthropic(key)
      .messages.create({ model: 'aster-mini', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e);
    expect(surface.status).toBe(400);
    expect(surface.message).toMatch(/not available on the messages surface/);
  });
});

describe('routing to upstreams, translation and metering', () => {
  it('sends a Messages request to an OpenAI-compatible upstream and translates both ways', async () => {
    const { id, key } = await newKey();
    up.script({
      text: 'from upstream',
      finish: 'length',
      usage: { prompt_tokens: 1000, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 400 } },
    });
    const before = up.received.length;
    const msg = await anthropic(key).messages.create({
      model: 'aster-large',
      max_tokens: 50,
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'second' },
      ],
    });
    const sent = up.received[before];
    expect(sent.path).toBe('/oai/v1/chat/completions');
    expect(sent.body).toMatchObject({
      model: 'aster-large',
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'second' },
      ],
    });
    expect(msg.content[0]).toMatchObject({ text: 'from upstream' });
    expect(msg.stop_reason).toBe('max_tokens');
    // Chat Completions' prompt_tokens includes the cached ones; Messages' input_tokens does not.
    expect(msg.usage).toMatchObject({ input_tokens: 600, cache_read_input_tokens: 400, output_tokens: 50 });
    const usage = await usageOf(id);
    // aster-large: 2.00 in, 8.00 out, 0.50 cache read per 1M
    const expected = (600 * 2 + 400 * 0.5 + 50 * 8) / 1e6;
    expect(usage.totals.cost_usd).toBeCloseTo(expected, 12);
    expect(usage.keys[0].models[0]).toMatchObject({
      model: 'aster-large',
      calls: 1,
      input_tokens: 600,
      cache_read_tokens: 400,
      output_tokens: 50,
    });
  });

  it('sends a Chat Completions request to an Anthropic-compatible upstream, pricing cache writes and web searches', async () => {
    const { id, key } = await newKey();
    up.script({
      text: 'cached answer',
      finish: 'stop_sequence',
      usage: {
        input_tokens: 1000,
        output_tokens: 100,
        cache_read_input_tokens: 2000,
        cache_creation_input_tokens: 500,
        server_tool_use: { web_search_requests: 2 },
      },
    });
    const before = up.received.length;
    const done = await openai(key).chat.completions.create({
      model: 'corvid-medium',
      max_tokens: 100,
      temperature: 0.3,
      stop: ['END'],
      messages: [
        { role: 'system', content: 'Rule one.' },
        { role: 'developer', content: 'Rule two.' },
        { role: 'user', content: 'q' },
      ],
    });
    const sent = up.received[before];
    expect(sent.path).toBe('/ant/v1/messages');
    expect(sent.headers['anthropic-version']).toBeDefined();
    expect(sent.body).toMatchObject({
      model: 'corvid-medium',
      max_tokens: 100,
      system: 'Rule one.\n\nRule two.',
      temperature: 0.3,
      stop_sequences: ['END'],
      messages: [{ role: 'user', content: 'q' }],
    });
    expect(done.choices[0]).toMatchObject({ message: { content: 'cached answer' }, finish_reason: 'stop' });
    expect(done.usage).toMatchObject({
      prompt_tokens: 3500,
      completion_tokens: 100,
      total_tokens: 3600,
      prompt_tokens_details: { cached_tokens: 2000 },
    });
    // corvid-medium: 3 in, 15 out, 0.30 cache read, 3.75 cache write per 1M; 0.01 per web search
    const expected = (1000 * 3 + 100 * 15 + 2000 * 0.3 + 500 * 3.75) / 1e6 + 2 * 0.01;
    const usage = await usageOf(id);
    expect(usage.totals.cost_usd).toBeCloseTo(expected, 12);
    expect(usage.totals).toMatchObject({ cache_write_tokens: 500, web_searches: 2 });
  });

  it('bills the whole request at the higher tier once the prompt passes 100K tokens', async () => {
    const { id, key } = await newKey();
    up.script(
      { usage: { prompt_tokens: 90_000, completion_tokens: 1000, prompt_tokens_details: { cached_tokens: 10_000 } } },
      { usage: { prompt_tokens: 150_000, completion_tokens: 1000, prompt_tokens_details: { cached_tokens: 50_000 } } },
    );
    const client = openai(key);
    await client.responses.create({ model: 'lumen-flash', input: 'small' });
    const low = (await usageOf(id)).totals.cost_usd;
    expect(low).toBeCloseTo((80_000 * 0.25 + 10_000 * 0.025 + 1000 * 1.25) / 1e6, 12);
    await client.responses.create({ model: 'lumen-flash', input: 'big' });
    const high = (await usageOf(id)).totals.cost_usd - low;
    expect(high).toBeCloseTo((100_000 * 0.5 + 50_000 * 0.05 + 1000 * 2.5) / 1e6, 12);
  });

  it('counts tokens with the tokenizer when the upstream reports no usage', async () => {
    const { id, key } = await newKey();
    up.script({ text: 'four words right here', usage: null });
    const r = await openai(key).chat.completions.create({
      model: 'strata-1',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(r.usage!.completion_tokens).toBe(4);
    const u = await usageOf(id);
    expect(u.totals.output_tokens).toBe(4);
    expect(u.totals.cost_usd).toBeCloseTo((r.usage!.prompt_tokens * 3 + 4 * 15) / 1e6, 12);
  });

  it('passes upstream streams through as they arrive, on every surface', async () => {
    const { id, key } = await newKey();
    const pieces = ['Hel', 'lo ', 'from ', 'up', 'stream'];
    // OpenAI-compatible upstream -> Messages events
    up.script({ pieces, delayMs: 30, usage: { prompt_tokens: 10, completion_tokens: 5 } });
    const seen: Array<{ t: string; at: number }> = [];
    const s1 = anthropic(key).messages.stream({
      model: 'strata-2',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'go' }],
    });
    s1.on('text', (t) => seen.push({ t, at: Date.now() }));
    const m = await s1.finalMessage();
    expect(seen.map((x) => x.t)).toEqual(pieces);
    expect(seen.at(-1)!.at - seen[0].at).toBeGreaterThanOrEqual(60); // arrived over time, not at once
    expect(m.usage).toMatchObject({ input_tokens: 10, output_tokens: 5 });

    // Anthropic-compatible upstream -> Chat Completions chunks and Responses events
    up.script(
      { pieces, usage: { input_tokens: 8, output_tokens: 5 } },
      { pieces, usage: { input_tokens: 8, output_tokens: 5 } },
    );
    const chunks = await openai(key).chat.completions.create({
      model: 'corvid-small',
      messages: [{ role: 'user', content: 'go' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const got: string[] = [];
    for await (const c of chunks) if (c.choices[0]?.delta?.content) got.push(c.choices[0].delta.content);
    expect(got).toEqual(pieces);
    const ev = await openai(key).responses.create({ model: 'corvid-small', input: 'go', stream: true });
    const deltas: string[] = [];
    for await (const e of ev) if (e.type === 'response.output_text.delta') deltas.push(e.delta);
    expect(deltas).toEqual(pieces);
    expect((await usageOf(id)).totals.calls).toBe(3);
  });

  it('Messages streams carry the input tokens in message_start when known first, as Anthropic sends them, and in message_delta', async () => {
    const { key } = await newKey();
    /** The SDK's raw stream: every event as it came, so message_start is read as a client like LangChain reads it. */
    const usageOfStream = async (model: string, content: string) => {
      const stream = await anthropic(key).messages.create({
        model,
        max_tokens: 100,
        messages: [{ role: 'user', content }],
        stream: true,
      });
      let start: Anthropic.Usage | undefined;
      let delta: Anthropic.MessageDeltaUsage | undefined;
      for await (const ev of stream) {
        if (ev.type === 'message_start') start = ev.message.usage;
        if (ev.type === 'message_delta') delta = ev.usage;
      }
      return { start: start!, delta: delta! };
    };
    // A local model: the prompt counted by the tokenizer before the first token, the same count at the end.
    const local = await usageOfStream('facet-echo', 'count these words before the first token');
    expect(local.start.input_tokens).toBeGreaterThan(5);
    expect(local.delta.input_tokens).toBe(local.start.input_tokens);
    expect(local.delta.output_tokens).toBe(7);
    // An OpenAI-compatible upstream counts only at its end (include_usage): no guess at the start
    // (issue 41: a local pre-count there differed from the upstream's), its count in message_delta.
    up.script({ pieces: ['a ', 'b'], usage: { prompt_tokens: 10, completion_tokens: 2 } });
    const translated = await usageOfStream('strata-2', 'count these words before the first token');
    expect(translated.start.input_tokens).toBe(0);
    expect(translated.delta).toMatchObject({ input_tokens: 10, output_tokens: 2 });
    // The SDK's stream helper takes message_delta's count: the final message holds the upstream's.
    up.script({ pieces: ['a ', 'b'], usage: { prompt_tokens: 42, completion_tokens: 2 } });
    const final = await anthropic(key)
      .messages.stream({ model: 'strata-2', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] })
      .finalMessage();
    expect(final.usage).toMatchObject({ input_tokens: 42, output_tokens: 2 });
    // An Anthropic-compatible upstream's own message_start count is passed through.
    up.script({ pieces: ['a ', 'b'], usage: { input_tokens: 8, output_tokens: 2, cache_read_input_tokens: 3 } });
    const passed = await usageOfStream('corvid-small', 'go');
    expect(passed.start).toMatchObject({ input_tokens: 8, cache_read_input_tokens: 3 });
    expect(passed.delta).toMatchObject({ input_tokens: 8, output_tokens: 2 });
  });

  it('maps upstream errors: rate limits keep Retry-After, refusals of the platform are 502', async () => {
    const { key } = await newKey();
    const post = (model: string) =>
      p.fetch('/api/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-request-id': 'trace-me-1' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'x' }] }),
      });
    up.script({ status: 429, error: 'slow down', retryAfter: '7' });
    const limited = await post('aster-large');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.headers.get('x-request-id')).toBe('trace-me-1');
    expect(await limited.json()).toMatchObject({
      error: { type: 'rate_limit_error', code: 'upstream_rate_limited', message: 'upstream: slow down' },
    });

    up.script({ status: 401, error: 'bad upstream key' });
    const auth = await post('aster-large');
    expect(auth.status).toBe(502);
    expect((await auth.json()).error.code).toBe('upstream_auth_failed');

    up.script({ status: 400, error: 'bad temperature' });
    const rejected = await post('corvid-large');
    expect(rejected.status).toBe(400);
    expect((await rejected.json()).error.message).toBe('upstream: bad temperature');

    up.script({ status: 503, error: 'busy' });
    const busy = await anthropic(key)
      .messages.create({ model: 'corvid-large', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(busy.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
  });
});

describe('streams that fail part-way', () => {
  const streamRaw = (key: string, path: string, body: object) =>
    p.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-request-id': 'stream-trace-1' },
      body: JSON.stringify({ ...body, stream: true }),
    });

  it('report a broken upstream in each family’s stream format and still meter what was produced', async () => {
    const { id, key } = await newKey();
    const pieces = ['one ', 'two ', 'three ', 'four'];
    const broken = { pieces, breakAfter: 2, delayMs: 10 };
    up.script(broken, broken, broken);

    const chat = await streamRaw(key, '/api/v1/chat/completions', {
      model: 'aster-large',
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(chat.status).toBe(200);
    expect(chat.headers.get('x-request-id')).toBe('stream-trace-1');
    const chatText = await chat.text();
    expect(chatText).toContain('"content":"two "');
    expect(chatText).toMatch(
      /data: \{"error":\{"message":"the upstream stream broke off[^"]*","type":"server_error","code":"upstream_error"/,
    );
    expect(chatText.trimEnd().endsWith('data: [DONE]')).toBe(true);

    const resp = await (await streamRaw(key, '/api/v1/responses', { model: 'aster-large', input: 'go' })).text();
    expect(resp).toContain('event: error');
    expect(resp).toContain('event: response.failed');
    expect(resp).not.toContain('response.completed');

    const msg = await (
      await streamRaw(key, '/api/v1/messages', {
        model: 'aster-large',
        max_tokens: 20,
        messages: [{ role: 'user', content: 'go' }],
      })
    ).text();
    expect(msg).toMatch(
      /event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"the upstream stream broke off/,
    );
    expect(msg).not.toContain('message_stop');

    // each cut stream is metered for the two pieces it delivered, counted by the tokenizer
    const u = await usageOf(id);
    expect(u.totals.calls).toBe(3);
    expect(u.totals.output_tokens).toBe(3 * (await countTokens('one two ')));
  });
});

describe('a caller who leaves mid-stream', () => {
  it('cancels the upstream call and is metered for what was delivered', async () => {
    const { id, key } = await newKey();
    up.script({
      pieces: ['alpha ', 'beta ', 'gamma ', 'delta ', 'epsilon'],
      delayMs: 150,
      usage: { input_tokens: 9, output_tokens: 5 },
    });
    const before = up.received.length;
    const abort = new AbortController();
    const res = await p.fetch('/api/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({
        model: 'corvid-small',
        max_tokens: 50,
        stream: true,
        messages: [{ role: 'user', content: 'go' }],
      }),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('alpha')) seen += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    // the platform notices, hangs up on the upstream and meters the partial reply
    let calls = 0;
    for (let i = 0; i < 50 && calls === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      calls = (await usageOf(id)).totals.calls;
    }
    expect(calls).toBe(1);
    const u = await usageOf(id);
    expect(u.totals.output_tokens).toBeGreaterThan(0);
    expect(u.totals.output_tokens).toBeLessThan(5);
    await new Promise((r) => setTimeout(r, 300));
    expect(up.received[before].cut).toBe(true);
  });
});

describe('a caller who leaves before a plain answer', () => {
  it('cancels the upstream call, also on a kept-alive connection whose earlier call was answered', async () => {
    const { key } = await newKey();
    // One connection for all three calls: the second is the one left, after the first was answered.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const call = (onRequest?: (req: http.ClientRequest) => void) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          `${p.url}/api/v1/chat/completions`,
          { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } },
          (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        req.on('socket', (s) => sockets.add(s));
        req.on('error', reject);
        req.end(JSON.stringify({ model: 'aster-mini', messages: [{ role: 'user', content: 'hello' }] }));
        onRequest?.(req);
      });
    expect((await call()).status).toBe(200);
    up.script({ headersDelayMs: 1_500 });
    const before = up.received.length;
    const left = call((req) => setTimeout(() => req.destroy(), 300)).catch(
      (err: Error & { code?: string }) => err.code,
    );
    expect(await left).toBe('ECONNRESET');
    expect(sockets.size).toBe(1);
    await new Promise((r) => setTimeout(r, 400));
    expect(up.received[before].cut).toBe(true);
    // The next call (on a new connection) is not cut short by what happened to the last one.
    const next = await call();
    expect(next.status).toBe(200);
    expect(JSON.parse(next.body).choices[0].message.content).toBe('upstream:hello');
    agent.destroy();
  });
});

describe('discovery and the other endpoints', () => {
  it('lists only offered models, filters, and validates the boolean', async () => {
    const { id, key } = await newKey();
    const client = openai(key);
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'facet-echo',
        'facet-grounded',
        'lumen-flash',
        'verdict-1',
        'reel-1',
        'facet-illustration-1',
        'strata-1-pro',
      ]),
    );
    expect(ids).not.toContain('aster-next-preview');
    const chat = ids.filter(
      (i) =>
        !['verdict-1', 'reel-1', 'facet-illustration-1', 'facet-echo', 'facet-grounded', 'facet-agent'].includes(i),
    );
    expect(chat).toHaveLength(12);

    const get = (q: string) => p.fetch(`/api/v1/models${q}`, { headers: { authorization: `Bearer ${key}` } });
    const excluded = await (await get('?exclude_video_and_decisions=true')).json();
    const kinds = new Set(excluded.data.map((m: { model_kind: string }) => m.model_kind));
    expect(kinds.has('video_generation') || kinds.has('decisions')).toBe(false);
    expect(kinds.has('image_generation')).toBe(true);
    const invalid = await get('?exclude_video_and_decisions=yes');
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).error.param).toBe('exclude_video_and_decisions');
    const none = await get('?provider=nobody');
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({ object: 'list', data: [] });
    const corvid = await (await get('?provider=corvid')).json();
    expect(corvid.data.map((m: { id: string }) => m.id)).toEqual(['corvid-large', 'corvid-medium', 'corvid-small']);

    const video = await (await p.fetch('/api/v1/videos/models', { headers: { 'x-api-key': key } })).json();
    expect(video.data.map((m: { id: string }) => m.id)).toEqual(['reel-1']);
    const decisions = await (await p.fetch('/api/v1/decisions/models', { headers: { 'x-api-key': key } })).json();
    expect(decisions.data).toEqual([
      { id: 'verdict-1', object: 'model', created: expect.any(Number), owned_by: 'facet', model_kind: 'decisions' },
    ]);

    const lumen = await client.models.retrieve('lumen-flash');
    expect(lumen).toMatchObject({ id: 'lumen-flash', owned_by: 'lumen', model_kind: 'chat' });
    expect((lumen as unknown as { pricing: { tiers: unknown[] } }).pricing.tiers).toEqual([
      { above_prompt_tokens: 100_000, input: 0.5, output: 2.5, cache_read: 0.05, cache_write: 0.0625 },
    ]);
    // discovery never calls or charges a model
    expect((await usageOf(id)).totals.calls).toBe(0);
  });

  it('hides and lists models through the admin CLI, persisted', async () => {
    const { key } = await newKey();
    const client = openai(key);
    await expect(client.models.retrieve('aster-next-preview')).rejects.toMatchObject({ status: 404 });
    const shown = await p.cli(['admin', 'models', 'show', 'aster-next-preview', '--json']);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: 'aster-next-preview', listed: true, offered: true });
    expect((await client.models.retrieve('aster-next-preview')).id).toBe('aster-next-preview');

    const ids = async () => (await client.models.list()).data.map((m) => m.id);
    expect(await ids()).toContain('strata-3-pro');
    const hidden = await p.cli(['admin', 'models', 'hide', 'strata-3-pro']);
    expect(hidden.exitCode, hidden.stderr).toBe(0);
    // the list and the model's own state change at once, though both were just read
    expect(await ids()).not.toContain('strata-3-pro');
    await expect(
      client.chat.completions.create({ model: 'strata-3-pro', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 404 });
    // the decisions are stored: they survive a restart
    p = models.env.p = await p.restart();
    await expect(
      openai(key).chat.completions.create({ model: 'strata-3-pro', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 404 });
    const list = okJson(await p.cli(['admin', 'models', 'list', '--json'])) as Array<{ id: string; listed: boolean }>;
    expect(list.find((m) => m.id === 'strata-3-pro')?.listed).toBe(false);
    expect(list.find((m) => m.id === 'aster-next-preview')?.listed).toBe(true);
    const unknown = await p.cli(['admin', 'models', 'hide', 'nope']);
    expect(unknown.exitCode).toBe(4);
    // put it back for the other tests
    expect((await p.cli(['admin', 'models', 'show', 'strata-3-pro'])).exitCode).toBe(0);
  });

  it('decisions is planned whatever the body; videos need an upstream; images come from the illustration engine', async () => {
    const { id, key } = await newKey();
    for (const body of ['{"model":"verdict-1","state":"x","questions":{}}', '{not json', '']) {
      const r = await p.fetch('/api/v1/decisions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body,
      });
      expect(r.status).toBe(501);
      expect(await r.json()).toEqual({
        error: { code: 501, message: expect.stringMatching(/planned and not yet available/) },
      });
    }
    const unauth = await p.fetch('/api/v1/decisions', { method: 'POST', body: '{}' });
    expect(unauth.status).toBe(401);
    expect((await unauth.json()).error.code).toBe(401);

    const video = await p.fetch('/api/v1/videos/generations', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ model: 'reel-1', prompt: 'a cat' }),
    });
    expect(video.status).toBe(501);
    expect((await video.json()).error.message).toMatch(/needs an upstream that offers video/);

    const img = await openai(key).images.generate({
      model: 'facet-illustration-1',
      prompt: 'a lighthouse at dusk',
      size: '256x256',
      response_format: 'b64_json',
    });
    const png = Buffer.from(img.data![0].b64_json!, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(256);
    const again = await openai(key).images.generate({
      model: 'facet-illustration-1',
      prompt: 'a lighthouse at dusk',
      size: '256x256',
      response_format: 'b64_json',
    });
    expect(again.data![0].b64_json).toBe(img.data![0].b64_json);
    const u = await usageOf(id);
    expect(u.keys[0].models[0]).toMatchObject({ model: 'facet-illustration-1', calls: 2 });
  });
});

describe('facet llm and facet models', () => {
  it('calls each surface, streams, and reports usage and cost with --verbose', async () => {
    const chat = await p.cli(['llm', 'facet-echo', 'hello from the cli', '--verbose']);
    expect(chat.exitCode, chat.stderr).toBe(0);
    expect(chat.stdout).toBe('hello from the cli\n');
    expect(chat.stderr).toMatch(/usage: input \d+ tokens, output 4, .*cost \$0\.000000/);

    up.script({ pieces: ['a ', 'b ', 'c'], usage: { input_tokens: 5, output_tokens: 3 } });
    const streamed = await p.cli(
      ['llm', 'corvid-medium', '--surface', 'messages', '--stream', '-v', '--system', 'be kind'],
      { input: 'question on stdin' },
    );
    expect(streamed.exitCode, streamed.stderr).toBe(0);
    expect(streamed.stdout).toBe('a b c\n');
    expect(up.received.at(-1)!.body).toMatchObject({
      system: 'be kind',
      messages: [{ role: 'user', content: 'question on stdin' }],
      max_tokens: 1024,
    });
    expect(streamed.stderr).toMatch(/input 5 tokens, output 3, .*cost \$0\.000060/);

    const raw = ok(await p.cli(['llm', 'facet-echo', 'json please', '--surface', 'responses', '--json']));
    expect(JSON.parse(raw.stdout)).toMatchObject({ object: 'response', output_text: 'json please' });

    const missing = await p.cli(['llm', 'nope-model', 'x']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/model_not_found/);
  });

  it('lists and gets models', async () => {
    const list = await p.cli(['models', 'list', '--provider', 'strata', '--json']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).map((m: { id: string }) => m.id)).toEqual([
      'strata-1',
      'strata-1-pro',
      'strata-2',
      'strata-2-pro',
      'strata-3',
      'strata-3-pro',
    ]);
    const kinds = okJson(await p.cli(['models', 'list', '--kind', 'decisions', '--json']));
    expect(kinds.map((m: { id: string }) => m.id)).toEqual(['verdict-1']);
    const img = okJson(await p.cli(['models', 'list', '--kind', 'image-task', '--json']));
    expect(img[0].id).toBe('facet-illustration-1');
    const one = ok(await p.cli(['models', 'get', 'corvid-small', '--json']));
    expect(JSON.parse(one.stdout)).toMatchObject({
      id: 'corvid-small',
      context_window: 200000,
      pricing: { input: 0.8, cache_write: 1 },
    });
    const human = ok(await p.cli(['models', 'get', 'lumen-flash']));
    expect(human.stdout).toMatch(/above 100000 prompt tokens/);
  });
});
