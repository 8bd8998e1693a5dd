import Anthropic from '@anthropic-ai/sdk';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../helpers/fake-upstream.js';
import { useModelPlatform } from '../helpers/model-platform.js';
import type { Platform } from '../helpers/platform.js';

/**
 * Tools and structured output on the three /api/v1 surfaces (issue 16): agent loops run by the
 * unmodified official clients against the local facet-agent model, plain and streamed; refusals by
 * models that cannot use tools; translation both ways through a fake upstream of each family.
 */
const models = useModelPlatform();
const { newKey, openai, anthropic, usageOf } = models;
let p: Platform;
let up: FakeUpstream;
beforeAll(() => ({ p, up } = models.env));

const WEATHER_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const TIME_SCHEMA = { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] };
/** The program's side of the loop: the tools it runs when the model asks. */
function runTool(name: string, args: Record<string, unknown>): string {
  if (name === 'get_weather') return JSON.stringify({ city: args.city, temperature: 18, unit: args.unit });
  if (name === 'get_time') return `12:00 in ${String(args.zone)}`;
  throw new Error(`unknown tool ${name}`);
}
const ASK = 'Use get_weather for city: Paris in fahrenheit';
const WEATHER_RESULT = '{"city":"Paris","temperature":18,"unit":"fahrenheit"}';

