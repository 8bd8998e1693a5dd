import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okJson, startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 27, stored responses with the unmodified openai client: previous_response_id through three
 * tool turns (each request sends only its new input), retrieve, input_items paging, delete, store:
 * false, another key's 404, input_tokens, the bounds, and a restart of `facet serve`.
 */
let p: Platform;
beforeAll(async () => {
  p = await startPlatform({ args: ['--stored-responses-per-key', '6'] });
});
afterAll(() => p?.cleanup());

const newKey = async () => okJson<{ id: string; key: string }>(await p.cli(['keys', 'create', '--json'])).key;
const client = (key: string) => new OpenAI({ apiKey: key, baseURL: `${p.url}/api/v1`, maxRetries: 0, timeout: 30_000 });

const tools: OpenAI.Responses.Tool[] = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'Weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    strict: false,
  },
  {
    type: 'function',
    name: 'get_time',
    parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] },
    strict: false,
  },
];
const ASKS = ['Use get_weather for city: Paris', 'Use get_time for zone: UTC', 'Use get_weather for city: Oslo'];
const run = (name: string, args: Record<string, string>) =>
  name === 'get_weather' ? `rain in ${args.city}` : `noon in ${args.zone}`;

/** Three tool turns, each continuing the last response with only the new input; returns the ids. */
async function threeToolTurns(ai: OpenAI, stream: boolean) {
  const create = async (body: Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'stream'>) =>
    stream ? ai.responses.stream(body).finalResponse() : ai.responses.create(body);
  let previous: string | undefined;
  const ids: string[] = [];
  const answers: string[] = [];
  for (const ask of ASKS) {
    const called = await create({
      model: 'facet-agent',
      tools,
      input: ask,
      ...(previous ? { previous_response_id: previous } : {}),
    });
    expect(called).toMatchObject({ store: true, previous_response_id: previous ?? null });
    const calls = called.output.flatMap((o) =>
      o.type === 'function_call' ? [o as OpenAI.Responses.ResponseFunctionToolCall] : [],
    );
    expect(calls).toHaveLength(1);
    const outputs = calls.map((c) => ({
      type: 'function_call_output' as const,
      call_id: c.call_id,
      output: run(c.name, JSON.parse(c.arguments)),
    }));
    const answered = await create({ model: 'facet-agent', tools, previous_response_id: called.id, input: outputs });
    answers.push(answered.output_text);
    ids.push(called.id, answered.id);
    previous = answered.id;
  }
  return { ids, answers };
}

