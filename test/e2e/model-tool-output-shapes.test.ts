import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';

/**
 * Issue 46: a tool result's output in any shape is either taken (as the SDKs send it: a string or
 * text parts; a JSON value as its text) or refused with 400 naming the field in the surface's own
 * error shape — never a 500 (`[null]` and an object were 500 on all three surfaces).
 */
let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

const post = (path: string, body: unknown) =>
  p.fetch(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const responsesBody = (output: unknown) => ({
  model: 'facet-agent',
  input: [
    { role: 'user', content: 'What is the weather in Paris?' },
    { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call_output', call_id: 'call_1', output },
  ],
});
const messagesBody = (content: unknown) => ({
  model: 'facet-agent',
  max_tokens: 64,
  messages: [
    { role: 'user', content: 'What is the weather in Paris?' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content }] },
  ],
});

/** Shapes a program may send, and whether each is taken. */
const SHAPES: Array<{ name: string; shape: unknown; verdict: 'taken' | 'refused' }> = [
  { name: 'a string', shape: '18C', verdict: 'taken' },
  { name: 'text parts', shape: [{ type: 'TEXT', text: '18C' }], verdict: 'taken' },
  { name: 'an object', shape: { temperature: 18 }, verdict: 'taken' },
  { name: 'a number', shape: 18, verdict: 'taken' },
  { name: 'a boolean', shape: true, verdict: 'taken' },
  { name: 'nothing (null)', shape: null, verdict: 'taken' },
  { name: '[null]', shape: [null], verdict: 'refused' },
  { name: '[1]', shape: [1], verdict: 'refused' },
  { name: '[[]]', shape: [[]], verdict: 'refused' },
  { name: 'a part without a type', shape: [{ text: '18C' }], verdict: 'refused' },
  { name: 'a part whose text is no string', shape: [{ type: 'TEXT', text: 18 }], verdict: 'refused' },
  {
    name: 'an image part',
    shape: [{ type: 'IMAGE', source: { type: 'url', url: 'https://example.com/a.png' } }],
    verdict: 'refused',
  },
];

const surfaces = [
  {
    name: '/api/v1/responses',
    path: '/api/v1/responses',
    body: responsesBody,
    text: 'input_text',
    field: 'input[2].output',
    error: (b: any) => b.error?.message as string,
  },
  {
    name: '/api/v1/responses/input_tokens',
    path: '/api/v1/responses/input_tokens',
    body: responsesBody,
    text: 'input_text',
    field: 'input[2].output',
    error: (b: any) => b.error?.message as string,
  },
  {
    name: '/api/v1/messages',
    path: '/api/v1/messages',
    body: messagesBody,
    text: 'text',
    field: 'messages[2].content[0].content',
    error: (b: any) => (b.type === 'error' ? (b.error?.message as string) : undefined),
  },
];

describe.each(surfaces)('$name: a tool output', (s) => {
  it.each(SHAPES)('$name is $verdict', async ({ shape, verdict }) => {
    // Parts take the surface's own text type and image type.
    const output = JSON.parse(
      JSON.stringify(shape)
        .replaceAll('"TEXT"', JSON.stringify(s.text))
        .replaceAll('"IMAGE"', s.text === 'text' ? '"image"' : '"input_image"'),
    );
    const res = await post(s.path, s.body(output));
    const body = await res.json();
    if (verdict === 'taken') {
      expect(res.status, JSON.stringify(body)).toBe(200);
      return;
    }
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(s.error(body)).toContain(s.field);
  });
});