describe('agent loops with the official clients on facet-agent', () => {
  const chatTools: OpenAI.ChatCompletionTool[] = [
    {
      type: 'function',
      function: { name: 'get_weather', description: 'Weather in a city', parameters: WEATHER_SCHEMA },
    },
    { type: 'function', function: { name: 'get_time', parameters: TIME_SCHEMA } },
  ];

  it('Chat Completions: tool_calls, role tool results, finish_reason tool_calls, plain then streamed, metered alike', async () => {
    const plainKey = await newKey();
    const streamKey = await newKey();
    const loop = async (client: OpenAI, stream: boolean) => {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: ASK }];
      for (let step = 0; step < 4; step++) {
        let message: OpenAI.ChatCompletionMessage;
        let finish: string;
        if (stream) {
          const s = client.chat.completions.stream({ model: 'facet-agent', messages, tools: chatTools });
          const final = await s.finalChatCompletion();
          message = final.choices[0].message;
          finish = final.choices[0].finish_reason;
        } else {
          const r = await client.chat.completions.create({ model: 'facet-agent', messages, tools: chatTools });
          message = r.choices[0].message;
          finish = r.choices[0].finish_reason;
        }
        if (!message.tool_calls?.length) {
          expect(finish).toBe('stop');
          return { answer: message.content, steps: step + 1 };
        }
        expect(finish).toBe('tool_calls');
        expect(message.content).toBeNull();
        messages.push(message);
        for (const call of message.tool_calls) {
          if (call.type !== 'function') throw new Error('not a function call');
          expect(call.function.name).toBe('get_weather');
          expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris', unit: 'fahrenheit' });
          messages.push({
            role: 'tool',
            tool_call_id: call.id,
            content: runTool(call.function.name, JSON.parse(call.function.arguments)),
          });
        }
      }
      throw new Error('the loop did not end');
    };
    const plain = await loop(openai(plainKey.key), false);
    const streamed = await loop(openai(streamKey.key), true);
    expect(plain).toEqual({ answer: `get_weather: ${WEATHER_RESULT}`, steps: 2 });
    expect(streamed).toEqual(plain);
    // Tool definitions and results are input, the call's arguments output: the same exchange meters the same.
    const [a, b] = [await usageOf(plainKey.id), await usageOf(streamKey.id)];
    expect(a.keys[0].models[0].input_tokens).toBeGreaterThan(100);
    expect(b.keys[0].models).toEqual(a.keys[0].models);
  });

  it('Chat Completions streams tool call deltas with incremental arguments; parallel calls; include_usage', async () => {
    const { key } = await newKey();
    const stream = await openai(key).chat.completions.create({
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'call get_time for zone: UTC and get_weather for "Rome"' }],
      tools: chatTools,
      stream: true,
      stream_options: { include_usage: true },
    });
    const args: string[] = ['', ''];
    const opened: Array<{ id?: string; name?: string }> = [];
    let deltas = 0;
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    let nullUsages = 0;
    for await (const chunk of stream) {
      if (chunk.usage === null) nullUsages++;
      if (chunk.usage) usage = chunk.usage;
      const c = chunk.choices[0];
      if (!c) continue;
      for (const t of c.delta.tool_calls ?? []) {
        if (t.id) opened[t.index] = { id: t.id, name: t.function?.name };
        args[t.index] += t.function?.arguments ?? '';
        deltas++;
      }
      finish = c.finish_reason ?? finish;
    }
    expect(opened.map((o) => o.name)).toEqual(['get_time', 'get_weather']);
    expect(JSON.parse(args[0])).toEqual({ zone: 'UTC' });
    expect(JSON.parse(args[1])).toEqual({ city: 'Rome', unit: 'celsius' });
    expect(deltas).toBeGreaterThan(6);
    expect(finish).toBe('tool_calls');
    expect(nullUsages).toBeGreaterThan(3);
    expect(usage?.completion_tokens).toBeGreaterThan(5);

    // parallel_tool_calls: false keeps the first call only.
    const one = await openai(key).chat.completions.create({
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'get_time zone: UTC then get_weather' }],
      tools: chatTools,
      parallel_tool_calls: false,
    });
    expect(one.choices[0].message.tool_calls).toHaveLength(1);
    // tool_choice none: no call; a named choice forces that tool.
    const none = await openai(key).chat.completions.create({
      model: 'facet-agent',
      messages: [{ role: 'user', content: ASK }],
      tools: chatTools,
      tool_choice: 'none',
    });
    expect(none.choices[0].message.content).toBe(ASK);
    const forced = await openai(key).chat.completions.create({
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'what time is it? zone=CET' }],
      tools: chatTools,
      tool_choice: { type: 'function', function: { name: 'get_time' } },
    });
    expect(forced.choices[0].message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'get_time', arguments: '{"zone":"CET"}' },
    });
  });

  it('Responses: function_call items, function_call_output, the arguments events, plain then streamed', async () => {
    const { key } = await newKey();
    const client = openai(key);
    const tools: OpenAI.Responses.Tool[] = [
      { type: 'function', name: 'get_weather', description: 'Weather', parameters: WEATHER_SCHEMA, strict: true },
    ];
    for (const stream of [false, true]) {
      const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: ASK }];
      let r: OpenAI.Responses.Response;
      const types: string[] = [];
      if (stream) {
        const s = client.responses.stream({ model: 'facet-agent', input, tools });
        let argDeltas = '';
        for await (const ev of s) {
          types.push(ev.type);
          if (ev.type === 'response.function_call_arguments.delta') argDeltas += ev.delta;
        }
        r = await s.finalResponse();
        expect(argDeltas).toBe('{"city":"Paris","unit":"fahrenheit"}');
        expect(types).toContain('response.function_call_arguments.done');
        expect(types).not.toContain('response.output_text.delta');
      } else r = await client.responses.create({ model: 'facet-agent', input, tools });
      expect(r.output).toHaveLength(1);
      const call = r.output[0];
      if (call.type !== 'function_call') throw new Error(`expected a function_call, got ${call.type}`);
      expect(call).toMatchObject({
        name: 'get_weather',
        arguments: '{"city":"Paris","unit":"fahrenheit"}',
        status: 'completed',
      });
      expect(r.tools[0]).toMatchObject({ type: 'function', name: 'get_weather' });
      input.push(call, {
        type: 'function_call_output',
        call_id: call.call_id,
        output: runTool(call.name, JSON.parse(call.arguments)),
      });
      const answer = stream
        ? await client.responses.stream({ model: 'facet-agent', input, tools }).finalResponse()
        : await client.responses.create({ model: 'facet-agent', input, tools });
      expect(answer.output_text).toBe(`get_weather: ${WEATHER_RESULT}`);
    }
  });

  it('Messages: tool_use blocks without an empty text block, stop_reason tool_use, tool_result, input_json_delta', async () => {
    const { key } = await newKey();
    const client = anthropic(key);
    const tools: Anthropic.Tool[] = [
      { name: 'get_weather', description: 'Weather', input_schema: WEATHER_SCHEMA as Anthropic.Tool.InputSchema },
      { name: 'get_time', input_schema: TIME_SCHEMA as Anthropic.Tool.InputSchema },
    ];
    for (const stream of [false, true]) {
      const messages: Anthropic.MessageParam[] = [
        { role: 'user', content: 'get_weather city: Paris in fahrenheit, and get_time zone: CET' },
      ];
      let jsonDeltas = 0;
      const call = async () => {
        if (!stream) return client.messages.create({ model: 'facet-agent', max_tokens: 200, messages, tools });
        const s = client.messages.stream({ model: 'facet-agent', max_tokens: 200, messages, tools });
        s.on('streamEvent', (e) => {
          if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta') jsonDeltas++;
        });
        return s.finalMessage();
      };
      const first = await call();
      expect(first.stop_reason).toBe('tool_use');
      expect(first.content.map((b) => b.type)).toEqual(['tool_use', 'tool_use']);
      if (stream) expect(jsonDeltas).toBeGreaterThan(4);
      messages.push({ role: 'assistant', content: first.content });
      messages.push({
        role: 'user',
        content: first.content.map((b) => {
          if (b.type !== 'tool_use') throw new Error('expected tool_use');
          return {
            type: 'tool_result' as const,
            tool_use_id: b.id,
            content: runTool(b.name, b.input as Record<string, unknown>),
          };
        }),
      });
      const answer = await call();
      expect(answer.stop_reason).toBe('end_turn');
      expect(answer.content).toEqual([
        { type: 'text', text: `get_weather: ${WEATHER_RESULT}\nget_time: 12:00 in CET` },
      ]);
      expect(answer.usage.input_tokens).toBeGreaterThan(first.usage.input_tokens);
    }
  });
});

