import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okJson, startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 27, smaller items on Messages: `thinking` (facet-agent writes a deterministic, signed
 * thinking block and counts it; models without the capability refuse), assistant prefill, and
 * unknown top-level fields (ignored, as documented).
 */
let p: Platform;
let ai: Anthropic;
beforeAll(async () => {
  p = await startPlatform();
  const key = okJson<{ key: string }>(await p.cli(['keys', 'create', '--json'])).key;
  ai = new Anthropic({ apiKey: key, baseURL: `${p.url}/api`, maxRetries: 0, timeout: 20_000 });
});
afterAll(() => p?.cleanup());

const ASK = { role: 'user' as const, content: 'What is the ferry timetable?' };

describe('thinking', () => {
  it('facet-agent: a thinking block with a signature before the answer, the same every time, its tokens in output_tokens', async () => {
    const plain = await ai.messages.create({ model: 'facet-agent', max_tokens: 2048, messages: [ASK] });
    const thought = await ai.messages.create({
      model: 'facet-agent',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [ASK],
    });
    const again = await ai.messages.create({
      model: 'facet-agent',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [ASK],
    });
    expect(thought.content[0]).toMatchObject({
      type: 'thinking',
      thinking: expect.stringContaining('What is the ferry timetable?'),
      signature: expect.any(String),
    });
    expect(thought.content[1]).toEqual(plain.content[0]);
    expect(again.content).toEqual(thought.content);
    expect(thought.usage.output_tokens).toBeGreaterThan(plain.usage.output_tokens);
  });

  it('streamed: the thinking block comes first with thinking and signature deltas, and the final message equals the plain one', async () => {
    const plain = await ai.messages.create({
      model: 'facet-agent',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [ASK],
    });
    const stream = ai.messages.stream({
      model: 'facet-agent',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [ASK],
    });
    const kinds: string[] = [];
    stream.on('streamEvent', (e) => {
      if (e.type === 'content_block_delta') kinds.push(e.delta.type);
    });
    const final = await stream.finalMessage();
    expect(final.content).toEqual(plain.content);
    expect(final.usage.output_tokens).toBe(plain.usage.output_tokens);
    expect(kinds.slice(0, 2)).toEqual(['thinking_delta', 'signature_delta']);
  });

  it('the thinking block sent back in the history is accepted', async () => {
    const first = await ai.messages.create({
      model: 'facet-agent',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [ASK],
    });
    const next = await ai.messages.create({
      model: 'facet-agent',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [ASK, { role: 'assistant', content: first.content }, { role: 'user', content: 'Thanks' }],
    });
    expect(next.content.at(-1)).toEqual({ type: 'text', text: 'Thanks' });
  });

  it('a model without the capability, or a budget not below max_tokens, is a 400', async () => {
    await expect(
      ai.messages.create({
        model: 'facet-echo',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [ASK],
      }),
    ).rejects.toMatchObject({
      status: 400,
      error: { error: { type: 'invalid_request_error' } },
    });
    await expect(
      ai.messages.create({
        model: 'facet-agent',
        max_tokens: 1024,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [ASK],
      }),
    ).rejects.toMatchObject({ status: 400 });
    const off = await ai.messages.create({
      model: 'facet-echo',
      max_tokens: 64,
      thinking: { type: 'disabled' },
      messages: [ASK],
    });
    expect(off.content).toEqual([{ type: 'text', text: ASK.content }]);
  });

  it('the model card lists the capability', async () => {
    const r = await p.fetch('/api/v1/models/facet-agent', { headers: { authorization: `Bearer ${ai.apiKey}` } });
    expect(((await r.json()) as { capabilities: unknown }).capabilities).toMatchObject({ thinking: true });
  });
});

describe('assistant prefill', () => {
  const convo = [
    { role: 'user' as const, content: 'The harbour light is green tonight' },
    { role: 'assistant' as const, content: 'The harbour light' },
  ];
  it('plain and streamed: the reply continues from the prefill instead of repeating it', async () => {
    const plain = await ai.messages.create({ model: 'facet-echo', max_tokens: 256, messages: convo });
    expect(plain.content).toEqual([{ type: 'text', text: ' is green tonight' }]);
    const streamed = await ai.messages.stream({ model: 'facet-echo', max_tokens: 256, messages: convo }).finalMessage();
    expect(streamed.content).toEqual(plain.content);
  });

  it('a prefill the answer does not start with: the whole answer follows it', async () => {
    const r = await ai.messages.create({
      model: 'facet-echo',
      max_tokens: 256,
      messages: [convo[0], { role: 'assistant', content: 'Well,' }],
    });
    expect(r.content).toEqual([{ type: 'text', text: 'The harbour light is green tonight' }]);
  });
});

describe('unknown top-level fields', () => {
  it('are ignored on /api/v1 (documented), on every surface', async () => {
    const headers = { authorization: `Bearer ${ai.apiKey}`, 'content-type': 'application/json' };
    const bodies: Array<[string, unknown]> = [
      [
        '/api/v1/messages',
        {
          model: 'facet-echo',
          max_tokens: 32,
          messages: [{ role: 'user', content: 'hi' }],
          some_future_field: { x: 1 },
        },
      ],
      ['/api/v1/responses', { model: 'facet-echo', input: 'hi', some_future_field: true }],
      [
        '/api/v1/chat/completions',
        { model: 'facet-echo', messages: [{ role: 'user', content: 'hi' }], some_future_field: 1 },
      ],
    ];
    for (const [path, body] of bodies)
      expect((await p.fetch(path, { method: 'POST', headers, body: JSON.stringify(body) })).status, path).toBe(200);
  });
});
