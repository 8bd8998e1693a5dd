import Anthropic from '@anthropic-ai/sdk';
import { jsonSchemaOutputFormat } from '@anthropic-ai/sdk/helpers/json-schema';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { jsonSchema, streamObject, type LanguageModel } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';
import { schemaJudge } from '../helpers/schema-table.js';

/**
 * Unmodified clients against facet-agent (issue 27, items 2, 5 and 6): the Anthropic SDK's
 * messages.parse with output_config.format (and beta.messages.parse with output_format), the
 * Vercel AI SDK's streamObject receiving several partials on each surface, and tool arguments
 * taken from natural phrases ("the weather in Paris").
 */
let p: Platform;
let ant: Anthropic;
let oai: OpenAI;
const judge = schemaJudge();
beforeAll(async () => {
  p = await startPlatform();
  ant = new Anthropic({ apiKey: p.boot.api_key, baseURL: `${p.url}/api`, maxRetries: 0, timeout: 20_000 });
  oai = new OpenAI({ apiKey: p.boot.api_key, baseURL: `${p.url}/api/v1`, maxRetries: 0, timeout: 20_000 });
});
afterAll(() => p?.cleanup());

const CONTACT = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'the person to contact' },
    email: { type: 'string', format: 'email' },
    tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } },
    age: { type: 'integer', minimum: 18, maximum: 120 },
  },
  required: ['name', 'email', 'tags', 'age'],
  additionalProperties: false,
} as const;
const ASK = 'Add a contact named Grace Hopper, age 85';