describe('models that cannot use tools or formats refuse them in their family’s shape', () => {
  it('facet-echo: 400 on each surface; tool_choice naming no tool is a 400', async () => {
    const { key } = await newKey();
    const post = (path: string, body: object) =>
      p.fetch(path, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const chat = await post('/api/v1/chat/completions', {
      model: 'facet-echo',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    });
    expect(chat.status).toBe(400);
    expect((await chat.json()).error).toMatchObject({
      code: 'tools_not_supported',
      param: 'tools',
      type: 'invalid_request_error',
    });
    const resp = await post('/api/v1/responses', {
      model: 'facet-grounded',
      input: 'hi',
      text: { format: { type: 'json_schema', name: 'x', schema: { type: 'object' } } },
    });
    expect(resp.status).toBe(400);
    expect((await resp.json()).error.code).toBe('structured_output_not_supported');
    const msg = await post('/api/v1/messages', {
      model: 'facet-echo',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
    });
    expect(msg.status).toBe(400);
    expect(await msg.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const server = await post('/api/v1/messages', {
      model: 'facet-agent',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
    });
    expect(server.status).toBe(400);
    expect((await server.json()).error.message).toMatch(/server tool web_search_20250305/);
    const choice = await post('/api/v1/chat/completions', {
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'f' } }],
      tool_choice: { type: 'function', function: { name: 'g' } },
    });
    expect(choice.status).toBe(400);
    expect((await choice.json()).error.param).toBe('tool_choice');
    const legacy = await post('/api/v1/chat/completions', {
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'hi' }],
      functions: [{ name: 'f', parameters: {} }],
    });
    expect(legacy.status).toBe(400);
    expect((await legacy.json()).error).toMatchObject({
      param: 'functions',
      message: expect.stringMatching(/use tools/),
    });
  });
});