describe('previous_response_id with the openai client', () => {
  for (const stream of [false, true]) {
    it(`${stream ? 'streamed' : 'plain'}: three tool turns, each request carrying only function_call_output items or a new message`, async () => {
      const ai = client(await newKey());
      const { ids, answers } = await threeToolTurns(ai, stream);
      expect(answers).toEqual(['get_weather: rain in Paris', 'get_time: noon in UTC', 'get_weather: rain in Oslo']);
      const last = await ai.responses.retrieve(ids.at(-1)!);
      expect(last).toMatchObject({
        id: ids.at(-1),
        object: 'response',
        status: 'completed',
        output_text: 'get_weather: rain in Oslo',
        previous_response_id: ids.at(-2),
        store: true,
      });
      // The whole conversation: 3 asks, 3 calls, 3 outputs, 2 answers (the last answer is the output).
      const all: OpenAI.Responses.ResponseItem[] = [];
      for await (const item of ai.responses.inputItems.list(ids.at(-1)!, { limit: 2, order: 'asc' })) all.push(item);
      expect(all.map((i) => i.type)).toEqual([
        'message',
        'function_call',
        'function_call_output',
        'message',
        'message',
        'function_call',
        'function_call_output',
        'message',
        'message',
        'function_call',
        'function_call_output',
      ]);
      expect(new Set(all.map((i) => i.id)).size).toBe(11);
      const newest = await ai.responses.inputItems.list(ids.at(-1)!, { limit: 1 });
      expect(newest.data[0].type).toBe('function_call_output');
      expect(newest.has_more).toBe(true);
    });
  }

  it('delete, store: false, and another key: 404 to read, 400 previous_response_not_found to continue', async () => {
    const ai = client(await newKey());
    const other = client(await newKey());
    const kept = await ai.responses.create({ model: 'facet-echo', input: 'keep me' });
    const notKept = await ai.responses.create({ model: 'facet-echo', input: 'forget me', store: false });
    expect((notKept as { store?: boolean }).store).toBe(false);
    await expect(ai.responses.retrieve(notKept.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      ai.responses.create({ model: 'facet-echo', input: 'more', previous_response_id: notKept.id }),
    ).rejects.toMatchObject({ status: 400, code: 'previous_response_not_found', param: 'previous_response_id' });
    await expect(other.responses.retrieve(kept.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.responses.inputItems.list(kept.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.responses.delete(kept.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      other.responses.create({ model: 'facet-echo', input: 'x', previous_response_id: kept.id }),
    ).rejects.toMatchObject({ status: 400 });
    expect((await ai.responses.retrieve(kept.id)).output_text).toBe('keep me');
    await ai.responses.delete(kept.id);
    await expect(ai.responses.retrieve(kept.id)).rejects.toMatchObject({ status: 404 });
    await expect(
      ai.responses.create({ model: 'facet-echo', input: 'x', previous_response_id: kept.id }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('input_tokens counts the stored history too, and stores nothing', async () => {
    const ai = client(await newKey());
    const first = await ai.responses.create({
      model: 'facet-echo',
      input: 'The ferry to the island leaves every forty minutes from the harbour.',
    });
    const alone = await ai.responses.inputTokens.count({ model: 'facet-echo', input: 'And when does it come back?' });
    const continued = await ai.responses.inputTokens.count({
      model: 'facet-echo',
      input: 'And when does it come back?',
      previous_response_id: first.id,
    });
    expect(alone.object).toBe('response.input_tokens');
    expect(continued.input_tokens).toBeGreaterThan(alone.input_tokens + 10);
  });
});

describe('bounds', () => {
  it('per key (6 here): the sixth stored response is kept, the seventh is refused; store: false still answers; a delete makes room', async () => {
    const ai = client(await newKey());
    const kept: string[] = [];
    for (let i = 0; i < 6; i++) kept.push((await ai.responses.create({ model: 'facet-echo', input: `n${i}` })).id);
    await expect(ai.responses.create({ model: 'facet-echo', input: 'n3' })).rejects.toMatchObject({
      status: 400,
      code: 'stored_responses_limit',
      param: 'store',
    });
    expect((await ai.responses.create({ model: 'facet-echo', input: 'n3', store: false })).output_text).toBe('n3');
    await ai.responses.delete(kept[0]);
    expect((await ai.responses.create({ model: 'facet-echo', input: 'n4' })).status).toBe('completed');
  });

  it('per conversation: 10000 items are stored (the bound); continuing past them is refused', async () => {
    const ai = client(await newKey());
    const input = Array.from({ length: 9_999 }, (_, i) => ({ role: 'user' as const, content: `m${i}` }));
    const full = await ai.responses.create({ model: 'facet-echo', input });
    // 9,999 inputs and one output: 10,000 items stored; one more item goes past.
    await expect(
      ai.responses.create({ model: 'facet-echo', input: 'one more', previous_response_id: full.id }),
    ).rejects.toMatchObject({ status: 400, code: 'stored_conversation_too_large' });
    // 9,998 inputs and one output, then one more: exactly 10,000, accepted.
    const atBound = await ai.responses.create({ model: 'facet-echo', input: input.slice(0, 9_998) });
    expect(
      (
        await ai.responses.create({
          model: 'facet-echo',
          input: 'one more',
          previous_response_id: atBound.id,
          store: false,
        })
      ).output_text,
    ).toBe('one more');
  }, 60_000);
});

describe('durability', () => {
  it('stored responses survive a restart of facet serve', async () => {
    const key = await newKey();
    const before = await client(key).responses.create({ model: 'facet-echo', input: 'remember the harbour' });
    p = await p.restart();
    const ai = client(key);
    expect((await ai.responses.retrieve(before.id)).output_text).toBe('remember the harbour');
    const next = await ai.responses.create({
      model: 'facet-echo',
      input: 'and after',
      previous_response_id: before.id,
      store: false,
    });
    expect(next.output_text).toBe('and after');
  });
});