describe('Messages structured output with the Anthropic SDK', () => {
  it('messages.parse with output_config.format gives parsed_output valid against the schema', async () => {
    const msg = await ant.messages.parse({
      model: 'facet-agent',
      max_tokens: 500,
      messages: [{ role: 'user', content: ASK }],
      output_config: { format: jsonSchemaOutputFormat(CONTACT) },
    });
    expect(judge(CONTACT, msg.parsed_output)).toBeNull();
    expect(msg.parsed_output).toMatchObject({ name: 'Grace Hopper', age: 85 });
  });

  it('beta.messages.parse with the older output_format, and messages.stream, give the same object', async () => {
    const beta = await ant.beta.messages.parse({
      model: 'facet-agent',
      max_tokens: 500,
      messages: [{ role: 'user', content: ASK }],
      output_format: { type: 'json_schema', schema: CONTACT },
    });
    // transform: false sends the schema as written (the default moves keywords such as pattern into descriptions).
    const format = jsonSchemaOutputFormat(CONTACT, { transform: false });
    const streamed = await ant.messages
      .stream({
        model: 'facet-agent',
        max_tokens: 500,
        messages: [{ role: 'user', content: ASK }],
        output_config: { format },
      })
      .finalMessage();
    expect(judge(CONTACT, beta.parsed_output)).toBeNull();
    expect(streamed.parsed_output).toEqual(beta.parsed_output);
  });

  it('a model that cannot answer in a format refuses with 400 in the Anthropic shape; both spellings at once are refused', async () => {
    const format = { type: 'json_schema' as const, schema: CONTACT };
    const echo = await ant.messages
      .create({
        model: 'facet-echo',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hi' }],
        output_config: { format },
      })
      .catch((e: unknown) => e);
    expect(echo).toBeInstanceOf(Anthropic.BadRequestError);
    expect((echo as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
    expect(String((echo as Error).message)).toMatch(/cannot answer in a given JSON format/);
    const both = await ant.messages
      .create({
        model: 'facet-agent',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hi' }],
        output_config: { format },
        output_format: format,
      } as never)
      .catch((e: unknown) => e);
    expect(both).toBeInstanceOf(Anthropic.BadRequestError);
  });
});

describe('Vercel AI SDK streamObject sees the object grow', () => {
  const key = () => p.boot.api_key;
  const models: Array<[string, () => LanguageModel, Record<string, any>?]> = [
    ['Chat Completions', () => createOpenAI({ apiKey: key(), baseURL: `${p.url}/api/v1` }).chat('facet-agent')],
    ['Responses', () => createOpenAI({ apiKey: key(), baseURL: `${p.url}/api/v1` }).responses('facet-agent')],
    ['Messages (json tool)', () => createAnthropic({ apiKey: key(), baseURL: `${p.url}/api/v1` })('facet-agent')],
    [
      'Messages (output_config.format)',
      () => createAnthropic({ apiKey: key(), baseURL: `${p.url}/api/v1` })('facet-agent'),
      { anthropic: { structuredOutputMode: 'outputFormat' } },
    ],
  ];
  it.each(models)('%s: several partials, then the whole object, valid', async (_name, model, providerOptions) => {
    const r = streamObject({
      model: model(),
      schema: jsonSchema<Record<string, unknown>>(CONTACT as unknown as Parameters<typeof jsonSchema>[0]),
      prompt: ASK,
      providerOptions,
    });
    const partials: unknown[] = [];
    for await (const partial of r.partialObjectStream) partials.push(partial);
    const object = await r.object;
    expect(partials.length).toBeGreaterThanOrEqual(5);
    expect(judge(CONTACT, object)).toBeNull();
    expect(object).toMatchObject({ name: 'Grace Hopper', age: 85 });
  });
});

describe('tool arguments from natural phrases', () => {
  const WEATHER = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  it('"What is the weather in Paris?" calls get_weather with {"city":"Paris"} on every surface', async () => {
    const ask = 'What is the weather in Paris?';
    const chat = await oai.chat.completions.create({
      model: 'facet-agent',
      messages: [{ role: 'user', content: ask }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER } }],
      tool_choice: 'required',
    });
    const call = chat.choices[0].message.tool_calls![0];
    expect(call.type === 'function' && call.function.arguments).toBe('{"city":"Paris"}');
    const resp = await oai.responses.create({
      model: 'facet-agent',
      input: ask,
      tools: [{ type: 'function', name: 'get_weather', parameters: WEATHER, strict: false }],
      tool_choice: 'required',
    });
    expect(resp.output.find((o) => o.type === 'function_call')).toMatchObject({
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
    const msg = await ant.messages.create({
      model: 'facet-agent',
      max_tokens: 200,
      messages: [{ role: 'user', content: ask }],
      tools: [{ name: 'get_weather', input_schema: WEATHER as Anthropic.Tool.InputSchema }],
      tool_choice: { type: 'any' },
    });
    expect(msg.content.find((b) => b.type === 'tool_use')).toMatchObject({
      name: 'get_weather',
      input: { city: 'Paris' },
    });
  });

  const FLIGHT = {
    type: 'object',
    properties: {
      origin: { type: 'string', description: 'departure city' },
      destination: { type: 'string', description: 'arrival city' },
      passengers: { type: 'integer', minimum: 1, description: 'number of travellers' },
    },
    required: ['origin', 'destination', 'passengers'],
  };
  it.each([
    [
      'Book a flight from Lisbon to New York for 2 travellers',
      { origin: 'Lisbon', destination: 'New York', passengers: 2 },
    ],
    [
      'Arrival Rome, departure Madrid, 3 travellers on 12 May',
      { origin: 'Madrid', destination: 'Rome', passengers: 3 },
    ],
    [
      'book_flight origin: Oslo destination="Kyiv" passengers=4',
      { origin: 'Oslo', destination: 'Kyiv', passengers: 4 },
    ],
  ])('%s', async (ask, expected) => {
    const r = await oai.chat.completions.create({
      model: 'facet-agent',
      messages: [{ role: 'user', content: ask }],
      tools: [{ type: 'function', function: { name: 'book_flight', parameters: FLIGHT } }],
      tool_choice: 'required',
    });
    const call = r.choices[0].message.tool_calls![0];
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual(expected);
  });
});