describe('structured output', () => {
  const ajv = (addFormatsModule as unknown as (a: Ajv2020) => Ajv2020)(new Ajv2020({ strict: false }));
  const schemas: Array<Record<string, unknown>> = [
    {
      type: 'object',
      properties: { title: { type: 'string' }, year: { type: 'integer', minimum: 1900 } },
      required: ['title', 'year'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
            required: ['sku', 'qty'],
          },
        },
      },
      required: ['items'],
    },
    {
      type: 'object',
      properties: {
        mood: { type: 'string', enum: ['happy', 'sad', 'neutral'] },
        score: { type: 'number', maximum: 1, minimum: 0 },
      },
      required: ['mood', 'score'],
    },
    {
      type: 'object',
      properties: {
        author: {
          type: 'object',
          properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } },
          required: ['name', 'email'],
        },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
      },
      required: ['author', 'tags'],
    },
  ];

  it('Chat response_format json_schema and Responses text.format answer JSON valid against the schema', async () => {
    const { key } = await newKey();
    const client = openai(key);
    for (const schema of schemas) {
      const validate = ajv.compile(schema);
      const chat = await client.chat.completions.create({
        model: 'facet-agent',
        messages: [{ role: 'user', content: 'title: "Dune" year=1965 mood: sad' }],
        response_format: { type: 'json_schema', json_schema: { name: 'out', schema, strict: true } },
      });
      const a = JSON.parse(chat.choices[0].message.content!);
      expect(validate(a), ajv.errorsText(validate.errors)).toBe(true);
      const resp = await client.responses.create({
        model: 'facet-agent',
        input: 'title: "Dune" year=1965 mood: sad',
        text: { format: { type: 'json_schema', name: 'out', schema, strict: true } },
      });
      expect(JSON.parse(resp.output_text)).toEqual(a);
      expect(resp.text?.format).toMatchObject({ type: 'json_schema', name: 'out' });
    }
    const first = await client.chat.completions.create({
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'title: "Dune" year=1965' }],
      response_format: { type: 'json_schema', json_schema: { name: 'b', schema: schemas[0] } },
    });
    expect(JSON.parse(first.choices[0].message.content!)).toEqual({ title: 'Dune', year: 1965 });
    const obj = await client.chat.completions.create({
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'hello' }],
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(obj.choices[0].message.content!)).toEqual({ answer: 'hello' });
  });
});

describe('schema size bounds on facet-agent', () => {
  const enumSchema = (n: number, split = 1) => ({
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: split }, (_, p) => [
        `v${p}`,
        { type: 'string', enum: Array.from({ length: n / split }, (_, i) => `value-${p}-${i}`) },
      ]),
    ),
    required: ['v0'],
  });

  it('a schema of 1,000 enum values in all is answered; 1,001 (and 20,000) are refused at once with 400 naming the bound', async () => {
    const { key } = await newKey();
    const client = openai(key);
    const ok = await client.chat.completions.create({
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'pick value-0-7' }],
      response_format: { type: 'json_schema', json_schema: { name: 'pick', schema: enumSchema(1000, 4) } },
    });
    expect(JSON.parse(ok.choices[0].message.content!).v0).toMatch(/^value-0-\d+$/);
    for (const [n, split] of [
      [1001, 7],
      [20000, 1],
    ]) {
      const err = await client.chat.completions
        .create({
          model: 'facet-agent',
          messages: [{ role: 'user', content: 'pick one' }],
          response_format: { type: 'json_schema', json_schema: { name: 'pick', schema: enumSchema(n, split) } },
        })
        .then(
          () => undefined,
          (e: unknown) => e as InstanceType<typeof OpenAI.APIError>,
        );
      if (!(err instanceof OpenAI.APIError)) throw new Error(`${n} enum values were not refused`);
      expect(err.status).toBe(400);
      expect(err.message).toMatch(new RegExp(`at most 1,000 enum values.*holds ${n.toLocaleString('en-US')}`));
      expect((err.error as { param?: string }).param).toBe('response_format');
    }
  });
});

