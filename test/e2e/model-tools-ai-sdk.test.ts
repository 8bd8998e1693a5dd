import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * The Vercel AI SDK's tool calling (generateText and streamText, several steps) against the local
 * platform, on each surface: the model asks for a tool, the SDK runs it, the model answers from the
 * result (issue 16, Proof).
 */
let p: Platform;
let key: string;

beforeAll(async () => {
  p = await startPlatform();
  const r = await p.cli(['keys', 'create', '--json']);
  expect(r.exitCode, r.stderr).toBe(0);
  key = JSON.parse(r.stdout).key;
});
afterAll(() => p?.cleanup());

const weather = tool({
  description: 'The weather in a city',
  inputSchema: jsonSchema<{ city: string; unit: 'celsius' | 'fahrenheit' }>({
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  }),
  execute: async ({ city, unit }) => ({ city, temperature: unit === 'celsius' ? 18 : 64 }),
});

const surfaces: Array<[string, () => LanguageModel]> = [
  ['Chat Completions', () => createOpenAI({ apiKey: key, baseURL: `${p.url}/api/v1` }).chat('facet-agent')],
  ['Responses', () => createOpenAI({ apiKey: key, baseURL: `${p.url}/api/v1` }).responses('facet-agent')],
  ['Messages', () => createAnthropic({ apiKey: key, baseURL: `${p.url}/api/v1` })('facet-agent')],
];
const PROMPT = 'Call get_weather for city: Lisbon in celsius';
const ANSWER = 'get_weather: {"city":"Lisbon","temperature":18}';

describe('Vercel AI SDK tool calling on facet-agent', () => {
  it.each(surfaces)('%s: generateText runs the tool and answers from its result', async (_name, model) => {
    const r = await generateText({
      model: model(),
      tools: { get_weather: weather },
      stopWhen: stepCountIs(4),
      maxOutputTokens: 300,
      prompt: PROMPT,
    });
    expect(r.steps).toHaveLength(2);
    expect(r.steps[0].finishReason).toBe('tool-calls');
    expect(r.steps[0].toolCalls[0]).toMatchObject({
      toolName: 'get_weather',
      input: { city: 'Lisbon', unit: 'celsius' },
    });
    expect(r.text).toBe(ANSWER);
    expect(r.finishReason).toBe('stop');
    expect(r.totalUsage.inputTokens).toBeGreaterThan(0);
  });

  it.each(surfaces)('%s: streamText streams the call, runs the tool and streams the answer', async (_name, model) => {
    const r = streamText({
      model: model(),
      tools: { get_weather: weather },
      stopWhen: stepCountIs(4),
      maxOutputTokens: 300,
      prompt: PROMPT,
    });
    const parts: string[] = [];
    for await (const part of r.fullStream) parts.push(part.type);
    expect(parts).toContain('tool-input-delta');
    expect(parts).toContain('tool-result');
    expect(await r.text).toBe(ANSWER);
    expect((await r.steps).length).toBe(2);
  });
});
