import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';
import { SCHEMA_TABLE, UNSATISFIABLE, schemaJudge } from '../helpers/schema-table.js';

/**
 * facet-agent honours schemas whole (issue 27, items 2, 4 and 6): for every schema of the table, on
 * each of the three surfaces, the structured answer and a forced tool call's arguments validate with
 * Ajv, plain and streamed; the stream reassembles to the plain answer and comes in several deltas;
 * a schema no value satisfies is refused with a 400 in the surface's error shape.
 */
let p: Platform;
let oai: OpenAI;
let ant: Anthropic;
const judge = schemaJudge();
beforeAll(async () => {
  p = await startPlatform();
  oai = new OpenAI({ apiKey: p.boot.api_key, baseURL: `${p.url}/api/v1`, maxRetries: 0, timeout: 20_000 });
  ant = new Anthropic({ apiKey: p.boot.api_key, baseURL: `${p.url}/api`, maxRetries: 0, timeout: 20_000 });
});
afterAll(() => p?.cleanup());

const PROMPT = 'Record the order for "Ada Lovelace" in Paris, 3 items, color #00ff00, named Widget';
type Schema = Record<string, unknown>;
/** One answer: its JSON text and how many deltas carried it (1 when not streamed). */
type Answer = { text: string; deltas: number };
type Surface = {
  name: string;
  format: (s: Schema, stream: boolean) => Promise<Answer>;
  tool: (s: Schema, stream: boolean) => Promise<Answer>;
};

const messages = [{ role: 'user' as const, content: PROMPT }];
const SURFACES: Surface[] = [
  {
    name: 'Chat Completions',
    format: async (schema, stream) => {
      const body = {
        model: 'facet-agent',
        messages,
        response_format: { type: 'json_schema' as const, json_schema: { name: 'answer', schema } },
      };
      if (!stream)
        return { text: (await oai.chat.completions.create(body)).choices[0].message.content ?? '', deltas: 1 };
      const pieces: string[] = [];
      for await (const c of await oai.chat.completions.create({ ...body, stream: true }))
        if (c.choices[0]?.delta.content) pieces.push(c.choices[0].delta.content);
      return { text: pieces.join(''), deltas: pieces.length };
    },
    tool: async (schema, stream) => {
      const body = {
        model: 'facet-agent',
        messages,
        tools: [{ type: 'function' as const, function: { name: 'record', parameters: schema } }],
        tool_choice: { type: 'function' as const, function: { name: 'record' } },
      };
      if (!stream) {
        const call = (await oai.chat.completions.create(body)).choices[0].message.tool_calls![0];
        return { text: call.type === 'function' ? call.function.arguments : '', deltas: 1 };
      }
      const pieces: string[] = [];
      for await (const c of await oai.chat.completions.create({ ...body, stream: true })) {
        const a = c.choices[0]?.delta.tool_calls?.[0]?.function?.arguments;
        if (a) pieces.push(a);
      }
      return { text: pieces.join(''), deltas: pieces.length };
    },
  },
  {
    name: 'Responses',
    format: async (schema, stream) => {
      const body = {
        model: 'facet-agent',
        input: PROMPT,
        text: { format: { type: 'json_schema' as const, name: 'answer', schema } },
      };
      if (!stream) return { text: (await oai.responses.create(body)).output_text, deltas: 1 };
      const pieces: string[] = [];
      for await (const e of await oai.responses.create({ ...body, stream: true }))
        if (e.type === 'response.output_text.delta') pieces.push(e.delta);
      return { text: pieces.join(''), deltas: pieces.length };
    },
    tool: async (schema, stream) => {
      const body = {
        model: 'facet-agent',
        input: PROMPT,
        tools: [{ type: 'function' as const, name: 'record', parameters: schema, strict: false }],
        tool_choice: { type: 'function' as const, name: 'record' },
      };
      if (!stream) {
        const item = (await oai.responses.create(body)).output.find((o) => o.type === 'function_call');
        return { text: item?.type === 'function_call' ? item.arguments : '', deltas: 1 };
      }
      const pieces: string[] = [];
      for await (const e of await oai.responses.create({ ...body, stream: true }))
        if (e.type === 'response.function_call_arguments.delta') pieces.push(e.delta);
      return { text: pieces.join(''), deltas: pieces.length };
    },
  },
  {
    name: 'Messages',
    format: async (schema, stream) => {
      const body = {
        model: 'facet-agent',
        max_tokens: 2000,
        messages,
        output_config: { format: { type: 'json_schema' as const, schema } },
      };
      if (!stream) {
        const block = (await ant.messages.create(body)).content[0];
        return { text: block.type === 'text' ? block.text : '', deltas: 1 };
      }
      const pieces: string[] = [];
      for await (const e of await ant.messages.create({ ...body, stream: true }))
        if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') pieces.push(e.delta.text);
      return { text: pieces.join(''), deltas: pieces.length };
    },
    tool: async (schema, stream) => {
      const body = {
        model: 'facet-agent',
        max_tokens: 2000,
        messages,
        tools: [{ name: 'record', input_schema: schema as Anthropic.Tool.InputSchema }],
        tool_choice: { type: 'tool' as const, name: 'record' },
      };
      if (!stream) {
        const block = (await ant.messages.create(body)).content.find((b) => b.type === 'tool_use');
        return { text: JSON.stringify(block?.type === 'tool_use' ? block.input : null), deltas: 1 };
      }
      const pieces: string[] = [];
      for await (const e of await ant.messages.create({ ...body, stream: true }))
        if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta') pieces.push(e.delta.partial_json);
      return { text: pieces.join(''), deltas: pieces.length };
    },
  },
];

describe('the schema table on every surface', () => {
  for (const surface of SURFACES) {
    it.each(SCHEMA_TABLE)(
      `${surface.name}: %s — answer and tool arguments valid, streamed alike in several deltas`,
      async (_name, schema) => {
        for (const kind of ['format', 'tool'] as const) {
          const plain = await surface[kind](schema, false);
          const again = await surface[kind](schema, false);
          const streamed = await surface[kind](schema, true);
          const value: unknown = JSON.parse(plain.text);
          expect(judge(schema, value), `${kind}`).toBeNull();
          // Deterministic, and the stream carries the same JSON as the plain answer.
          expect(again.text).toBe(plain.text);
          expect(JSON.parse(streamed.text)).toEqual(value);
          if (kind === 'format') expect(streamed.text).toBe(plain.text);
          expect(streamed.deltas, `${kind} deltas`).toBeGreaterThan(Math.min(3, Math.floor(plain.text.length / 8)));
        }
      },
    );
  }
});

describe('schemas facet-agent cannot answer', () => {
  it.each(UNSATISFIABLE)('%s: 400 on every surface, structured output and tools', async (_name, schema) => {
    for (const surface of SURFACES) {
      for (const kind of ['format', 'tool'] as const) {
        for (const stream of [false, true]) {
          const err = await surface[kind](schema, stream).then(
            () => null,
            (e: unknown) => e,
          );
          expect(err, `${surface.name} ${kind} stream=${stream}`).toBeInstanceOf(
            surface.name === 'Messages' ? Anthropic.BadRequestError : OpenAI.BadRequestError,
          );
          const e = err as { status: number; error: Record<string, any> };
          expect(e.status).toBe(400);
          if (surface.name === 'Messages') {
            expect(e.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
            expect(e.error.error.message).toMatch(/cannot answer this schema/);
          } else {
            expect(e.error).toMatchObject({ code: 'schema_unsatisfiable' });
            expect(e.error.message).toMatch(/cannot answer this schema/);
          }
        }
      }
    }
  });
});