describe('what the SDKs expect', () => {
  it('count_tokens counts what the call meters (tools and tool results included); request-id; Anthropic model list', async () => {
    const { key } = await newKey();
    const client = anthropic(key);
    const tools: Anthropic.Tool[] = [
      { name: 'get_weather', input_schema: WEATHER_SCHEMA as Anthropic.Tool.InputSchema },
    ];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: ASK }];
    const bare = await client.messages.countTokens({ model: 'facet-agent', messages });
    const counted = await client.messages.countTokens({ model: 'facet-agent', messages, tools });
    expect(counted.input_tokens).toBeGreaterThan(bare.input_tokens + 20);
    const msg = await client.messages.create({ model: 'facet-agent', max_tokens: 100, messages, tools });
    expect(msg.usage.input_tokens).toBe(counted.input_tokens);
    expect(msg._request_id).toMatch(/^req_/);
    const unknown = await client.messages.countTokens({ model: 'nope', messages }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(Anthropic.NotFoundError);
    expect((unknown as InstanceType<typeof Anthropic.NotFoundError>).requestID).toMatch(/^req_/);

    const ids: string[] = [];
    for await (const m of client.models.list({ limit: 5 })) {
      expect(m).toMatchObject({
        type: 'model',
        display_name: expect.any(String),
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      ids.push(m.id);
    }
    expect(ids).toContain('facet-agent');
    expect(new Set(ids).size).toBe(ids.length);
    const one = await client.models.retrieve('facet-agent');
    expect(one).toMatchObject({ type: 'model', id: 'facet-agent' });
    // The OpenAI client still gets its own shape.
    const oa = await openai(key).models.retrieve('facet-agent');
    expect(oa).toMatchObject({
      object: 'model',
      model_kind: 'chat',
      capabilities: { tools: true, structured_output: true },
    });
    const echo = await p.fetch('/api/v1/models/facet-echo', { headers: { 'x-api-key': key } });
    expect((await echo.json()).capabilities).toEqual({ tools: false, structured_output: false, thinking: false });
  });

  it('an unknown path answers in the error shape of the family its path belongs to', async () => {
    const { key } = await newKey();
    const get = (path: string) => p.fetch(path, { headers: { 'x-api-key': key } });
    const ant = await get('/api/v1/messages/batches');
    expect(ant.status).toBe(404);
    expect(await ant.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const oai = await get('/api/v1/embeddings');
    expect(oai.status).toBe(404);
    expect((await oai.json()).error).toMatchObject({ type: 'not_found_error' });
  });
});

describe('translation through upstreams of the other family (fake upstream on 127.0.0.1)', () => {
  const calls = [
    { id: 'call_A1', name: 'get_weather', arguments: '{"city":"Zürich \\"old town\\"","unit":"celsius"}' },
    { id: 'call_B2', name: 'get_time', arguments: '{"zone":"Europe/Zurich"}' },
  ];

  it('a Messages client served by an OpenAI-compatible upstream: tool_use blocks, stop reason, ids kept through the result; plain and streamed', async () => {
    const { key } = await newKey();
    const client = anthropic(key);
    const tools: Anthropic.Tool[] = [
      { name: 'get_weather', input_schema: WEATHER_SCHEMA as Anthropic.Tool.InputSchema },
      { name: 'get_time', input_schema: TIME_SCHEMA as Anthropic.Tool.InputSchema },
    ];
    for (const stream of [false, true]) {
      up.script({
        text: '',
        toolCalls: calls,
        usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
      });
      const req = {
        model: 'aster-large',
        max_tokens: 300,
        messages: [{ role: 'user' as const, content: 'weather and time' }],
        tools,
        tool_choice: { type: 'any' as const },
      };
      const msg = stream ? await client.messages.stream(req).finalMessage() : await client.messages.create(req);
      const sent = up.received.at(-1)!.body;
      expect(sent.tools[0]).toEqual({
        type: 'function',
        function: { name: 'get_weather', parameters: WEATHER_SCHEMA },
      });
      expect(sent.tool_choice).toBe('required');
      expect(msg.stop_reason).toBe('tool_use');
      expect(msg.content).toEqual([
        { type: 'tool_use', id: 'call_A1', name: 'get_weather', input: { city: 'Zürich "old town"', unit: 'celsius' } },
        { type: 'tool_use', id: 'call_B2', name: 'get_time', input: { zone: 'Europe/Zurich' } },
      ]);
      expect(msg.usage).toMatchObject({ input_tokens: 120, output_tokens: 30 });

      up.script({ text: 'It is 18 degrees at noon.' });
      const answer = await client.messages.create({
        ...req,
        tool_choice: undefined,
        messages: [
          ...req.messages,
          { role: 'assistant', content: msg.content },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'call_A1', content: '18C' },
              { type: 'tool_result', tool_use_id: 'call_B2', content: [{ type: 'text', text: '12:00' }] },
              { type: 'text', text: 'so?' },
            ],
          },
        ],
      });
      expect(answer.content).toEqual([{ type: 'text', text: 'It is 18 degrees at noon.' }]);
      expect(up.received.at(-1)!.body.messages).toEqual([
        { role: 'user', content: 'weather and time' },
        {
          role: 'assistant',
          content: null,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: c.arguments },
          })),
        },
        { role: 'tool', tool_call_id: 'call_A1', content: '18C' },
        { role: 'tool', tool_call_id: 'call_B2', content: '12:00' },
        { role: 'user', content: 'so?' },
      ]);
    }
  });

  it('Chat Completions and Responses clients served by an Anthropic-compatible upstream, plain and streamed with awkward argument pieces', async () => {
    const { key } = await newKey();
    const client = openai(key);
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', parameters: WEATHER_SCHEMA } },
      { type: 'function', function: { name: 'get_time', parameters: TIME_SCHEMA } },
    ];
    for (const argPiece of [1, 2, 5]) {
      up.script({
        text: 'Checking.',
        toolCalls: calls,
        argPiece,
        usage: { input_tokens: 90, output_tokens: 25, cache_read_input_tokens: 10 },
      });
      const s = client.chat.completions.stream({
        model: 'corvid-medium',
        messages: [{ role: 'user', content: 'go' }],
        tools,
        parallel_tool_calls: false,
        stream_options: { include_usage: true },
      });
      const done = await s.finalChatCompletion();
      const sent = up.received.at(-1)!.body;
      expect(sent.tools[1]).toEqual({ name: 'get_time', input_schema: TIME_SCHEMA });
      expect(sent.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
      const m = done.choices[0].message;
      expect(done.choices[0].finish_reason).toBe('tool_calls');
      expect(m.content).toBe('Checking.');
      expect(
        m.tool_calls?.map((c) =>
          c.type === 'function' ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : null,
        ),
      ).toEqual(calls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]));
      expect(done.usage).toMatchObject({
        prompt_tokens: 100,
        completion_tokens: 25,
        prompt_tokens_details: { cached_tokens: 10 },
      });
    }

    up.script({ text: '', toolCalls: calls });
    const plain = await client.chat.completions.create({
      model: 'corvid-medium',
      messages: [{ role: 'user', content: 'go' }],
      tools,
    });
    expect(plain.choices[0].message.content).toBeNull();
    expect(plain.choices[0].message.tool_calls).toHaveLength(2);

    // The results go back as one user turn of tool_result blocks, ids kept.
    up.script({ text: 'Done.' });
    await client.chat.completions.create({
      model: 'corvid-medium',
      messages: [
        { role: 'user', content: 'go' },
        plain.choices[0].message,
        { role: 'tool', tool_call_id: 'call_A1', content: '18C' },
        { role: 'tool', tool_call_id: 'call_B2', content: '12:00' },
      ],
      tools,
    });
    expect(up.received.at(-1)!.body.messages).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.arguments) })),
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_A1', content: '18C' },
          { type: 'tool_result', tool_use_id: 'call_B2', content: '12:00' },
        ],
      },
    ]);

    up.script({ text: '', toolCalls: calls, argPiece: 1 });
    const r = await client.responses
      .stream({
        model: 'corvid-medium',
        input: 'go',
        tools: [{ type: 'function', name: 'get_time', parameters: TIME_SCHEMA, strict: false }],
      })
      .finalResponse();
    expect(r.output.map((o) => (o.type === 'function_call' ? [o.call_id, o.name, o.arguments] : o.type))).toEqual(
      calls.map((c) => [c.id, c.name, c.arguments]),
    );
  });

  it('every surface through every upstream family, plain and streamed: parallel calls, stop reasons, usage', async () => {
    const { key } = await newKey();
    type Seen = { calls: Array<[string, string, unknown]>; stop: string; input: number; output: number };
    const params = { get_weather: WEATHER_SCHEMA, get_time: TIME_SCHEMA };
    const surfaces: Record<string, (model: string, stream: boolean) => Promise<Seen>> = {
      chat: async (model, stream) => {
        const tools = Object.entries(params).map(([name, parameters]) => ({
          type: 'function' as const,
          function: { name, parameters },
        }));
        const req = {
          model,
          messages: [{ role: 'user' as const, content: 'go' }],
          tools,
          stream_options: stream ? { include_usage: true } : undefined,
        };
        const r = stream
          ? await openai(key).chat.completions.stream(req).finalChatCompletion()
          : await openai(key).chat.completions.create(req);
        const m = r.choices[0].message;
        return {
          calls: (m.tool_calls ?? []).map((c) =>
            c.type === 'function' ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : ['', '', null],
          ),
          stop: r.choices[0].finish_reason,
          input: r.usage!.prompt_tokens,
          output: r.usage!.completion_tokens,
        };
      },
      responses: async (model, stream) => {
        const tools = Object.entries(params).map(([name, parameters]) => ({
          type: 'function' as const,
          name,
          parameters,
          strict: false,
        }));
        const req = { model, input: 'go', tools };
        const r = stream
          ? await openai(key).responses.stream(req).finalResponse()
          : await openai(key).responses.create(req);
        return {
          calls: r.output.flatMap((o) =>
            o.type === 'function_call'
              ? [[o.call_id, o.name, JSON.parse(o.arguments)] as [string, string, unknown]]
              : [],
          ),
          stop: r.status ?? '',
          input: r.usage!.input_tokens,
          output: r.usage!.output_tokens,
        };
      },
      messages: async (model, stream) => {
        const tools = Object.entries(params).map(([name, input_schema]) => ({
          name,
          input_schema: input_schema as Anthropic.Tool.InputSchema,
        }));
        const req = { model, max_tokens: 500, messages: [{ role: 'user' as const, content: 'go' }], tools };
        const r = stream
          ? await anthropic(key).messages.stream(req).finalMessage()
          : await anthropic(key).messages.create(req);
        return {
          calls: r.content.flatMap((b) =>
            b.type === 'tool_use' ? [[b.id, b.name, b.input] as [string, string, unknown]] : [],
          ),
          stop: r.stop_reason ?? '',
          input: r.usage.input_tokens,
          output: r.usage.output_tokens,
        };
      },
    };
    const stops = { chat: 'tool_calls', responses: 'completed', messages: 'tool_use' };
    const upstreams = [
      {
        model: 'aster-large',
        usage: [33, 9],
        sent: (b: any) => b.tools.map((t: any) => [t.type, t.function.name, t.function.parameters]),
      },
      {
        model: 'corvid-medium',
        usage: [21, 7],
        sent: (b: any) => b.tools.map((t: any) => ['function', t.name, t.input_schema]),
      },
    ];
    for (const [surface, call] of Object.entries(surfaces)) {
      for (const u of upstreams) {
        for (const stream of [false, true]) {
          up.script({ text: '', toolCalls: calls, argPiece: 2 });
          const seen = await call(u.model, stream);
          const where = `${surface} via ${u.model}${stream ? ' streamed' : ''}`;
          expect(u.sent(up.received.at(-1)!.body), where).toEqual(
            Object.entries(params).map(([n, s]) => ['function', n, s]),
          );
          expect(seen, where).toEqual({
            calls: calls.map((c) => [c.id, c.name, JSON.parse(c.arguments)]),
            stop: stops[surface as keyof typeof stops],
            input: u.usage[0],
            output: u.usage[1],
          });
        }
      }
    }
  });
});

