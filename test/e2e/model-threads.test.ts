import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okJson, startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 27, Anthropic message threads: the unmodified SDK's beta.messages.toolRunner (threads on by
 * default) and beta.messages.thread against facet-agent. The server keeps the conversation per key;
 * a continue sends only the new messages. Every request the client sends is recorded to prove it.
 */
let p: Platform;
beforeAll(async () => {
  p = await startPlatform({ args: ['--stored-responses-per-key', '4'] });
});
afterAll(() => p?.cleanup());

const newKey = async () => okJson<{ id: string; key: string }>(await p.cli(['keys', 'create', '--json'])).key;

/** A client whose requests are recorded (url and body), so a test can see what the SDK sent. */
function recorded(key: string) {
  const sent: Array<{ url: string; body: any }> = [];
  const client = new Anthropic({
    apiKey: key,
    baseURL: `${p.url}/api`,
    maxRetries: 0,
    timeout: 20_000,
    fetch: async (url, init) => {
      sent.push({ url: String(url), body: init?.body ? JSON.parse(String(init.body)) : null });
      return fetch(url, init);
    },
  });
  return { client, sent };
}

const WEATHER = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const;
const weatherTool = (runs: string[]) =>
  betaTool({
    name: 'get_weather',
    description: 'Weather in a city',
    inputSchema: WEATHER,
    run: (args) => {
      runs.push(args.city);
      return `18 degrees in ${args.city}`;
    },
  });
const ASK = 'Use get_weather for city: Paris';

