import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';
import { pollWhile } from '../helpers/health-probe.js';

/**
 * Issue 38: the schema and body inputs that froze the server or blocked its event loop, each sent
 * while /healthz is polled. Every one is refused (or answered) in its surface's error shape, at
 * once, and /healthz keeps answering; before, `{"$ref":"#"}` froze the server for good.
 */
let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

type Schema = Record<string, unknown>;
const SELF: Schema = { $ref: '#' };
const ALIAS: Schema = { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' };
const HUGE = { type: 'string', minLength: 300_000_000 };
const HUGER = { type: 'string', minLength: 1e9 };
const user = [{ role: 'user', content: 'record it' }];

/** Every way the issue sent a caller's schema to facet-agent, for one schema. */
function requests(schema: Schema): Array<[string, string, Record<string, unknown>, 'openai' | 'anthropic']> {
  const tool = { type: 'function', function: { name: 'record', parameters: schema } };
  return [
    [
      'chat response_format',
      '/api/v1/chat/completions',
      {
        model: 'facet-agent',
        messages: user,
        response_format: { type: 'json_schema', json_schema: { name: 'a', schema } },
      },
      'openai',
    ],
    [
      'chat response_format, streamed',
      '/api/v1/chat/completions',
      {
        model: 'facet-agent',
        messages: user,
        stream: true,
        response_format: { type: 'json_schema', json_schema: { name: 'a', schema } },
      },
      'openai',
    ],
    [
      'chat tools',
      '/api/v1/chat/completions',
      { model: 'facet-agent', messages: user, tools: [tool], tool_choice: 'required' },
      'openai',
    ],
    [
      'responses text.format, streamed',
      '/api/v1/responses',
      {
        model: 'facet-agent',
        input: 'record it',
        stream: true,
        text: { format: { type: 'json_schema', name: 'a', schema } },
      },
      'openai',
    ],
    [
      'responses input_tokens',
      '/api/v1/responses/input_tokens',
      { model: 'facet-agent', input: 'record it', text: { format: { type: 'json_schema', name: 'a', schema } } },
      'openai',
    ],
    [
      'messages output_format',
      '/api/v1/messages',
      { model: 'facet-agent', max_tokens: 100, messages: user, output_format: { type: 'json_schema', schema } },
      'anthropic',
    ],
    [
      'messages tools, tool_choice any',
      '/api/v1/messages',
      {
        model: 'facet-agent',
        max_tokens: 100,
        messages: user,
        tools: [{ name: 'record', input_schema: schema }],
        tool_choice: { type: 'any' },
      },
      'anthropic',
    ],
    [
      'messages count_tokens',
      '/api/v1/messages/count_tokens',
      { model: 'facet-agent', messages: user, tools: [{ name: 'record', input_schema: schema }] },
      'anthropic',
    ],
  ];
}

async function send(path: string, body: unknown, family: 'openai' | 'anthropic') {
  const auth: Record<string, string> =
    family === 'openai'
      ? { authorization: `Bearer ${p.boot.api_key}` }
      : { 'x-api-key': p.boot.api_key, 'anthropic-version': '2023-06-01' };
  const r = await p.fetch(path, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: r.status, body: (await r.json()) as Record<string, any> };
}

describe('schemas that froze the server are refused at once, in each surface’s shape', () => {
  it.each([
    ['{"$ref":"#"}', SELF, /closes a cycle/],
    ['an alias cycle a → b → a', ALIAS, /closes a cycle/],
    ['minLength 300000000', HUGE, /minLength asks for a value longer than the answer can hold/],
    ['minLength 1e9', HUGER, /minLength asks for a value longer than the answer can hold/],
  ])('%s', async (_name, schema, reason) => {
    const work = (async () => {
      const out: Array<[string, Awaited<ReturnType<typeof send>>]> = [];
      for (const [name, path, body, family] of requests(schema)) out.push([name, await send(path, body, family)]);
      return out;
    })();
    const { result, polls } = await pollWhile(p, work, 50);
    for (const [name, res] of result) {
      expect(res.status, name).toBe(400);
      if (path(name) === 'anthropic') {
        expect(res.body, name).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
        expect(res.body.error.message, name).toMatch(/cannot answer this schema/);
        expect(res.body.error.message, name).toMatch(reason);
      } else {
        expect(res.body.error, name).toMatchObject({ type: 'invalid_request_error', code: 'schema_unsatisfiable' });
        expect(res.body.error.message, name).toMatch(reason);
        expect(res.body.error.param, name).toMatch(/format|parameters/);
      }
    }
    // Loose for a loaded machine: before, /healthz never answered again.
    expect(Math.max(...polls)).toBeLessThan(1_000);
  });

  it('a cycle on an optional property is left out, and the answer is valid', async () => {
    const schema = {
      type: 'object',
      $defs: ALIAS.$defs,
      properties: { name: { type: 'string' }, loop: { $ref: '#/$defs/a' } },
      required: ['name'],
    };
    const res = await send(
      '/api/v1/chat/completions',
      {
        model: 'facet-agent',
        messages: [{ role: 'user', content: 'name: Ada loop: yes' }],
        response_format: { type: 'json_schema', json_schema: { name: 'a', schema } },
      },
      'openai',
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.choices[0].message.content)).toEqual({ name: 'Ada' });
  });
});

function path(name: string): 'openai' | 'anthropic' {
  return name.startsWith('messages') ? 'anthropic' : 'openai';
}

describe('a JSON body of 700,000 keys', () => {
  // 8.3 MB, as the issue sent it: under the 10 MiB body limit.
  const huge = `{${Array.from({ length: 700_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
  it.each([
    ['/api/v1/chat/completions', 'openai'],
    ['/api/v1/messages', 'anthropic'],
    ['/v2/chat', 'v2'],
  ])('%s: 413 before it is parsed, /healthz answering meanwhile', async (route, family) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      authorization: `Bearer ${p.boot.api_key}`,
      ...(family === 'anthropic' ? { 'anthropic-version': '2023-06-01' } : {}),
    };
    const { result, polls } = await pollWhile(
      p,
      p
        .fetch(route, { method: 'POST', headers, body: huge })
        .then(async (r) => ({ status: r.status, body: await r.json() })),
      20,
    );
    expect(result.status).toBe(413);
    const message = family === 'v2' ? result.body.message : result.body.error.message;
    expect(message).toMatch(/more than 10000 members/);
    if (family === 'anthropic')
      expect(result.body).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    expect(polls.length).toBeGreaterThan(0);
    // Parsing these 700,000 keys holds the loop for seconds (2.5 s and more here): a poll answered
    // well under that means the body was refused unparsed, even on a busy CI machine.
    expect(Math.max(...polls)).toBeLessThan(1500);
  });

  it('a large body within the limits is read as before', async () => {
    const content = 'word '.repeat(60_000); // 300 KB: measured off the loop, then parsed
    const res = await send(
      '/api/v1/messages/count_tokens',
      { model: 'facet-echo', messages: [{ role: 'user', content }] },
      'anthropic',
    );
    expect(res.status).toBe(200);
    expect(res.body.input_tokens).toBeGreaterThan(60_000);
    const invalid = await p.fetch('/api/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' },
      body: `{"model":"facet-echo","messages":[{"role":"user","content":"${'x'.repeat(200_000)}"}`,
    });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { message: string } }).error.message).toMatch(/JSON/);
  });
});