describe('a model that cannot use tools continues a conversation that holds earlier tool calls (issue 41)', () => {
  it('facet-echo answers on Chat Completions, Responses (through previous_response_id) and Messages', async () => {
    const { key } = await newKey();
    const oa = openai(key);
    const chat = await oa.chat.completions.create({
      model: 'facet-echo',
      messages: [
        { role: 'user', content: ASK },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: WEATHER_RESULT },
        { role: 'user', content: 'thanks' },
      ],
    });
    expect(chat.choices[0].message.content).toBe('thanks');

    // An agent turn with tools, then a continuation on facet-echo that offers none.
    const tools: OpenAI.Responses.Tool[] = [
      { type: 'function', name: 'get_weather', parameters: WEATHER_SCHEMA, strict: true },
    ];
    const first = await oa.responses.create({ model: 'facet-agent', input: ASK, tools });
    const call = first.output[0];
    if (call.type !== 'function_call') throw new Error(`expected a function_call, got ${call.type}`);
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { type: 'function_call_output', call_id: call.call_id, output: WEATHER_RESULT },
      { role: 'user', content: 'thanks' },
    ];
    const next = await oa.responses.create({ model: 'facet-echo', previous_response_id: first.id, input });
    expect(next.output_text).toBe('thanks');
    const streamed = await oa.responses
      .stream({ model: 'facet-echo', previous_response_id: first.id, input })
      .finalResponse();
    expect(streamed.output_text).toBe('thanks');

    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: ASK },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: WEATHER_RESULT },
          { type: 'text', text: 'thanks' },
        ],
      },
    ];
    const msg = await anthropic(key).messages.create({ model: 'facet-echo', max_tokens: 50, messages });
    expect(msg.content).toEqual([{ type: 'text', text: 'thanks' }]);
    const msgStreamed = await anthropic(key)
      .messages.stream({ model: 'facet-echo', max_tokens: 50, messages })
      .finalMessage();
    expect(msgStreamed.content).toEqual([{ type: 'text', text: 'thanks' }]);
  });
});