async function post(key: string, body: unknown) {
  const r = await fetch(`${p.url}/api/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as any };
}

describe('toolRunner with threads (default settings)', () => {
  for (const stream of [false, true]) {
    it(`${stream ? 'streamed' : 'plain'}: turn one creates the thread, turn two sends only the tool result and continues it, and the loop completes`, async () => {
      const { client, sent } = recorded(await newKey());
      const runs: string[] = [];
      const runner = client.beta.messages.toolRunner({
        model: 'facet-agent',
        max_tokens: 1024,
        system: 'You are terse.',
        messages: [{ role: 'user', content: ASK }],
        tools: [weatherTool(runs)],
        ...(stream ? { stream: true as const } : {}),
      });
      if (stream)
        for await (const s of runner as AsyncIterable<{ finalMessage(): Promise<unknown> }>) await s.finalMessage();
      const final = await runner.runUntilDone();
      expect(runs).toEqual(['Paris']);
      expect(final.content.find((b) => b.type === 'text')).toMatchObject({ text: 'get_weather: 18 degrees in Paris' });
      expect(sent).toHaveLength(2);
      expect(sent[0].body.thread).toEqual({ type: 'create' });
      expect(sent[1].body.thread).toMatchObject({ type: 'continue' });
      // Only the tool result travels; system and tools stay with the thread on the server.
      expect(sent[1].body.messages).toHaveLength(1);
      expect(sent[1].body.messages[0].content[0].type).toBe('tool_result');
      expect(sent[1].body.tools).toBeUndefined();
      expect(sent[1].body.system).toBeUndefined();
    });
  }

  it('beta.messages.thread: four turns, each a continue with only its new message', async () => {
    const { client, sent } = recorded(await newKey());
    const thread = client.beta.messages.thread({
      model: 'facet-agent',
      max_tokens: 512,
      tools: [
        { name: 'get_weather', description: 'Weather', input_schema: WEATHER },
        {
          name: 'get_time',
          description: 'Time',
          input_schema: { type: 'object', properties: { zone: { type: 'string' } } },
        },
      ],
    });
    const one = await thread.send({ role: 'user', content: ASK });
    const call1 = one.content.find((b) => b.type === 'tool_use')!;
    const two = await thread.send({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: call1.id, content: 'sunny' }],
    });
    expect(two.content).toEqual([{ type: 'text', text: 'get_weather: sunny' }]);
    const three = await thread.send({ role: 'user', content: 'Now use get_time for zone: UTC' });
    const call3 = three.content.find((b) => b.type === 'tool_use')!;
    expect(call3).toMatchObject({ name: 'get_time', input: { zone: 'UTC' } });
    const four = await thread.send({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: call3.id, content: 'noon' }],
    });
    expect(four.content).toEqual([{ type: 'text', text: 'get_time: noon' }]);
    expect(sent.map((s) => s.body.thread.type)).toEqual(['create', 'continue', 'continue', 'continue']);
    expect(sent.slice(1).every((s) => s.body.messages.length === 1)).toBe(true);
  });
});

describe('thread errors in the Anthropic shape', () => {
  it("an unknown or another key's message is 404 thread_not_found; a message is continued once", async () => {
    const a = await newKey();
    const b = await newKey();
    const unknown = await post(a, {
      model: 'facet-agent',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
      thread: { type: 'continue', previous_message_id: 'msg_nope' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error', details: { error_code: 'thread_not_found' } },
    });
    const created = await post(a, {
      model: 'facet-agent',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hello' }],
      thread: { type: 'create' },
    });
    expect(created.status).toBe(200);
    const foreign = await post(b, {
      model: 'facet-agent',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'again' }],
      thread: { type: 'continue', previous_message_id: created.body.id },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.details.error_code).toBe('thread_not_found');
    const next = await post(a, {
      model: 'facet-agent',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'again' }],
      thread: { type: 'continue', previous_message_id: created.body.id },
    });
    expect(next.status).toBe(200);
    // A continued message is replaced by its reply: continuing it again finds nothing (the SDK replays then).
    const twice = await post(a, {
      model: 'facet-agent',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'once more' }],
      thread: { type: 'continue', previous_message_id: created.body.id },
    });
    expect(twice.status).toBe(404);
    expect(twice.body.error.details.error_code).toBe('thread_not_found');
    // Two continues of one message at once: one wins, the other is refused with a code the SDK replays on.
    const base = await post(a, {
      model: 'facet-agent',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'race' }],
      thread: { type: 'create' },
    });
    const race = await Promise.all(
      ['x', 'y'].map((c) =>
        post(a, {
          model: 'facet-agent',
          max_tokens: 64,
          messages: [{ role: 'user', content: c }],
          thread: { type: 'continue', previous_message_id: base.body.id },
        }),
      ),
    );
    expect(race.filter((r) => r.status === 200)).toHaveLength(1);
    const lost = race.find((r) => r.status !== 200)!;
    expect(['thread_already_continued', 'thread_not_found']).toContain(lost.body.error.details.error_code);
    const withTools = await post(a, {
      model: 'facet-agent',
      max_tokens: 64,
      system: 'x',
      messages: [{ role: 'user', content: 'x' }],
      thread: { type: 'continue', previous_message_id: next.body.id },
    });
    expect(withTools.status).toBe(400);
  });

  it('at the per-key bound (4) a thread still stores; past it the create is thread_unsupported_request and the toolRunner goes on unthreaded', async () => {
    const key = await newKey();
    for (let i = 0; i < 4; i++) {
      const r = await post(key, {
        model: 'facet-agent',
        max_tokens: 64,
        messages: [{ role: 'user', content: `t${i}` }],
        thread: { type: 'create' },
      });
      expect(r.status).toBe(200);
    }
    const past = await post(key, {
      model: 'facet-agent',
      max_tokens: 64,
      messages: [{ role: 'user', content: 't5' }],
      thread: { type: 'create' },
    });
    expect(past.status).toBe(400);
    expect(past.body.error.details).toMatchObject({
      error_code: 'thread_unsupported_request',
      unsupported: ['storage_limit'],
    });
    const { client, sent } = recorded(key);
    const runs: string[] = [];
    const final = await client.beta.messages
      .toolRunner({
        model: 'facet-agent',
        max_tokens: 1024,
        messages: [{ role: 'user', content: ASK }],
        tools: [weatherTool(runs)],
      })
      .runUntilDone();
    expect(final.content).toEqual([{ type: 'text', text: 'get_weather: 18 degrees in Paris' }]);
    // Refused create, the same turn unthreaded, then the tool result with the full history.
    expect(sent.map((s) => s.body.thread?.type ?? 'none')).toEqual(['create', 'none', 'none']);
  });
});
