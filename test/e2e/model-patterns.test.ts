import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../helpers/platform.js';
import { pollWhile } from '../helpers/health-probe.js';

/**
 * Caller-supplied regular expressions (a JSON Schema `pattern` in a structured-output or tool schema)
 * run on RE2, in time linear in the text: a catastrophic-backtracking pattern cannot freeze the
 * server, and a pattern RE2 cannot run (backreferences, lookaround) is refused with a 400 in the
 * family's error shape, naming the pattern (issue 25).
 */
let p: Platform;
beforeAll(async () => {
  p = await startPlatform();
});
afterAll(() => p?.cleanup());

const post = (pathname: string, body: unknown) =>
  p.fetch(pathname, {
    method: 'POST',
    headers: { Authorization: `Bearer ${p.boot.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const REDOS = '^(a+)+$';
const EVIL = `code: "${'a'.repeat(26)}!"`;
const schemaWith = (pattern: string) => ({
  type: 'object',
  properties: { code: { type: 'string', pattern } },
  required: ['code'],
  additionalProperties: false,
});

describe('caller-supplied patterns', () => {
  it('a catastrophic-backtracking pattern answers within a second while /healthz stays fast', async () => {
    // Warm up: the tokenizer loads its ranks on the first model call.
    expect(
      (await post('/api/v1/chat/completions', { model: 'facet-agent', messages: [{ role: 'user', content: 'hi' }] }))
        .status,
    ).toBe(200);
    const started = performance.now();
    const call = post('/api/v1/chat/completions', {
      model: 'facet-agent',
      messages: [{ role: 'user', content: EVIL }],
      response_format: { type: 'json_schema', json_schema: { name: 'code', schema: schemaWith(REDOS) } },
    }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { choices: Array<{ message: { content: string } }> },
      ms: performance.now() - started,
    }));
    const { polls } = await pollWhile(p, call, 50);
    const { status, body, ms } = await call;
    expect(status).toBe(200);
    expect(ms).toBeLessThan(1000);
    expect(Math.max(...polls)).toBeLessThan(1000);
    // The text's value does not match the pattern, so a value is written from the pattern (issue 27).
    expect(JSON.parse(body.choices[0].message.content)).toEqual({ code: 'a' });
  });

  it('a property whose name is blank finds its value in time linear in the text', async () => {
    // `name\s*[:=]` built around a blank name once tried every space of a long run of spaces.
    const schema = { type: 'object', properties: { ' ': { type: 'string' } }, required: [' '] };
    const started = performance.now();
    const call = post('/api/v1/chat/completions', {
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'x' + ' '.repeat(150_000) }],
      response_format: { type: 'json_schema', json_schema: { name: 'blank', schema } },
    }).then(async (r) => ({
      status: r.status,
      ms: performance.now() - started,
      body: (await r.json()) as { choices: Array<{ message: { content: string } }> },
    }));
    const { polls } = await pollWhile(p, call, 50);
    const { status, ms, body } = await call;
    expect(status).toBe(200);
    // Quadratic, this took tens of seconds; linear, well under a second on an idle machine.
    expect(ms).toBeLessThan(8000);
    expect(Math.max(...polls)).toBeLessThan(2000);
    expect(JSON.parse(body.choices[0].message.content)).toEqual({ ' ': ' ' });
  });

  it('a pattern that matches still chooses the value the same way', async () => {
    const r = await post('/api/v1/chat/completions', {
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'code: "B12"' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'code',
          schema: {
            type: 'object',
            properties: { code: { type: 'string', pattern: '^[A-Z]\\d+$', examples: ['Z9'] } },
            required: ['code'],
          },
        },
      },
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { choices: Array<{ message: { content: string } }> };
    expect(JSON.parse(body.choices[0].message.content)).toEqual({ code: 'B12' });
    const miss = await post('/api/v1/chat/completions', {
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'code: "lower"' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'code',
          schema: {
            type: 'object',
            properties: { code: { type: 'string', pattern: '^[A-Z]\\u0039?\\d+$', examples: ['nope', 'Z9'] } },
            required: ['code'],
          },
        },
      },
    });
    expect(miss.status).toBe(200);
    expect(
      JSON.parse(
        ((await miss.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content,
      ),
    ).toEqual({ code: 'Z9' });
  });

  it('Chat Completions refuses a backreference in response_format with its error shape, naming the pattern', async () => {
    const r = await post('/api/v1/chat/completions', {
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_schema', json_schema: { name: 'code', schema: schemaWith('^(a)\\1$') } },
    });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: { message: string; type: string; param: string; code: string } };
    expect(body.error.code).toBe('invalid_parameter');
    expect(body.error.param).toBe('response_format');
    // Named as the caller wrote it in JSON.
    expect(body.error.message).toContain(JSON.stringify('^(a)\\1$'));
  });

  it('Responses refuses a lookahead in a tool schema, naming the field and the pattern', async () => {
    const r = await post('/api/v1/responses', {
      model: 'facet-agent',
      input: 'call check',
      tools: [
        {
          type: 'function',
          name: 'check',
          parameters: { type: 'object', properties: { v: { type: 'string', pattern: '^(?=x)x$' } }, required: ['v'] },
        },
      ],
    });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: { message: string; param: string } };
    expect(body.error.param).toBe('tools[0].parameters');
    expect(body.error.message).toContain('^(?=x)x$');
  });

  it('Messages refuses a lookbehind in input_schema with the Anthropic error shape', async () => {
    const r = await p.fetch('/api/v1/messages', {
      method: 'POST',
      headers: { 'x-api-key': p.boot.api_key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'facet-agent',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'call check' }],
        tools: [
          {
            name: 'check',
            input_schema: { type: 'object', properties: { v: { type: 'string', pattern: '(?<!y)x' } } },
          },
        ],
      }),
    });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('(?<!y)x');
  });

  it('refuses a pattern past the length limit and accepts one at it', async () => {
    const at = 'a'.repeat(1000);
    const ok = await post('/api/v1/chat/completions', {
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_schema', json_schema: { name: 'code', schema: schemaWith(at) } },
    });
    expect(ok.status).toBe(200);
    const past = await post('/api/v1/chat/completions', {
      model: 'facet-agent',
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_schema', json_schema: { name: 'code', schema: schemaWith(at + 'a') } },
    });
    expect(past.status).toBe(400);
    expect(((await past.json()) as { error: { message: string } }).error.message).toMatch(
      /1001 characters.*at most 1000/,
    );
  });
});
